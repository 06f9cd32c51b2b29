import { intOrPercentError, isZeroIntOrPercent } from '../../k8s/intstr';
import { asObject, show } from '../helpers';
import { defineRule, RuleCategory, Severity } from '../types';

/** maxSurge with host ports or the host network: the surge pod cannot start next to the old one. */
export const surgeWithHostPorts = defineRule({
  id: 'surge-with-host-ports',
  severity: Severity.WARNING,
  category: RuleCategory.RELIABILITY,
  title: 'maxSurge together with host ports or hostNetwork',
  rationale:
    'With maxSurge the new pod starts on a node while the old one still runs there. Both bind the same hostPort (or, on the host network, the same node ports), so the new pod stays Pending or crash-loops and the rollout stalls.',
  fix: 'Use `maxUnavailable` (with `maxSurge: 0`) for DaemonSets that bind host ports or use the host network.',
  example: 'updateStrategy:\n  type: RollingUpdate\n  rollingUpdate: {maxUnavailable: 1, maxSurge: 0}',
  check(_object, { view }) {
    const strategy = asObject(view.spec.updateStrategy);
    if ((strategy.type ?? 'RollingUpdate') !== 'RollingUpdate') return [];
    const surge = asObject(strategy.rollingUpdate).maxSurge;
    if (surge === undefined || surge === null || intOrPercentError(surge) || isZeroIntOrPercent(surge)) return [];
    const hostPort = view.containers.find((c) => c.ports.some((p) => typeof asObject(p).hostPort === 'number' && asObject(p).hostPort > 0));
    if (view.pod.hostNetwork !== true && !hostPort) return [];
    const why = view.pod.hostNetwork === true ? 'the pod uses the host network' : `container '${hostPort?.name}' binds a hostPort`;
    return [
      {
        path: 'spec.updateStrategy.rollingUpdate.maxSurge',
        message: `maxSurge ${show(surge)} starts a second pod on each node while ${why}; the two pods compete for the same ports`,
      },
    ];
  },
});
