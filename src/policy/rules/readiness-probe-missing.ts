import { isKnownSidecar } from '../../k8s/container-role';
import { jsonPath } from '../helpers';
import { runningContainers } from '../resources';
import { defineRule, RuleCategory, Severity } from '../types';

const names = (list: ReadonlyArray<{ name: string }>) => list.map((c) => `'${c.name}'`).join(', ');

/** Running containers should have a readiness probe: at least one container that is not a known helper sidecar. */
export const readinessProbeMissing = defineRule({
  id: 'readiness-probe-missing',
  severity: Severity.WARNING,
  category: RuleCategory.RELIABILITY,
  title: 'No readiness probe on any container',
  rationale:
    'A DaemonSet rolling update replaces the next batch of pods as soon as the new ones are Ready. Without a readiness probe a pod is Ready the moment it starts, so a broken release rolls over every node (PRACTICES P7). A pod is Ready when all its containers are, so one probe on the agent gates the rollout: the finding is per pod, not per sidecar, and it points at the main container. A probe on a known helper sidecar only (the CSI `node-driver-registrar` or `livenessprobe`) says the sidecar is up, not the driver, so it does not count when the pod has a main container (container roles: docs/reading-reports.md).',
  fix: "Add a `readinessProbe` on the agent's health endpoint (for a CSI driver: the `/healthz` the livenessprobe sidecar serves).",
  example: 'readinessProbe:\n  httpGet: {path: /api/v1/health, port: http}\n  periodSeconds: 10',
  check(_object, { view }) {
    const running = runningContainers(view);
    const main = running.filter((c) => !isKnownSidecar(c.role));
    const gating = main.length > 0 ? main : running;
    const probed = (c: { container: any }) => c.container.readinessProbe !== undefined && c.container.readinessProbe !== null;
    if (gating.length === 0 || gating.some(probed)) return [];
    const helpers = running.filter((c) => !gating.includes(c));
    const probedHelpers = helpers.filter(probed);
    const message =
      probedHelpers.length > 0
        ? `only the sidecar ${names(probedHelpers)} has a readiness probe, which says the sidecar is up, not ${names(gating)}: a pod is Ready as soon as ${names(gating)} starts`
        : `no container (${names(running)}) has a readiness probe, so a pod is Ready as soon as it starts` +
          (helpers.length > 0 ? `; probe ${names(gating)}` : '');
    return [{ path: jsonPath(gating[0].path, 'readinessProbe'), message }];
  },
});
