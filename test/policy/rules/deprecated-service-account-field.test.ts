/**
 * Rule `deprecated-service-account-field`: Deprecated serviceAccount field.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('deprecated-service-account-field', {
  nonCompliant: [
    {
      name: 'serviceAccount differing from serviceAccountName',
      mutate: (ds) => Object.assign(podOf(ds), { serviceAccount: 'old', serviceAccountName: 'fluent-bit' }),
      path: `${POD}.serviceAccount`,
      message: /differs/,
    },
  ],
  compliant: [
    {
      name: 'serviceAccountName only',
      mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
    },
  ],
});
