/**
 * Rule `readiness-probe-missing`: No readiness probe on any container.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('readiness-probe-missing', {
  nonCompliant: [
    {
      name: 'no readiness probe',
      mutate: (ds) => delete mainContainer(ds).readinessProbe,
      path: `${C0}.readinessProbe`,
    },
  ],
  compliant: [{ name: 'probe set', mutate: () => undefined }],
});
