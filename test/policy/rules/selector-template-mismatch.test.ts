/**
 * Rule `selector-template-mismatch`: DaemonSet selector must match the pod template labels.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule } from './support';

describeRule('selector-template-mismatch', {
  nonCompliant: [
    {
      name: 'template instance differs',
      mutate: (ds) => (ds.spec.template.metadata.labels['app.kubernetes.io/instance'] = 'other'),
      path: 'spec.template.metadata.labels',
      message: /other/,
    },
  ],
  compliant: [
    {
      name: 'NotIn satisfied',
      mutate: (ds) => (ds.spec.selector.matchExpressions = [{ key: 'tier', operator: 'NotIn', values: ['web'] }]),
    },
  ],
});
