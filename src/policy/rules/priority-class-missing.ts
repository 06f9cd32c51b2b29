import { KIND_ANNOTATION } from '../kinds';
import { jsonPath } from '../helpers';
import { defineRule, RuleCategory, Severity } from '../types';

/** Node-critical kinds need a priority class. */
export const priorityClassMissing = defineRule({
  id: 'priority-class-missing',
  severity: Severity.WARNING,
  category: RuleCategory.RELIABILITY,
  title: 'No priority class on a node-critical kind',
  rationale: `A node is broken without its CNI or CSI node plugin and a GPU node is unmonitored without its GPU monitor (kinds marked critical, from the ${KIND_ANNOTATION} annotation). Without a priority class their pods cannot preempt ordinary pods on a full node and are evicted like any other pod; system-node-critical also gets the kubelet's lowest OOM score.`,
  fix: 'Set `priorityClassName: system-node-critical` (or a high custom class).',
  example: 'spec:\n  template:\n    spec:\n      priorityClassName: system-node-critical',
  check(_object, { view }) {
    if (!view.kindProfile.critical) return [];
    const pc = view.pod.priorityClassName;
    if (typeof pc === 'string' && pc !== '') return [];
    return [
      {
        path: jsonPath(view.podPath, 'priorityClassName'),
        message: `kind '${view.kindProfile.kind}' is node-critical but the pod has no priorityClassName`,
      },
    ];
  },
});
