import { CONTAINER, containerSets, offendingContainers } from '../cel';
import { containersOf, containerWords, PodSecurityControl, PodSecurityLevel, securityContext } from './control';

/** `privileged`: no privileged container. @internal */
export const privileged: PodSecurityControl = {
  id: 'privileged',
  level: PodSecurityLevel.BASELINE,
  version: 'v1.0',
  check(pod) {
    const bad = containersOf(pod).filter((c) => securityContext(c).privileged === true);
    if (bad.length === 0) return undefined;
    return {
      summary: `privileged=true (${containerWords(bad.map((c) => c.name))})`,
      fields: bad.map((c) => `${c.path}.securityContext.privileged`),
    };
  },
  cel: {
    policy: 'host-access',
    variable: 'privilegedContainers',
    what: 'privileged containers',
    expression: offendingContainers(`${containerSets('privileged')} && ${CONTAINER('privileged')} == true`),
  },
};
