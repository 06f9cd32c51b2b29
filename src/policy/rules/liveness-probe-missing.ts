import { jsonPath } from '../helpers';
import { runningContainers } from '../resources';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Running containers may have a liveness probe. */
export const livenessProbeMissing = defineRule({
  id: 'liveness-probe-missing',
  severity: Severity.INFO,
  category: RuleCategory.RELIABILITY,
  title: 'No liveness probe',
  rationale:
    'A liveness probe restarts an agent that hangs without exiting (a stuck output plugin, a deadlocked scrape loop). It is advice, not a requirement: a badly tuned liveness probe causes restart loops on busy nodes.',
  fix: 'Add a `livenessProbe` on a cheap health endpoint with a generous failureThreshold.',
  example: 'livenessProbe:\n  httpGet: {path: /, port: http}\n  periodSeconds: 20\n  failureThreshold: 5',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of runningContainers(view)) {
      if (c.container.livenessProbe === undefined || c.container.livenessProbe === null) {
        out.push({ path: jsonPath(c.path, 'livenessProbe'), message: `container '${c.name}' has no liveness probe` });
      }
    }
    return out;
  },
});
