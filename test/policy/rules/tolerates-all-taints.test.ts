/**
 * Rule `tolerates-all-taints`: Blanket toleration on a kind that is not node infrastructure.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('tolerates-all-taints', {
  nonCompliant: [
    {
      name: 'log agent tolerating everything',
      mutate: (ds) => (podOf(ds).tolerations = [{ operator: 'Exists' }]),
      path: `${POD}.tolerations[0]`,
      message: /log-agent/,
    },
    {
      name: 'every NoExecute taint (generic kind)',
      kind: 'node-service',
      mutate: (ds) => (podOf(ds).tolerations = [{ operator: 'Exists', effect: 'NoExecute' }]),
      path: `${POD}.tolerations[0]`,
      message: /NoExecute/,
    },
  ],
  compliant: [
    {
      name: 'node infrastructure may tolerate everything',
      kind: 'csi-node',
      mutate: (ds) => (podOf(ds).tolerations = [{ operator: 'Exists' }]),
    },
    { name: 'keyed Exists toleration', mutate: () => undefined },
  ],
});
