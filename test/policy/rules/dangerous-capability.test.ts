/**
 * Rule `dangerous-capability`: Dangerous capability added.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('dangerous-capability', {
  nonCompliant: [
    {
      name: 'NET_ADMIN on a generic node service',
      kind: 'node-service',
      mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['NET_RAW', 'NET_ADMIN']),
      path: `${C0}.securityContext.capabilities.add[1]`,
      message: /NET_ADMIN/,
    },
    {
      name: 'cap_sys_admin spelled in lower case',
      kind: 'node-service',
      mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['cap_sys_admin']),
      path: `${C0}.securityContext.capabilities.add[0]`,
      message: /cap_sys_admin/,
    },
  ],
  compliant: [
    {
      name: 'NET_ADMIN on a CNI, whose job needs it',
      kind: 'cni-plugin',
      mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['NET_RAW', 'NET_ADMIN']),
    },
    {
      name: 'SYS_TIME',
      kind: 'monitoring-agent',
      mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['SYS_TIME']),
    },
  ],
});
