import { labelSelectorRequirementError } from '../../k8s';
import { asArray, isObject, jsonPath, labelValueErrorOf, qualifiedNameErrorOf, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** `spec.selector` must be present, non-empty and well-formed. */
export const selectorInvalid = defineRule({
  id: 'selector-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'DaemonSet selector must be present, non-empty and well-formed',
  rationale:
    'apps/v1 requires spec.selector; an empty selector is rejected ("empty selector is invalid for daemonset"), and every matchLabels entry and matchExpressions requirement must use valid label keys, values and operators.',
  fix: 'Select on stable identity labels, e.g. `matchLabels: {app.kubernetes.io/name: <name>, app.kubernetes.io/instance: <instance>}`.',
  example: 'spec:\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: fluent-bit\n      app.kubernetes.io/instance: logs',
  check(_object, { view }) {
    const sel = view.spec.selector;
    if (sel === undefined || sel === null) {
      return [{ path: 'spec.selector', message: 'spec.selector is missing (required for apps/v1 DaemonSets)' }];
    }
    if (!isObject(sel)) return [{ path: 'spec.selector', message: `spec.selector must be an object (has ${show(sel)})` }];
    const out: RuleFinding[] = [];
    const labels = isObject(sel.matchLabels) ? sel.matchLabels : {};
    const exprs = asArray(sel.matchExpressions);
    if (Object.keys(labels).length + exprs.length === 0) {
      out.push({ path: 'spec.selector', message: 'spec.selector is empty, which is invalid for a DaemonSet' });
    }
    for (const k of Object.keys(labels)) {
      const v = labels[k];
      const keyError = qualifiedNameErrorOf(k);
      if (keyError) out.push({ path: jsonPath('spec.selector.matchLabels', k), message: `label key ${show(k)} ${keyError}` });
      const valueError = typeof v === 'string' ? labelValueErrorOf(v) : 'must be a string';
      if (valueError) out.push({ path: jsonPath('spec.selector.matchLabels', k), message: `label value ${show(v)} ${valueError}` });
    }
    exprs.forEach((req, i) => {
      const err = labelSelectorRequirementError(req);
      if (err) out.push({ path: jsonPath('spec.selector.matchExpressions', i), message: err });
    });
    return out;
  },
});
