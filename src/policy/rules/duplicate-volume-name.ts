import { asObject, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Volume names must be unique in the pod. */
export const duplicateVolumeName = defineRule({
  id: 'duplicate-volume-name',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Volume names must be unique',
  rationale:
    'The API server rejects a pod template with two volumes of the same name ("Duplicate value"); mounts refer to volumes by name.',
  fix: 'Give each volume its own name, e.g. `varlog` and `varlibdockercontainers`.',
  example: 'volumes:\n  - {name: varlog, hostPath: {path: /var/log, type: Directory}}\n  - {name: config, configMap: {name: fluent-bit}}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    const seen = new Map<string, number>();
    view.volumes.forEach((raw, i) => {
      const name = asObject(raw).name;
      if (typeof name !== 'string' || name === '') return;
      const first = seen.get(name);
      if (first !== undefined) {
        out.push({
          path: jsonPath(view.podPath, 'volumes', i, 'name'),
          message: `volume name '${name}' is already used by volumes[${first}]`,
        });
      } else {
        seen.set(name, i);
      }
    });
    return out;
  },
});
