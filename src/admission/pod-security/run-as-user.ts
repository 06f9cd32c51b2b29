import { podAndContainersWhere } from '../cel';
import { containersOf, obj, PodSecurityControl, PodSecurityLevel, securityContext, setters, under } from './control';

/** `runAsUser`: never user 0, on the pod or any container. @internal */
export const runAsUser: PodSecurityControl = {
  id: 'runAsUser',
  level: PodSecurityLevel.RESTRICTED,
  version: 'v1.23',
  check(pod) {
    const podRoot = obj(pod.spec.securityContext).runAsUser === 0;
    const bad = containersOf(pod).filter((c) => securityContext(c).runAsUser === 0);
    if (!podRoot && bad.length === 0) return undefined;
    return {
      summary: `runAsUser=0 (${setters(podRoot, bad)})`,
      fields: [...(podRoot ? [`${under(pod)}securityContext.runAsUser`] : []), ...bad.map((c) => `${c.path}.securityContext.runAsUser`)],
    };
  },
  cel: {
    policy: 'tenant-pod-security',
    variable: 'rootUser',
    what: 'runAsUser 0',
    expression: podAndContainersWhere('runAsUser', (f) => `${f} == 0`),
  },
};
