import { tolerationProblems } from '../../k8s';
import { jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Toleration syntax as the API server validates it. */
export const tolerationInvalid = defineRule({
  id: 'toleration-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Tolerations must be well-formed',
  rationale:
    'The API server rejects a toleration whose key is not a valid label key, an empty key without operator Exists, a value with operator Exists, an invalid value for Equal, an unknown operator or effect, or tolerationSeconds on an effect other than NoExecute.',
  fix: 'Use `{key, operator: Equal, value, effect}` or `{key, operator: Exists, effect}`; tolerationSeconds only with effect NoExecute.',
  example:
    'tolerations:\n  - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n  - {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}',
  check(_object, { view }) {
    const list = view.pod.tolerations;
    if (list === undefined || list === null) return [];
    const base = jsonPath(view.podPath, 'tolerations');
    if (!Array.isArray(list)) return [{ path: base, message: `tolerations must be a list (has ${show(list)})` }];
    const out: RuleFinding[] = [];
    list.forEach((t, i) => {
      for (const p of tolerationProblems(t)) out.push({ path: jsonPath(base, i, p.field), message: p.message });
    });
    return out;
  },
});
