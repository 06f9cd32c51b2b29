import { SAFE_SYSCTLS as SAFE_SYSCTL_LIST } from '../../k8s/pod-security-sets';
import { celStringList, POD, podSets } from '../cel';
import { list, obj, PodSecurityControl, PodSecurityLevel, under } from './control';

const SAFE_SYSCTLS = new Set(SAFE_SYSCTL_LIST);

/** `sysctls`: only the safe sysctls (the v1.27 set; v1.29 added more). @internal */
export const sysctls: PodSecurityControl = {
  id: 'sysctls',
  level: PodSecurityLevel.BASELINE,
  version: 'v1.27',
  check(pod) {
    const bad = list(obj(pod.spec.securityContext).sysctls)
      .map((s, i) => ({ name: obj(s).name, i }))
      .filter(({ name }) => !SAFE_SYSCTLS.has(name));
    if (bad.length === 0) return undefined;
    return {
      summary: `sysctls ${bad.map(({ name }) => String(name)).join(', ')}`,
      fields: bad.map(({ i }) => `${under(pod)}securityContext.sysctls[${i}].name`),
    };
  },
  cel: {
    policy: 'tenant-pod-security',
    variable: 'unsafeSysctls',
    what: 'sysctls outside the safe set',
    expression:
      `${podSets('sysctls')} ? ${POD('sysctls')}.filter(s, !(has(s.name) && s.name in ${celStringList(SAFE_SYSCTL_LIST)}))` +
      ".map(s, has(s.name) ? s.name : '') : []",
  },
};
