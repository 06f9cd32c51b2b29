import { asObject, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Port names must be unique within a container. */
export const duplicatePortName = defineRule({
  id: 'duplicate-port-name',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Port names must be unique within a container',
  rationale:
    'The API server rejects a container that names two ports the same ("Duplicate value"); probes and Services refer to ports by name.',
  fix: 'Give each port of the container its own name, e.g. `metrics` and `health`.',
  example: 'ports:\n  - {name: metrics, containerPort: 2020}\n  - {name: health, containerPort: 2021}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      if (c.ports.length < 2) continue;
      const seen = new Set<string>();
      c.ports.forEach((raw, i) => {
        const name = asObject(raw).name;
        if (typeof name !== 'string' || name === '') return;
        if (seen.has(name)) {
          out.push({ path: jsonPath(c.path, 'ports', i, 'name'), message: `container '${c.name}' names two ports '${name}'` });
        }
        seen.add(name);
      });
    }
    return out;
  },
});
