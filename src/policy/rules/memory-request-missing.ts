import { jsonPath } from '../helpers';
import { hasResource, runningContainers } from '../resources';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Running containers should request memory. */
export const memoryRequestMissing = defineRule({
  id: 'memory-request-missing',
  severity: Severity.WARNING,
  category: RuleCategory.RELIABILITY,
  title: 'No memory request',
  rationale:
    'Pods using more memory than they request are evicted first under node memory pressure. A node agent without a request is among the first victims, leaving the node blind (PRACTICES P11).',
  fix: "Set `resources.requests.memory` to the agent's working set.",
  example: 'resources:\n  requests: {cpu: 100m, memory: 128Mi}\n  limits: {memory: 256Mi}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of runningContainers(view)) {
      if (!hasResource(c, 'requests', 'memory')) {
        out.push({ path: jsonPath(c.path, 'resources', 'requests', 'memory'), message: `container '${c.name}' has no memory request` });
      }
    }
    return out;
  },
});
