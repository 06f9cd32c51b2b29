/**
 * Rule `host-network-host-port-mismatch`: With hostNetwork, hostPort must equal containerPort.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, podOf } from './support';

describeRule('host-network-host-port-mismatch', {
  nonCompliant: [
    {
      name: 'hostPort differs from containerPort',
      kind: 'monitoring-agent',
      mutate: (ds) => {
        podOf(ds).hostNetwork = true;
        mainContainer(ds).ports[0].hostPort = 8080;
      },
      path: `${C0}.ports[0].hostPort`,
      message: /8080.*2020/,
    },
  ],
  compliant: [
    {
      name: 'hostPort equals containerPort',
      kind: 'monitoring-agent',
      mutate: (ds) => {
        podOf(ds).hostNetwork = true;
        mainContainer(ds).ports[0].hostPort = 2020;
      },
    },
  ],
});
