import { CONTAINER, containerSets, NOT_ON_WINDOWS, offendingContainers } from '../cel';
import { containersOf, containerWords, isWindows, PodSecurityControl, PodSecurityLevel, securityContext } from './control';

/** `allowPrivilegeEscalation`: every container sets it to `false` (Windows pods exempt from v1.25). @internal */
export const allowPrivilegeEscalation: PodSecurityControl = {
  id: 'allowPrivilegeEscalation',
  level: PodSecurityLevel.RESTRICTED,
  version: 'v1.25',
  check(pod) {
    if (isWindows(pod)) return undefined;
    const bad = containersOf(pod).filter((c) => securityContext(c).allowPrivilegeEscalation !== false);
    if (bad.length === 0) return undefined;
    return {
      summary: `allowPrivilegeEscalation != false (${containerWords(bad.map((c) => c.name))})`,
      fields: bad.map((c) => `${c.path}.securityContext.allowPrivilegeEscalation`),
    };
  },
  cel: {
    policy: 'tenant-pod-security',
    variable: 'privilegeEscalation',
    what: 'containers without allowPrivilegeEscalation: false',
    expression: NOT_ON_WINDOWS(
      offendingContainers(`!(${containerSets('allowPrivilegeEscalation')} && ${CONTAINER('allowPrivilegeEscalation')} == false)`),
    ),
  },
};
