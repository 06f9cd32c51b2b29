/**
 * Rule `toleration-invalid`: Tolerations must be well-formed.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('toleration-invalid', {
  nonCompliant: [
    {
      name: 'Exists with a value',
      mutate: (ds) => (podOf(ds).tolerations = [{ key: 'gpu', operator: 'Exists', value: 'true' }]),
      path: `${POD}.tolerations[0].value`,
      message: /'true'/,
    },
    {
      name: 'empty key with Equal',
      mutate: (ds) => (podOf(ds).tolerations = [{ operator: 'Equal', value: 'x' }]),
      path: `${POD}.tolerations[0].operator`,
      message: /Exists/,
    },
    {
      name: 'tolerationSeconds with NoSchedule',
      mutate: (ds) => (podOf(ds).tolerations = [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 30 }]),
      path: `${POD}.tolerations[0].tolerationSeconds`,
      message: /NoSchedule/,
    },
  ],
  compliant: [
    {
      name: 'Equal with NoExecute seconds',
      mutate: (ds) =>
        podOf(ds).tolerations.push({ key: 'maintenance', operator: 'Equal', value: 'true', effect: 'NoExecute', tolerationSeconds: 30 }),
    },
    {
      name: 'tolerate everything',
      kind: 'cni-plugin',
      mutate: (ds) => (podOf(ds).tolerations = [{ operator: 'Exists' }]),
    },
  ],
});
