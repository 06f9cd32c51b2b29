/**
 * Rule `host-path-writable`: hostPath mounted writable.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('host-path-writable', {
  nonCompliant: [
    {
      name: 'mount without readOnly',
      mutate: (ds) => (mainContainer(ds).volumeMounts[0].readOnly = false),
      path: `${C0}.volumeMounts[0].readOnly`,
      message: /\/var\/log/,
    },
  ],
  compliant: [{ name: 'readOnly mount', mutate: () => undefined }],
});
