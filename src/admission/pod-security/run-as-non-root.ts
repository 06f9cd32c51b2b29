import { CONTAINER, containerSets, offendingContainers, POD, POD_OFFENDS, podSets } from '../cel';
import {
  ContainerRef,
  containersOf,
  containerWords,
  isSet,
  obj,
  PodSecurityControl,
  PodSecurityLevel,
  securityContext,
  setters,
  under,
} from './control';

const POD_RUNS_AS_NON_ROOT = `(${podSets('runAsNonRoot')} && ${POD('runAsNonRoot')} == true)`;

/** `runAsNonRoot`: `true` on the pod (containers may leave it unset) or on every container; never `false`. @internal */
export const runAsNonRoot: PodSecurityControl = {
  id: 'runAsNonRoot',
  level: PodSecurityLevel.RESTRICTED,
  version: 'v1.0',
  check(pod) {
    const podValue = obj(pod.spec.securityContext).runAsNonRoot;
    const podFalse = isSet(podValue) && podValue !== true;
    const podTrue = podValue === true;
    const explicit: ContainerRef[] = [];
    const implicit: ContainerRef[] = [];
    for (const c of containersOf(pod)) {
      const value = securityContext(c).runAsNonRoot;
      if (isSet(value)) {
        if (value !== true) explicit.push(c);
      } else if (!podTrue) {
        implicit.push(c);
      }
    }
    if (!podFalse && explicit.length === 0 && implicit.length === 0) return undefined;
    const details: string[] = [];
    if (podFalse || explicit.length > 0) details.push(`${setters(podFalse, explicit)} must not set false`);
    if (implicit.length > 0) details.push(`pod or ${containerWords(implicit.map((c) => c.name))} must set true`);
    return {
      summary: `runAsNonRoot != true (${details.join('; ')})`,
      fields: [
        ...(podFalse ? [`${under(pod)}securityContext.runAsNonRoot`] : []),
        ...[...explicit, ...implicit].map((c) => `${c.path}.securityContext.runAsNonRoot`),
      ],
    };
  },
  cel: {
    policy: 'tenant-pod-security',
    variable: 'mayRunAsRoot',
    what: 'runAsNonRoot not true (on the pod or on every container)',
    expression:
      POD_OFFENDS(`${podSets('runAsNonRoot')} && ${POD('runAsNonRoot')} != true`) +
      ' + ' +
      offendingContainers(`${containerSets('runAsNonRoot')} ? ${CONTAINER('runAsNonRoot')} != true : !${POD_RUNS_AS_NON_ROOT}`),
  },
};
