/**
 * Rule `host-network-dns-policy`: hostNetwork without dnsPolicy ClusterFirstWithHostNet (or Default).
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('host-network-dns-policy', {
  nonCompliant: [
    {
      name: 'hostNetwork with default dnsPolicy',
      kind: 'monitoring-agent',
      mutate: (ds) => (podOf(ds).hostNetwork = true),
      path: `${POD}.dnsPolicy`,
      message: /unset/,
      severity: 'info',
    },
    {
      name: 'a generic host-network service',
      kind: 'node-service',
      mutate: (ds) => (podOf(ds).hostNetwork = true),
      path: `${POD}.dnsPolicy`,
    },
    {
      name: 'hostNetwork with ClusterFirst',
      kind: 'monitoring-agent',
      mutate: (ds) => Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'ClusterFirst' }),
      path: `${POD}.dnsPolicy`,
      message: /ClusterFirst/,
      severity: 'info',
    },
  ],
  compliant: [
    {
      name: 'a CNI on the host network resolves through the node either way',
      kind: 'cni-plugin',
      mutate: (ds) => (podOf(ds).hostNetwork = true),
    },
    {
      name: 'ClusterFirstWithHostNet',
      kind: 'monitoring-agent',
      mutate: (ds) => Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' }),
    },
    {
      name: 'Default for a CNI',
      kind: 'cni-plugin',
      mutate: (ds) => Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'Default' }),
    },
  ],
});
