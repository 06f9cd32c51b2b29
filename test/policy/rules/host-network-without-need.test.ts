/**
 * Rule `host-network-without-need`: hostNetwork on a kind that does not need it.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('host-network-without-need', {
  nonCompliant: [
    {
      name: 'GPU monitor on the host network',
      kind: 'gpu-monitor',
      mutate: (ds) => Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' }),
      path: `${POD}.hostNetwork`,
      message: /gpu-monitor/,
    },
  ],
  compliant: [
    {
      name: 'CNI on the host network',
      kind: 'cni-plugin',
      mutate: (ds) => Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'Default' }),
    },
  ],
});
