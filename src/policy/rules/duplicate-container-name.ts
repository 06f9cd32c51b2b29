import { jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Container names must be unique across containers and init containers. */
export const duplicateContainerName = defineRule({
  id: 'duplicate-container-name',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Container names must be unique across containers and init containers',
  rationale:
    'The API server rejects a pod template in which two containers, or a container and an init container, share a name ("Duplicate value").',
  fix: 'Rename one of the containers (e.g. `init-config` for the init container).',
  example: 'initContainers:\n  - name: init-config\ncontainers:\n  - name: agent',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    const seen = new Map<string, string>();
    for (const c of view.containers) {
      if (c.name === '') continue;
      const first = seen.get(c.name);
      if (first !== undefined) {
        out.push({ path: jsonPath(c.path, 'name'), message: `container name '${c.name}' is already used by ${first}` });
      } else {
        seen.set(c.name, c.path);
      }
    }
    return out;
  },
});
