import { CONTAINER, containerSets, NOT_ON_WINDOWS, offendingContainers } from '../cel';
import {
  ContainerRef,
  containersOf,
  containerWords,
  isWindows,
  list,
  obj,
  PodSecurityControl,
  PodSecurityLevel,
  securityContext,
} from './control';

const DROPS_ALL = `${containerSets('capabilities.drop')} && 'ALL' in ${CONTAINER('capabilities.drop')}`;
const ADDS_ONLY_NET_BIND = `!(${containerSets('capabilities.add')}) || ${CONTAINER('capabilities.add')}.all(a, a == 'NET_BIND_SERVICE')`;

/**
 * `capabilities_restricted`: every container drops `ALL` and adds nothing but `NET_BIND_SERVICE` (Windows pods exempt
 * from v1.25). @internal
 */
export const capabilitiesRestricted: PodSecurityControl = {
  id: 'capabilities_restricted',
  level: PodSecurityLevel.RESTRICTED,
  version: 'v1.25',
  overrides: ['capabilities_baseline'],
  check(pod) {
    if (isWindows(pod)) return undefined;
    const missingDrop: ContainerRef[] = [];
    const adding: ContainerRef[] = [];
    const caps = new Set<string>();
    for (const c of containersOf(pod)) {
      const capabilities = obj(securityContext(c).capabilities);
      if (!list(capabilities.drop).includes('ALL')) missingDrop.push(c);
      const added = list(capabilities.add).filter((cap) => cap !== 'NET_BIND_SERVICE');
      if (added.length > 0) {
        adding.push(c);
        added.forEach((cap) => caps.add(String(cap)));
      }
    }
    if (missingDrop.length === 0 && adding.length === 0) return undefined;
    const details = [
      ...(missingDrop.length > 0 ? [`capabilities.drop without ALL (${containerWords(missingDrop.map((c) => c.name))})`] : []),
      ...(adding.length > 0 ? [`capabilities.add ${[...caps].sort().join(', ')} (${containerWords(adding.map((c) => c.name))})`] : []),
    ];
    return {
      summary: details.join('; '),
      fields: [
        ...missingDrop.map((c) => `${c.path}.securityContext.capabilities.drop`),
        ...adding.map((c) => `${c.path}.securityContext.capabilities.add`),
      ],
    };
  },
  cel: {
    policy: 'tenant-pod-security',
    variable: 'capabilitiesNotDropped',
    what: 'containers that do not drop ALL capabilities or add one other than NET_BIND_SERVICE',
    expression: NOT_ON_WINDOWS(offendingContainers(`!(${DROPS_ALL}) || !(${ADDS_ONLY_NET_BIND})`)),
  },
};
