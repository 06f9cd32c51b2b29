import { missingResourceFindings } from '../resources';
import { kindsWhere, MemoryLimitPolicy } from '../kinds';
import { defineRule, RuleCategory, Severity } from '../types';

/** Running containers must limit memory. */
export const memoryLimitMissing = defineRule({
  id: 'memory-limit-missing',
  severity: Severity.WARNING,
  category: RuleCategory.RELIABILITY,
  title: 'No memory limit',
  rationale:
    'A DaemonSet runs on every node, so a memory leak without a limit can push every node into memory pressure at once and evict the workloads the cluster exists for; a limit turns a leak into a restart of one agent. How serious that is depends on the kind (see the severities per kind): collectors with buffers must be bounded, node-critical components are left unlimited on purpose.',
  fix: 'Set `resources.limits.memory` (commonly 1.5-2x the request for agents with bursty buffers).',
  example: 'resources:\n  requests: {cpu: 100m, memory: 128Mi}\n  limits: {memory: 256Mi}',
  kindSeverities: [
    {
      kinds: kindsWhere((p) => p.memoryLimit === MemoryLimitPolicy.REQUIRED),
      severity: Severity.ERROR,
      declaredOnly: true,
      reason:
        'Log and metrics collectors buffer what they read (a backlog of log lines, a burst of series); without a limit a stuck output grows the buffer on every node at once. A hard line for services declared with the kind annotation (the library sets a limit by default); vendor charts leave resources to the installer (`resources: {}`), so an inferred collector gets the default warning.',
    },
    {
      kinds: kindsWhere((p) => p.memoryLimit === MemoryLimitPolicy.OPTIONAL),
      severity: Severity.INFO,
      reason:
        "Upstream CNIs, kube-proxy, CSI node plugins and device plugins ship without a memory limit on purpose: an OOM kill takes the node's network, storage or devices down, which is worse than the memory pressure a leak causes. Advice only: set requests (and a priority class) instead.",
    },
  ],
  check: (_object, { view }) => missingResourceFindings(view, 'limits', 'memory', 'memory limit'),
});
