/**
 * Rule `seccomp-unconfined`: Seccomp explicitly Unconfined.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, POD, podOf } from './support';

describeRule('seccomp-unconfined', {
  nonCompliant: [
    {
      name: 'container Unconfined',
      mutate: (ds) => (mainContainer(ds).securityContext.seccompProfile = { type: 'Unconfined' }),
      path: `${C0}.securityContext.seccompProfile.type`,
    },
    {
      name: 'pod Unconfined',
      mutate: (ds) => (podOf(ds).securityContext.seccompProfile = { type: 'Unconfined' }),
      path: `${POD}.securityContext.seccompProfile.type`,
    },
  ],
  compliant: [
    {
      name: 'Localhost profile',
      mutate: (ds) => (mainContainer(ds).securityContext.seccompProfile = { type: 'Localhost', localhostProfile: 'profiles/agent.json' }),
    },
  ],
});
