/**
 * Rule `priority-class-missing`: No priority class on a node-critical kind.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('priority-class-missing', {
  nonCompliant: [
    {
      name: 'CNI without priority class',
      kind: 'cni-plugin',
      mutate: () => undefined,
      path: `${POD}.priorityClassName`,
      message: /cni-plugin/,
    },
  ],
  compliant: [
    {
      name: 'CNI with system-node-critical',
      kind: 'cni-plugin',
      mutate: (ds) => (podOf(ds).priorityClassName = 'system-node-critical'),
    },
    { name: 'log agents are not node-critical', mutate: () => undefined },
  ],
});
