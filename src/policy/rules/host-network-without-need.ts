import { hostNamespaceFinding } from '../host-access';
import { defineRule, RuleCategory, Severity } from '../types';

/** `hostNetwork: true` on a kind that does not need the node's network namespace. */
export const hostNetworkWithoutNeed = defineRule({
  id: 'host-network-without-need',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'hostNetwork on a kind that does not need it',
  rationale:
    "On the host network a pod can bind any node port, reach node-local services (kubelet, metadata endpoints) and sniff node traffic, and NetworkPolicy no longer applies to it. CNI agents, node exporters, runtime-security agents and some CSI drivers need it; log agents and GPU monitors do not. Not reported for Windows HostProcess pods, which the API server admits only on the host network. Not reported for a kind declared by the kind annotation that needs it; a kind inferred from the manifest's shape gets the warning with the way to declare the kind, and a DaemonSet of no kind always gets it.",
  fix: 'Remove `hostNetwork: true` (use a pod IP and a Service or hostPort if a node-local port is needed), or suppress with the reason.',
  example: 'spec:\n  template:\n    spec:\n      hostNetwork: false',
  check(_object, { view }) {
    if (view.pod.hostNetwork !== true) return [];
    // A HostProcess pod must use the host network (windows-fields-invalid reports one that does not).
    if (view.containers.some((c) => c.hostProcess)) return [];
    return [hostNamespaceFinding(view, 'hostNetwork')];
  },
});
