/**
 * Rule `seccomp-profile-missing`: No seccomp profile.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, podOf } from './support';

describeRule('seccomp-profile-missing', {
  nonCompliant: [
    {
      name: 'no profile anywhere',
      mutate: (ds) => delete podOf(ds).securityContext,
      path: `${C0}.securityContext.seccompProfile`,
    },
  ],
  compliant: [
    {
      name: 'container-level profile',
      mutate: (ds) => {
        delete podOf(ds).securityContext;
        mainContainer(ds).securityContext.seccompProfile = { type: 'RuntimeDefault' };
      },
    },
  ],
});
