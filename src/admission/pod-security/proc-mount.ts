import { CONTAINER, containerSets, offendingContainers } from '../cel';
import { containersOf, containerWords, isSet, PodSecurityControl, PodSecurityLevel, quote, securityContext } from './control';

/** `procMount`: `/proc` is mounted with the `Default` mask. @internal */
export const procMount: PodSecurityControl = {
  id: 'procMount',
  level: PodSecurityLevel.BASELINE,
  version: 'v1.0',
  check(pod) {
    const bad = containersOf(pod).filter((c) => isSet(securityContext(c).procMount) && securityContext(c).procMount !== 'Default');
    if (bad.length === 0) return undefined;
    const values = [...new Set(bad.map((c) => String(securityContext(c).procMount)))].sort();
    return {
      summary: `procMount ${quote(values)} (${containerWords(bad.map((c) => c.name))})`,
      fields: bad.map((c) => `${c.path}.securityContext.procMount`),
    };
  },
  cel: {
    policy: 'tenant-pod-security',
    variable: 'procMounts',
    what: 'procMount other than Default',
    expression: offendingContainers(
      `${containerSets('procMount')} && ${CONTAINER('procMount')} != 'Default'`,
      `c.name + '=' + ${CONTAINER('procMount')}`,
    ),
  },
};
