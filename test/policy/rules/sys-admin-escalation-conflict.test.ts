/**
 * Rule `sys-admin-escalation-conflict`: CAP_SYS_ADMIN cannot be added with allowPrivilegeEscalation: false.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('sys-admin-escalation-conflict', {
  nonCompliant: [
    {
      name: 'CAP_SYS_ADMIN with APE false',
      mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['CAP_SYS_ADMIN']),
      path: `${C0}.securityContext.capabilities.add[0]`,
      message: /CAP_SYS_ADMIN/,
    },
  ],
  compliant: [
    {
      name: 'SYS_ADMIN without the prefix',
      mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['SYS_ADMIN']),
    },
  ],
});
