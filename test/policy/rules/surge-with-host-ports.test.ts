/**
 * Rule `surge-with-host-ports`: maxSurge together with host ports or hostNetwork.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, mainContainer, podOf } from './support';

describeRule('surge-with-host-ports', {
  nonCompliant: [
    {
      name: 'surge with a hostPort',
      mutate: (ds) => {
        ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: 1 };
        mainContainer(ds).ports[0].hostPort = 2020;
      },
      path: 'spec.updateStrategy.rollingUpdate.maxSurge',
      message: /maxSurge 1 .* with host port TCP\/2020: the new pod cannot be scheduled next to the old one/,
    },
    {
      name: 'surge on the host network',
      kind: 'monitoring-agent',
      mutate: (ds) => {
        ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: '10%' };
        Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'Default' });
      },
      path: 'spec.updateStrategy.rollingUpdate.maxSurge',
      // the API server sets hostPort to each containerPort of a host-network pod: the rollout can only stall
      message: /with host port TCP\/\d+ and the host network: the new pod cannot be scheduled next to the old one/,
    },
    {
      name: 'surge on the host network without declared ports',
      kind: 'monitoring-agent',
      mutate: (ds) => {
        ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: 1 };
        Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'Default' });
        for (const c of podOf(ds).containers) delete c.ports;
      },
      path: 'spec.updateStrategy.rollingUpdate.maxSurge',
      message: /with the host network and no declared port: the two pods may compete/,
      severity: 'warning',
    },
  ],
  compliant: [
    {
      name: 'surge without host ports',
      mutate: (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: 1 }),
    },
    {
      name: 'hostPort with maxUnavailable',
      mutate: (ds) => (mainContainer(ds).ports[0].hostPort = 2020),
    },
  ],
});
