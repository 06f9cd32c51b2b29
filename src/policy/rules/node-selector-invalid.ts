import { parseRequirement } from '../../coverage/selector';
import { nodeSelectorRequirementError } from '../../k8s';
import { asArray, asObject, isObject, jsonPath, labelValueErrorOf, qualifiedNameErrorOf, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Checks one node selector term; `base` is its JSON path, built only when there is a finding to report. */
function termProblems(term: unknown, base: () => string, out: RuleFinding[]): void {
  const t = asObject(term);
  asArray(t.matchExpressions).forEach((req, i) => {
    const err = nodeSelectorRequirementError(req, false);
    if (err) out.push({ path: jsonPath(base(), 'matchExpressions', i), message: err });
    else {
      // accepted, but the scheduler cannot parse it (Gt/Lt on a value that is no integer, In on a value that is no
      // label value): the term never matches a node
      const parsed = parseRequirement(req, i);
      if (Array.isArray(parsed)) {
        out.push({
          path: jsonPath(base(), 'matchExpressions', i),
          message: `the API server accepts this requirement, but its term never matches a node: ${parsed.join('; ')}`,
          severity: Severity.WARNING,
        });
      }
    }
  });
  asArray(t.matchFields).forEach((req, i) => {
    const err = nodeSelectorRequirementError(req, true);
    if (err) out.push({ path: jsonPath(base(), 'matchFields', i), message: err });
  });
}

/** `nodeSelector` labels and node affinity requirements must be well-formed. */
export const nodeSelectorInvalid = defineRule({
  id: 'node-selector-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'nodeSelector and node affinity requirements must be well-formed',
  rationale:
    'The API server rejects nodeSelector entries that are not valid labels, node selector requirements with a wrong number of values for their operator (In/NotIn at least one, Exists/DoesNotExist none, Gt/Lt exactly one), a key that is not a qualified name, matchFields other than `metadata.name` In/NotIn with one value, an empty nodeSelectorTerms list, and preferred terms whose weight is not 1-100 (`ValidateNodeSelector`, `ValidateNodeSelectorRequirement`, `ValidatePreferredSchedulingTerms`). ' +
    'It does not check what the values say: a Gt/Lt value that is no integer, or an In value that is no label value, is accepted, and the scheduler then never matches its term to any node. That is reported as a warning (the DaemonSet runs nowhere that term was meant for).',
  fix: 'Use valid label keys and values; give In/NotIn at least one value, Exists/DoesNotExist none, Gt/Lt one base-10 integer; weights between 1 and 100.',
  example:
    'nodeSelector:\n  kubernetes.io/os: linux\naffinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n        - matchExpressions:\n            - {key: node.kubernetes.io/instance-type, operator: In, values: [p4d.24xlarge]}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    const ns = view.pod.nodeSelector;
    if (ns !== undefined && ns !== null) {
      const base = jsonPath(view.podPath, 'nodeSelector');
      if (!isObject(ns)) out.push({ path: base, message: `nodeSelector must be a map of labels (has ${show(ns)})` });
      else {
        for (const k of Object.keys(ns)) {
          const v = ns[k];
          const keyError = qualifiedNameErrorOf(k);
          if (keyError) out.push({ path: jsonPath(base, k), message: `label key ${show(k)} ${keyError}` });
          const valueError = typeof v === 'string' ? labelValueErrorOf(v) : 'must be a string';
          if (valueError) out.push({ path: jsonPath(base, k), message: `label value ${show(v)} ${valueError}` });
        }
      }
    }
    const na = asObject(asObject(view.pod.affinity).nodeAffinity);
    const required = na.requiredDuringSchedulingIgnoredDuringExecution;
    if (required !== undefined && required !== null) {
      const base = jsonPath(
        view.podPath,
        'affinity',
        'nodeAffinity',
        'requiredDuringSchedulingIgnoredDuringExecution',
        'nodeSelectorTerms',
      );
      const terms = asArray(asObject(required).nodeSelectorTerms);
      if (terms.length === 0) out.push({ path: base, message: 'nodeSelectorTerms must have at least one term' });
      terms.forEach((term, i) => termProblems(term, () => jsonPath(base, i), out));
    }
    asArray(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((pref, i) => {
      const base = (): string => jsonPath(view.podPath, 'affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution', i);
      const p = asObject(pref);
      if (typeof p.weight !== 'number' || !Number.isInteger(p.weight) || p.weight < 1 || p.weight > 100) {
        out.push({ path: jsonPath(base(), 'weight'), message: `weight ${show(p.weight)} must be an integer from 1 to 100` });
      }
      termProblems(p.preference, () => jsonPath(base(), 'preference'), out);
    });
    return out;
  },
});
