/**
 * Rule `liveness-probe-missing`: No liveness probe.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('liveness-probe-missing', {
  nonCompliant: [
    {
      name: 'no liveness probe',
      mutate: (ds) => delete mainContainer(ds).livenessProbe,
      path: `${C0}.livenessProbe`,
    },
  ],
  compliant: [{ name: 'probe set', mutate: () => undefined }],
});
