import { jsonPath } from '../helpers';
import { runningContainers } from '../resources';
import { defineRule, RuleCategory, Severity } from '../types';

/** Running containers should have a readiness probe. */
export const readinessProbeMissing = defineRule({
  id: 'readiness-probe-missing',
  severity: Severity.WARNING,
  category: RuleCategory.RELIABILITY,
  title: 'No readiness probe on any container',
  rationale:
    'A DaemonSet rolling update replaces the next batch of pods as soon as the new ones are Ready. Without a readiness probe a pod is Ready the moment it starts, so a broken release rolls over every node (PRACTICES P7). A pod is Ready when all its containers are, so one probe on the agent gates the rollout: the finding is per pod, not per sidecar.',
  fix: "Add a `readinessProbe` on the agent's health endpoint.",
  example: 'readinessProbe:\n  httpGet: {path: /api/v1/health, port: http}\n  periodSeconds: 10',
  check(_object, { view }) {
    const running = runningContainers(view);
    const probed = (c: { container: any }) => c.container.readinessProbe !== undefined && c.container.readinessProbe !== null;
    if (running.length === 0 || running.some(probed)) return [];
    const names = running.map((c) => `'${c.name}'`).join(', ');
    return [
      {
        path: jsonPath(running[0].path, 'readinessProbe'),
        message: `no container (${names}) has a readiness probe, so a pod is Ready as soon as it starts`,
      },
    ];
  },
});
