import { podAndContainersWhere } from '../cel';
import { containersOf, obj, PodSecurityControl, PodSecurityLevel, securityContext, setters, under } from './control';

/** `windowsHostProcess`: no Windows HostProcess container, on the pod or any container. @internal */
export const windowsHostProcess: PodSecurityControl = {
  id: 'windowsHostProcess',
  level: PodSecurityLevel.BASELINE,
  version: 'v1.0',
  check(pod) {
    const fields: string[] = [];
    const podSetsIt = obj(obj(pod.spec.securityContext).windowsOptions).hostProcess === true;
    if (podSetsIt) fields.push(`${under(pod)}securityContext.windowsOptions.hostProcess`);
    const bad = containersOf(pod).filter((c) => obj(securityContext(c).windowsOptions).hostProcess === true);
    bad.forEach((c) => fields.push(`${c.path}.securityContext.windowsOptions.hostProcess`));
    if (fields.length === 0) return undefined;
    return {
      summary: `windowsOptions.hostProcess=true (${setters(podSetsIt, bad)})`,
      fields,
    };
  },
  cel: {
    policy: 'tenant-pod-security',
    variable: 'hostProcess',
    what: 'windowsOptions.hostProcess',
    expression: podAndContainersWhere('windowsOptions.hostProcess', (f) => `${f} == true`),
  },
};
