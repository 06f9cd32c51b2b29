import { missingResourceFindings } from '../resources';
import { defineRule, RuleCategory, Severity } from '../types';

/** Running containers should request CPU. */
export const cpuRequestMissing = defineRule({
  id: 'cpu-request-missing',
  severity: Severity.WARNING,
  category: RuleCategory.RELIABILITY,
  title: 'No CPU request',
  rationale:
    'Without a CPU request the agent gets the smallest CPU share under contention, exactly when the node is busy and its logs or metrics matter most, and the scheduler cannot account for it on every node.',
  fix: "Set `resources.requests.cpu` to the agent's steady usage (e.g. 50m-200m for log and metrics agents).",
  example: 'resources:\n  requests: {cpu: 100m, memory: 128Mi}\n  limits: {memory: 256Mi}',
  check: (_object, { view }) => missingResourceFindings(view, 'requests', 'cpu', 'CPU request'),
});
