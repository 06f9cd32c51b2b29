import { SAFE_SYSCTLS } from '../../k8s/pod-security-sets';
import { asArray, asObject, jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Sysctls outside the safe set. */
export const unsafeSysctl = defineRule({
  id: 'unsafe-sysctl',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'Unsafe sysctl',
  rationale: `Only ${SAFE_SYSCTLS.join(', ')} are safe in 1.28. Any other sysctl must be allowed on every kubelet (--allowed-unsafe-sysctls), or the kubelet rejects the pod (SysctlForbidden) on that node, which for a DaemonSet means a node without its agent; Pod Security baseline forbids them, and a non-namespaced one changes the whole node.`,
  fix: 'Use a safe sysctl, or set the value on the node (node configuration, a privileged init step the kind allows) instead of in the pod.',
  example: 'securityContext:\n  sysctls:\n    - {name: net.ipv4.ip_local_port_range, value: "32768 60999"}',
  linuxOnly: true,
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    asArray(view.podSecurityContext.sysctls).forEach((raw, i) => {
      const name = asObject(raw).name;
      if (typeof name !== 'string' || SAFE_SYSCTLS.includes(name)) return;
      out.push({
        path: jsonPath(view.podPath, 'securityContext', 'sysctls', i, 'name'),
        message: `sysctl ${show(name)} is not in the safe set`,
      });
    });
    return out;
  },
});
