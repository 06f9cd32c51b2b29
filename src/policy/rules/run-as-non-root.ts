import { kindsWhere } from '../kinds';
import { jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Whether a securityContext guarantees a non-root user: runAsNonRoot true, or a runAsUser above 0. */
function nonRoot(sc: any): boolean | undefined {
  if (sc.runAsNonRoot === false || sc.runAsUser === 0) return false;
  if (sc.runAsNonRoot === true || (typeof sc.runAsUser === 'number' && sc.runAsUser > 0)) return true;
  return undefined;
}

/** Containers should not run as root unless the kind needs it. */
export const runAsNonRoot = defineRule({
  id: 'run-as-non-root',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'May run as root',
  rationale:
    'A container that runs as root (no runAsNonRoot, no runAsUser above 0, at pod or container level) is root on the node as soon as it escapes, and writes every host path it mounts with root rights. Node exporters and generic agents run as an unprivileged user upstream (node-exporter 65534). Privileged and HostProcess containers are not reported (the privileged finding covers them), nor Windows pods.',
  fix: 'Set `runAsNonRoot: true` and a `runAsUser` (e.g. 65534) in the pod or container securityContext, or record the reason the agent needs root.',
  example: 'securityContext:\n  runAsNonRoot: true\n  runAsUser: 65534',
  linuxOnly: true,
  kindSeverities: [
    {
      kinds: kindsWhere((p) => p.runsAsRoot),
      reason:
        'Not reported: these kinds run as root upstream by design (log agents read root-owned 0640 log files; CNIs, kube-proxy, CSI and device plugins program the node; security agents load eBPF programs; DCGM profiling needs uid 0). Drop every capability the job does not need instead.',
    },
  ],
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    const pod = nonRoot(view.podSecurityContext);
    for (const c of view.containers) {
      if (c.fullHostAccess) continue;
      const own = nonRoot(c.securityContext);
      if (own ?? pod) continue;
      out.push({
        path: jsonPath(c.path, 'securityContext', 'runAsNonRoot'),
        message: `container '${c.name}' ${own === false || (own === undefined && pod === false) ? 'runs as root (runAsUser 0 or runAsNonRoot false)' : 'may run as root (no runAsNonRoot or runAsUser above 0)'}`,
      });
    }
    return out;
  },
});
