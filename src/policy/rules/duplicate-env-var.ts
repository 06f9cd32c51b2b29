import { asObject, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** The same environment variable defined twice in one container. */
export const duplicateEnvVar = defineRule({
  id: 'duplicate-env-var',
  severity: Severity.WARNING,
  category: RuleCategory.RELIABILITY,
  title: 'Environment variable defined twice',
  rationale:
    'When a container lists the same env name twice, the last definition silently wins (the API server only warns), so the earlier value, often the one a reviewer reads, is not the one the agent gets.',
  fix: 'Keep one definition of each variable.',
  example: 'env:\n  - {name: LOG_LEVEL, value: info}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      const seen = new Map<string, number>();
      (Array.isArray(c.container.env) ? c.container.env : []).forEach((raw: unknown, i: number) => {
        const name = asObject(raw).name;
        if (typeof name !== 'string') return;
        const first = seen.get(name);
        if (first === undefined) {
          seen.set(name, i);
          return;
        }
        out.push({
          path: jsonPath(c.path, 'env', i, 'name'),
          message: `container '${c.name}' defines env '${name}' again (first at env[${first}]); the last one wins`,
        });
      });
    }
    return out;
  },
});
