/**
 * Rule `privileged-escalation-conflict`: A privileged container cannot set allowPrivilegeEscalation: false.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('privileged-escalation-conflict', {
  nonCompliant: [
    {
      name: 'privileged with APE false',
      kind: 'csi-node',
      mutate: (ds) => (mainContainer(ds).securityContext.privileged = true),
      path: `${C0}.securityContext.allowPrivilegeEscalation`,
    },
  ],
  compliant: [
    {
      name: 'privileged with APE true',
      kind: 'csi-node',
      mutate: (ds) => Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true }),
    },
  ],
});
