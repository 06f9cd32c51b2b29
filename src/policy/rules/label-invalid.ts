import { asObject, isObject, jsonPath, labelValueErrorOf, qualifiedNameErrorOf, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

function checkLabels(labels: unknown, base: string, out: RuleFinding[]): void {
  if (labels === undefined || labels === null) return;
  if (!isObject(labels)) {
    out.push({ path: base, message: `labels must be a map (has ${show(labels)})` });
    return;
  }
  for (const k of Object.keys(labels)) {
    const v = labels[k];
    const keyError = qualifiedNameErrorOf(k);
    if (keyError) out.push({ path: jsonPath(base, k), message: `label key ${show(k)} ${keyError}` });
    const valueError = typeof v === 'string' ? labelValueErrorOf(v) : `must be a string (has ${show(v)})`;
    if (valueError) out.push({ path: jsonPath(base, k), message: `label value ${show(v)} ${valueError}` });
  }
}

/** Label keys and values on the DaemonSet and its pod template. */
export const labelInvalid = defineRule({
  id: 'label-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Labels must have valid keys and values',
  rationale:
    'Label keys are qualified names (optional DNS subdomain prefix and "/", then at most 63 characters of [A-Za-z0-9-_.] starting and ending alphanumeric); values are at most 63 such characters or empty, and must be strings (quote numbers and booleans in YAML).',
  fix: 'Shorten or rename the key, quote non-string values, and keep values within 63 characters of letters, digits, "-", "_" and ".".',
  example: 'metadata:\n  labels:\n    app.kubernetes.io/name: fluent-bit\n    app.kubernetes.io/version: "3.0.7"',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    checkLabels(view.metadata.labels, 'metadata.labels', out);
    checkLabels(asObject(view.template.metadata).labels, 'spec.template.metadata.labels', out);
    return out;
  },
});
