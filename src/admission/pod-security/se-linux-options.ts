import { BASELINE_SELINUX_TYPES } from '../../k8s/pod-security-sets';
import { podAndContainersWhere, SELINUX_BAD } from '../cel';
import { containersOf, isSet, obj, PodSecurityControl, PodSecurityLevel, quote, securityContext, setters, under } from './control';

type Json = any;
const SELINUX_TYPES = new Set(BASELINE_SELINUX_TYPES);

/** `seLinuxOptions`: a baseline SELinux type, and no user or role. @internal */
export const seLinuxOptions: PodSecurityControl = {
  id: 'seLinuxOptions',
  level: PodSecurityLevel.BASELINE,
  version: 'v1.0',
  check(pod) {
    const types = new Set<string>();
    let user = false;
    let role = false;
    const fields: string[] = [];
    const judge = (options: Json, path: string): boolean => {
      let ok = true;
      const type = options.type ?? '';
      if (!SELINUX_TYPES.has(type)) {
        ok = false;
        types.add(String(type));
        fields.push(`${path}.seLinuxOptions.type`);
      }
      if (isSet(options.user) && options.user !== '') {
        ok = false;
        user = true;
        fields.push(`${path}.seLinuxOptions.user`);
      }
      if (isSet(options.role) && options.role !== '') {
        ok = false;
        role = true;
        fields.push(`${path}.seLinuxOptions.role`);
      }
      return ok;
    };
    const podOptions = obj(pod.spec.securityContext).seLinuxOptions;
    const podBad = isSet(podOptions) && !judge(obj(podOptions), `${under(pod)}securityContext`);
    const bad = containersOf(pod).filter(
      (c) => isSet(securityContext(c).seLinuxOptions) && !judge(obj(securityContext(c).seLinuxOptions), `${c.path}.securityContext`),
    );
    if (!podBad && bad.length === 0) return undefined;
    const what = [
      ...(types.size > 0 ? [`type ${quote([...types].sort())}`] : []),
      ...(user ? ['user set'] : []),
      ...(role ? ['role set'] : []),
    ];
    return {
      summary: `seLinuxOptions ${what.join(', ')} (${setters(podBad, bad)})`,
      fields,
    };
  },
  cel: {
    policy: 'tenant-pod-security',
    variable: 'seLinuxOptions',
    what: 'SELinux options (a type other than container_t, container_init_t, container_kvm_t, or a user or role)',
    expression: podAndContainersWhere('seLinuxOptions', (f) => `(${SELINUX_BAD(f)})`),
  },
};
