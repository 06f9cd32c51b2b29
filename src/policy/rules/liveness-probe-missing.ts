import { ContainerRole, roleWords } from '../../k8s/container-role';
import { jsonPath } from '../helpers';
import { runningContainers } from '../resources';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** The advice for a container without a liveness probe, by role; `undefined` when its role needs none. */
function advice(role: ContainerRole): string | undefined {
  switch (role) {
    case ContainerRole.CSI_LIVENESS_PROBE:
      // It is the probe: it serves /healthz for the driver's liveness probe by calling the driver (kubernetes-csi).
      return undefined;
    case ContainerRole.CSI_NODE_DRIVER_REGISTRAR:
      return 'run it with `--http-endpoint=:9809` and probe `/healthz` on that port, as the kubernetes-csi deployments do';
    default:
      return '';
  }
}

/** Running containers may have a liveness probe (not the CSI `livenessprobe` sidecar, which is the driver's probe). */
export const livenessProbeMissing = defineRule({
  id: 'liveness-probe-missing',
  severity: Severity.INFO,
  category: RuleCategory.RELIABILITY,
  title: 'No liveness probe',
  rationale:
    "A liveness probe restarts an agent that hangs without exiting (a stuck output plugin, a deadlocked scrape loop). It is advice, not a requirement: a badly tuned liveness probe causes restart loops on busy nodes. The CSI `livenessprobe` sidecar is not asked for one: it is the probe, serving `/healthz` for the driver's liveness probe (container roles: docs/reading-reports.md).",
  fix: 'Add a `livenessProbe` on a cheap health endpoint with a generous failureThreshold.',
  example: 'livenessProbe:\n  httpGet: {path: /, port: http}\n  periodSeconds: 20\n  failureThreshold: 5',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of runningContainers(view)) {
      if (c.container.livenessProbe !== undefined && c.container.livenessProbe !== null) continue;
      const how = advice(c.role);
      if (how === undefined) continue;
      const what = roleWords(c.role);
      out.push({
        path: jsonPath(c.path, 'livenessProbe'),
        message: `container '${c.name}'${what !== undefined ? ` (${what})` : ''} has no liveness probe${how ? `; ${how}` : ''}`,
      });
    }
    return out;
  },
});
