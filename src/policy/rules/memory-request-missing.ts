import { missingResourceFindings } from '../resources';
import { defineRule, RuleCategory, Severity } from '../types';

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
  check: (_object, { view }) => missingResourceFindings(view, 'requests', 'memory', 'memory request'),
});
