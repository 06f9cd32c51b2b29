import { jsonPath, show } from '../helpers';
import { NodeServiceKind } from '../kinds';
import { defineRule, RuleCategory, Severity } from '../types';

/** Host-network pods must choose their DNS policy explicitly. */
export const hostNetworkDnsPolicy = defineRule({
  id: 'host-network-dns-policy',
  severity: Severity.WARNING,
  category: RuleCategory.RELIABILITY,
  title: 'hostNetwork without dnsPolicy ClusterFirstWithHostNet (or Default)',
  rationale:
    "With hostNetwork, dnsPolicy ClusterFirst (the default) silently falls back to the node's resolver, so an agent that ships to an in-cluster service cannot resolve it. Agents that must resolve cluster names need ClusterFirstWithHostNet; a CNI (cluster DNS needs the CNI first) or an agent that resolves nothing should say Default.",
  fix: 'Set `dnsPolicy: ClusterFirstWithHostNet`, or `dnsPolicy: Default` for a CNI or an agent that needs no cluster DNS.',
  example: 'spec:\n  template:\n    spec:\n      hostNetwork: true\n      dnsPolicy: ClusterFirstWithHostNet',
  kindSeverities: [
    {
      kinds: [NodeServiceKind.CNI_PLUGIN, NodeServiceKind.KUBE_PROXY, NodeServiceKind.CSI_NODE, NodeServiceKind.DEVICE_PLUGIN],
      reason:
        "Not reported: these kinds must not depend on cluster DNS (it needs the network and storage they provide first), and ClusterFirst on the host network already resolves through the node's resolver, as Default does.",
    },
    {
      kinds: [NodeServiceKind.MONITORING_AGENT],
      severity: Severity.INFO,
      reason: 'Node exporters serve metrics and resolve no cluster names; stating Default documents that, nothing breaks without it.',
    },
  ],
  check(_object, { view }) {
    if (view.pod.hostNetwork !== true) return [];
    const policy = view.pod.dnsPolicy;
    if (policy !== undefined && policy !== null && policy !== 'ClusterFirst') return [];
    return [
      {
        path: jsonPath(view.podPath, 'dnsPolicy'),
        message: `hostNetwork is true and dnsPolicy is ${policy === undefined || policy === null ? 'unset (ClusterFirst)' : show(policy)}, so cluster DNS names do not resolve`,
      },
    ];
  },
});
