import { jsonPath, show } from '../helpers';
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
