import { describeSurgeConflict, surgeConflict } from '../../coverage/surge';
import { show } from '../helpers';
import { defineRule, RuleCategory, Severity } from '../types';

/**
 * maxSurge with host ports or the host network: the surge pod cannot run next to the old one. The condition is
 * `surgeConflict`, the one `node-services plan` and the node services' synth-time check use. With a host port (declared,
 * or defaulted from a container port on the host network) the rollout can only stall: an error. On the host network
 * without declared ports the new pod may still fail to bind the ports it opens: a warning.
 */
export const surgeWithHostPorts = defineRule({
  id: 'surge-with-host-ports',
  severity: Severity.ERROR,
  category: RuleCategory.RELIABILITY,
  title: 'maxSurge together with host ports or hostNetwork',
  rationale:
    'With maxSurge the new pod starts on a node while the old one still runs there. With a hostPort (on the host network the API server sets hostPort to each containerPort) the scheduler cannot place the new pod next to the old one: it stays Pending, the old pod is never deleted and the rollout stalls on the first node (an error). On the host network without declared ports the two pods may still compete for the ports they open, and the new one crash-loops (a warning).',
  fix: 'Use `maxUnavailable` (with `maxSurge: 0`) for DaemonSets that bind host ports or use the host network.',
  example: 'updateStrategy:\n  type: RollingUpdate\n  rollingUpdate: {maxUnavailable: 1, maxSurge: 0}',
  check(object) {
    const conflict = surgeConflict(object);
    if (conflict === undefined) return [];
    const path = 'spec.updateStrategy.rollingUpdate.maxSurge';
    const start = `maxSurge ${show(conflict.maxSurge)} starts a second pod on each node while the old one runs there, with ${describeSurgeConflict(conflict)}`;
    if (conflict.hostPorts.length > 0) {
      return [{ path, message: `${start}: the new pod cannot be scheduled next to the old one, so the rollout stalls on the first node` }];
    }
    return [
      {
        path,
        message: `${start} and no declared port: the two pods may compete for the ports they open, and the new one crash-loops`,
        severity: Severity.WARNING,
      },
    ];
  },
});
