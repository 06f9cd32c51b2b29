/**
 * Rule `privileged-container`: Privileged container (or Windows HostProcess).
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, podOf } from './support';

describeRule('privileged-container', {
  nonCompliant: [
    {
      name: 'privileged CSI driver',
      kind: 'csi-node',
      mutate: (ds) => Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true }),
      path: `${C0}.securityContext.privileged`,
      severity: 'info',
    },
    {
      name: 'Windows HostProcess container',
      kind: 'node-service',
      mutate: (ds) => {
        podOf(ds).os = { name: 'windows' };
        podOf(ds).hostNetwork = true;
        mainContainer(ds).securityContext = { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } };
      },
      path: `${C0}.securityContext.windowsOptions.hostProcess`,
      message: /HostProcess/,
    },
  ],
  compliant: [{ name: 'unprivileged', mutate: (ds) => (mainContainer(ds).securityContext.privileged = false) }],
});
