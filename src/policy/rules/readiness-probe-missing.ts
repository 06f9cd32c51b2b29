import { jsonPath } from '../helpers';
import { runningContainers } from '../resources';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Running containers should have a readiness probe. */
export const readinessProbeMissing = defineRule({
  id: 'readiness-probe-missing',
  severity: Severity.WARNING,
  category: RuleCategory.RELIABILITY,
  title: 'No readiness probe',
  rationale:
    'A DaemonSet rolling update replaces the next batch of pods as soon as the new ones are Ready. Without a readiness probe a pod is Ready the moment it starts, so a broken release rolls over every node (PRACTICES P7).',
  fix: "Add a `readinessProbe` on the agent's health endpoint.",
  example: 'readinessProbe:\n  httpGet: {path: /api/v1/health, port: http}\n  periodSeconds: 10',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of runningContainers(view)) {
      if (c.container.readinessProbe === undefined || c.container.readinessProbe === null) {
        out.push({ path: jsonPath(c.path, 'readinessProbe'), message: `container '${c.name}' has no readiness probe` });
      }
    }
    return out;
  },
});
