import { jsonPath } from '../helpers';
import { kindsWhere } from '../kinds';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Privileged containers. */
export const privilegedContainer = defineRule({
  id: 'privileged-container',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'Privileged container (or Windows HostProcess)',
  rationale:
    "A privileged container has every capability, all host devices and no seccomp or AppArmor confinement: it is root on the node. A Windows HostProcess container (`windowsOptions.hostProcess: true`) is the same on Windows: it runs as a process on the host with the host's network and file system. Only some CSI drivers, CNIs and kube-proxy need it; most agents work with a few named capabilities. This finding stands for every writable mount, capability and seccomp finding the container would otherwise get.",
  fix: 'Remove `privileged: true` and add only the capabilities the agent needs, or suppress with the reason privilege is required.',
  example: 'securityContext:\n  privileged: false\n  capabilities:\n    drop: [ALL]\n    add: [NET_ADMIN]',
  kindSeverities: [
    {
      kinds: kindsWhere((p) => p.privilegedExpected),
      severity: Severity.INFO,
      reason:
        'CSI node plugins (mount propagation, block devices), many CNIs and kube-proxy (iptables, kernel modules, HostProcess on Windows) run privileged in every upstream manifest; advice, with the reason best recorded in a suppression.',
    },
  ],
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      if (c.privileged) {
        out.push({ path: jsonPath(c.path, 'securityContext', 'privileged'), message: `container '${c.name}' is privileged` });
      } else if (c.hostProcess) {
        const own = c.securityContext.windowsOptions?.hostProcess === true;
        out.push({
          path: own
            ? jsonPath(c.path, 'securityContext', 'windowsOptions', 'hostProcess')
            : jsonPath(view.podPath, 'securityContext', 'windowsOptions', 'hostProcess'),
          message: `container '${c.name}' is a Windows HostProcess container (the Windows equivalent of privileged)`,
        });
      }
    }
    return out;
  },
});
