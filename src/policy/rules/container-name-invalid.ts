import { dns1123LabelErrorOf, jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Every container (and init container) needs a DNS-1123 label name. */
export const containerNameInvalid = defineRule({
  id: 'container-name-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Container names must be DNS-1123 labels',
  rationale: 'Container names are required and must be DNS-1123 labels (lower-case alphanumerics and "-", at most 63 characters).',
  fix: 'Name each container, e.g. `fluent-bit` or `config-reloader`.',
  example: 'containers:\n  - name: fluent-bit\n    image: cr.fluentbit.io/fluent/fluent-bit:3.0.7',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      const name = c.container.name;
      if (name === undefined || name === null || name === '') {
        out.push({ path: jsonPath(c.path, 'name'), message: `${c.init ? 'init container' : 'container'} #${c.index} has no name` });
        continue;
      }
      const err = typeof name === 'string' ? dns1123LabelErrorOf(name) : 'must be a string';
      if (err) out.push({ path: jsonPath(c.path, 'name'), message: `container name ${show(name)} ${err}` });
    }
    return out;
  },
});
