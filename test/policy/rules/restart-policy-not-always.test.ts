/**
 * Rule `restart-policy-not-always`: Pod restartPolicy must be Always.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('restart-policy-not-always', {
  nonCompliant: [
    {
      name: 'OnFailure',
      mutate: (ds) => (podOf(ds).restartPolicy = 'OnFailure'),
      path: `${POD}.restartPolicy`,
      message: /OnFailure/,
    },
  ],
  compliant: [
    {
      name: 'an empty restartPolicy (defaulted to Always)',
      mutate: (ds) => (podOf(ds).restartPolicy = ''),
    },
    { name: 'Always', mutate: (ds) => (podOf(ds).restartPolicy = 'Always') },
  ],
});
