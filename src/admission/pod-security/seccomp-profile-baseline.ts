import { ALLOWED_SECCOMP_TYPES } from '../../k8s/pod-security-sets';
import { podAndContainersWhere, SECCOMP_VALID } from '../cel';
import { containersOf, isSet, obj, PodSecurityControl, PodSecurityLevel, quote, securityContext, setters, under } from './control';

const SECCOMP_TYPES = new Set(ALLOWED_SECCOMP_TYPES);

/** `seccompProfile_baseline`: a seccomp profile, where set, is `RuntimeDefault` or `Localhost`. @internal */
export const seccompProfileBaseline: PodSecurityControl = {
  id: 'seccompProfile_baseline',
  level: PodSecurityLevel.BASELINE,
  version: 'v1.19',
  check(pod) {
    const values = new Set<string>();
    const fields: string[] = [];
    const podProfile = obj(pod.spec.securityContext).seccompProfile;
    const podBad = isSet(podProfile) && !SECCOMP_TYPES.has(obj(podProfile).type);
    if (podBad) {
      values.add(String(obj(podProfile).type ?? ''));
      fields.push(`${under(pod)}securityContext.seccompProfile.type`);
    }
    const bad = containersOf(pod).filter(
      (c) => isSet(securityContext(c).seccompProfile) && !SECCOMP_TYPES.has(obj(securityContext(c).seccompProfile).type),
    );
    for (const c of bad) {
      values.add(String(obj(securityContext(c).seccompProfile).type ?? ''));
      fields.push(`${c.path}.securityContext.seccompProfile.type`);
    }
    if (fields.length === 0) return undefined;
    return {
      summary: `seccompProfile.type ${quote([...values].sort())} (${setters(podBad, bad)})`,
      fields,
    };
  },
  cel: {
    policy: 'tenant-pod-security',
    variable: 'unconfinedSeccomp',
    what: 'seccomp profiles other than RuntimeDefault or Localhost',
    expression: podAndContainersWhere('seccompProfile', (f) => `!(${SECCOMP_VALID(f)})`),
  },
};
