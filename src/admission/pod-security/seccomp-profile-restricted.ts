import { ALLOWED_SECCOMP_TYPES } from '../../k8s/pod-security-sets';
import {
  CONTAINER,
  containerSets,
  NOT_ON_WINDOWS,
  offendingContainers,
  POD,
  POD_OFFENDS,
  POD_SECCOMP_VALID,
  podSets,
  SECCOMP_VALID,
} from '../cel';
import {
  ContainerRef,
  containersOf,
  containerWords,
  isSet,
  isWindows,
  obj,
  PodSecurityControl,
  PodSecurityLevel,
  quote,
  securityContext,
  setters,
  under,
} from './control';

const SECCOMP_TYPES = new Set(ALLOWED_SECCOMP_TYPES);

/**
 * `seccompProfile_restricted`: `RuntimeDefault` or `Localhost` on the pod or on every container (Windows pods exempt
 * from v1.25). @internal
 */
export const seccompProfileRestricted: PodSecurityControl = {
  id: 'seccompProfile_restricted',
  level: PodSecurityLevel.RESTRICTED,
  version: 'v1.25',
  overrides: ['seccompProfile_baseline'],
  check(pod) {
    if (isWindows(pod)) return undefined;
    const values = new Set<string>();
    const podProfile = obj(pod.spec.securityContext).seccompProfile;
    const podBad = isSet(podProfile) && !SECCOMP_TYPES.has(obj(podProfile).type);
    if (podBad) values.add(String(obj(podProfile).type ?? ''));
    const podValid = isSet(podProfile) && !podBad;
    const explicit: ContainerRef[] = [];
    const implicit: ContainerRef[] = [];
    for (const c of containersOf(pod)) {
      const profile = securityContext(c).seccompProfile;
      if (isSet(profile)) {
        if (!SECCOMP_TYPES.has(obj(profile).type)) {
          explicit.push(c);
          values.add(String(obj(profile).type ?? ''));
        }
      } else if (!podValid) {
        implicit.push(c);
      }
    }
    // As upstream: explicitly bad values are reported first; missing profiles only when nothing sets a bad one.
    if (podBad || explicit.length > 0) {
      return {
        summary: `seccompProfile.type ${quote([...values].sort())} (${setters(podBad, explicit)})`,
        fields: [
          ...(podBad ? [`${under(pod)}securityContext.seccompProfile.type`] : []),
          ...explicit.map((c) => `${c.path}.securityContext.seccompProfile.type`),
        ],
      };
    }
    if (implicit.length === 0) return undefined;
    return {
      summary: `seccompProfile unset (pod or ${containerWords(implicit.map((c) => c.name))} must set RuntimeDefault or Localhost)`,
      fields: implicit.map((c) => `${c.path}.securityContext.seccompProfile`),
    };
  },
  cel: {
    policy: 'tenant-pod-security',
    variable: 'missingSeccomp',
    what: 'seccomp profiles that are not RuntimeDefault or Localhost (set on the pod or on every container)',
    expression: NOT_ON_WINDOWS(
      POD_OFFENDS(`${podSets('seccompProfile')} && !(${SECCOMP_VALID(POD('seccompProfile'))})`) +
        ' + ' +
        offendingContainers(
          `${containerSets('seccompProfile')} ? !(${SECCOMP_VALID(CONTAINER('seccompProfile'))}) : !${POD_SECCOMP_VALID}`,
        ),
    ),
  },
};
