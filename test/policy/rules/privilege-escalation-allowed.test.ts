/**
 * Rule `privilege-escalation-allowed`: allowPrivilegeEscalation not false.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('privilege-escalation-allowed', {
  nonCompliant: [
    {
      name: 'unset',
      mutate: (ds) => delete mainContainer(ds).securityContext.allowPrivilegeEscalation,
      path: `${C0}.securityContext.allowPrivilegeEscalation`,
      message: /undefined/,
    },
    {
      name: 'true',
      mutate: (ds) => (mainContainer(ds).securityContext.allowPrivilegeEscalation = true),
      path: `${C0}.securityContext.allowPrivilegeEscalation`,
      message: /true/,
    },
  ],
  compliant: [
    { name: 'explicit false', mutate: () => undefined },
    {
      name: 'privileged containers are skipped',
      kind: 'csi-node',
      mutate: (ds) => Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true }),
    },
  ],
});
