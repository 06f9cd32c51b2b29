/**
 * Rule `privileged-not-allowed`: Privileged container in a kind that does not need privilege.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('privileged-not-allowed', {
  nonCompliant: [
    {
      name: 'privileged log agent',
      mutate: (ds) => Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true }),
      path: `${C0}.securityContext.privileged`,
      message: /log-agent/,
    },
  ],
  compliant: [
    {
      name: 'privileged CSI driver',
      kind: 'csi-node',
      mutate: (ds) => Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true }),
    },
  ],
});
