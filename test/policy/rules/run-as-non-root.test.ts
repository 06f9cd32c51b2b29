/**
 * Rule `run-as-non-root`: May run as root.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, podOf } from './support';

describeRule('run-as-non-root', {
  nonCompliant: [
    {
      name: 'a generic service without runAsNonRoot',
      kind: 'node-service',
      mutate: () => undefined,
      path: `${C0}.securityContext.runAsNonRoot`,
      message: /may run as root/,
    },
    {
      name: 'a monitoring agent with runAsUser 0',
      kind: 'monitoring-agent',
      mutate: (ds) => (podOf(ds).securityContext.runAsUser = 0),
      path: `${C0}.securityContext.runAsNonRoot`,
      message: /runs as root/,
    },
  ],
  compliant: [
    {
      name: 'a log agent reads root-owned logs as root by design',
      mutate: (ds) => (podOf(ds).securityContext.runAsUser = 0),
    },
    {
      name: 'runAsUser 65534 on the pod',
      kind: 'node-service',
      mutate: (ds) => (podOf(ds).securityContext.runAsUser = 65534),
    },
    {
      name: 'privileged containers are covered by the privileged finding',
      kind: 'node-service',
      mutate: (ds) => Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true }),
    },
  ],
});
