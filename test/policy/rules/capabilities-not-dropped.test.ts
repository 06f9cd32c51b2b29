/**
 * Rule `capabilities-not-dropped`: Capabilities not dropped (no drop ALL).
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('capabilities-not-dropped', {
  nonCompliant: [
    {
      name: 'drops nothing',
      mutate: (ds) => delete mainContainer(ds).securityContext.capabilities.drop,
      path: `${C0}.securityContext.capabilities.drop`,
      message: /none/,
    },
    {
      name: 'drops NET_RAW only',
      mutate: (ds) => (mainContainer(ds).securityContext.capabilities.drop = ['NET_RAW']),
      path: `${C0}.securityContext.capabilities.drop`,
      message: /NET_RAW/,
    },
  ],
  compliant: [
    {
      name: "drop 'all' in lower case",
      mutate: (ds) => (mainContainer(ds).securityContext.capabilities.drop = ['all']),
    },
    {
      name: 'privileged containers are skipped',
      kind: 'csi-node',
      mutate: (ds) => (mainContainer(ds).securityContext = { privileged: true, allowPrivilegeEscalation: true }),
    },
  ],
});
