import { jsonPath } from '../helpers';
import { hasResource, runningContainers } from '../resources';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Running containers must limit memory. */
export const memoryLimitMissing = defineRule({
  id: 'memory-limit-missing',
  severity: Severity.ERROR,
  category: RuleCategory.RELIABILITY,
  title: 'No memory limit',
  rationale:
    'A DaemonSet runs on every node, so a memory leak without a limit can push every node into memory pressure at once and evict the workloads the cluster exists for. This is a hard line (error): a limit turns a leak into a restart of one agent.',
  fix: 'Set `resources.limits.memory` (commonly 1.5-2x the request for agents with bursty buffers).',
  example: 'resources:\n  requests: {cpu: 100m, memory: 128Mi}\n  limits: {memory: 256Mi}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of runningContainers(view)) {
      if (!hasResource(c, 'limits', 'memory')) {
        out.push({ path: jsonPath(c.path, 'resources', 'limits', 'memory'), message: `container '${c.name}' has no memory limit` });
      }
    }
    return out;
  },
});
