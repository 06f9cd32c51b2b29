import { selectorMatches } from '../../k8s';
import { asArray, isObject, show } from '../helpers';
import { defineRule, RuleCategory, Severity } from '../types';

/** The selector must select the pod template's labels. */
export const selectorTemplateMismatch = defineRule({
  id: 'selector-template-mismatch',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'DaemonSet selector must match the pod template labels',
  rationale:
    'The API server rejects a DaemonSet whose selector does not select its own template ("selector does not match template labels"); the controller could never find the pods it creates.',
  fix: 'Copy every selector label into `spec.template.metadata.labels` (and make every matchExpressions requirement true for them).',
  example:
    'spec:\n  selector:\n    matchLabels: {app.kubernetes.io/name: node-exporter}\n  template:\n    metadata:\n      labels: {app.kubernetes.io/name: node-exporter, app.kubernetes.io/version: 1.8.2}',
  check(_object, { view }) {
    const sel = view.spec.selector;
    if (!isObject(sel)) return [];
    const size = Object.keys(isObject(sel.matchLabels) ? sel.matchLabels : {}).length + asArray(sel.matchExpressions).length;
    if (size === 0 || selectorMatches(sel, view.templateLabels)) return [];
    return [
      {
        path: 'spec.template.metadata.labels',
        message: `template labels ${show(view.templateLabels)} are not selected by spec.selector ${show(sel)}`,
      },
    ];
  },
});
