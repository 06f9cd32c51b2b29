import { isSet, list, obj, PodSecurityControl, PodSecurityLevel, quote, under } from './control';

/** `hostPathVolumes`: no hostPath volume. @internal */
export const hostPathVolumes: PodSecurityControl = {
  id: 'hostPathVolumes',
  level: PodSecurityLevel.BASELINE,
  version: 'v1.0',
  check(pod) {
    const bad = list(pod.spec.volumes)
      .map((v, i) => ({ v: obj(v), i }))
      .filter(({ v }) => isSet(v.hostPath));
    if (bad.length === 0) return undefined;
    return {
      summary: `hostPath volumes ${quote(bad.map(({ v }) => String(v.name)))}`,
      fields: bad.map(({ i }) => `${under(pod)}volumes[${i}].hostPath`),
    };
  },
  cel: {
    policy: 'host-access',
    variable: 'hostPathVolumes',
    what: 'hostPath volumes',
    expression: 'variables.volumes.filter(v, has(v.hostPath)).map(v, v.name)',
  },
};
