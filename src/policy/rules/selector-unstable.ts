import { looksLikeVersionOrHash } from '../../k8s';
import { asArray, asObject, jsonPath, memoizeByString, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Selector keys whose values change between releases or with the construct path. */
const UNSTABLE_KEYS = [
  'app.kubernetes.io/version',
  'helm.sh/chart',
  'pod-template-hash',
  'controller-revision-hash',
  'pod-template-generation',
  'cdk8s.io/metadata.addr',
];

/** {@link looksLikeVersionOrHash}, memoized: selector values repeat across objects. */
const looksVersioned = memoizeByString(looksLikeVersionOrHash);

/** The selector is immutable: it must not contain versions, hashes or path-derived values. */
export const selectorUnstable = defineRule({
  id: 'selector-unstable',
  severity: Severity.WARNING,
  category: RuleCategory.RELIABILITY,
  title: 'Version, hash or path-derived value in the selector',
  rationale: `spec.selector of an apps/v1 DaemonSet is immutable. A selector on ${UNSTABLE_KEYS.join(', ')} or on a value that looks like a version changes with the next release (or when a cdk8s construct moves), and the update then fails with "field is immutable" until the DaemonSet is deleted, which removes the agent from every node.`,
  fix: 'Select only on stable identity: `app.kubernetes.io/name` and `app.kubernetes.io/instance`; keep the version in labels outside the selector.',
  example: 'selector:\n  matchLabels:\n    app.kubernetes.io/name: fluent-bit\n    app.kubernetes.io/instance: logs',
  check(_object, { view }) {
    const sel = asObject(view.spec.selector);
    const out: RuleFinding[] = [];
    const matchLabels = asObject(sel.matchLabels);
    for (const k of Object.keys(matchLabels)) {
      const v = matchLabels[k];
      if (UNSTABLE_KEYS.includes(k)) {
        out.push({
          path: jsonPath('spec.selector.matchLabels', k),
          message: `selector uses '${k}' (value ${show(v)}), which changes between releases`,
        });
      } else if (looksVersioned(v)) {
        out.push({
          path: jsonPath('spec.selector.matchLabels', k),
          message: `selector value ${show(v)} of '${k}' looks like a version or hash`,
        });
      }
    }
    asArray(sel.matchExpressions).forEach((raw, i) => {
      const req = asObject(raw);
      if (UNSTABLE_KEYS.includes(req.key)) {
        out.push({
          path: jsonPath('spec.selector.matchExpressions', i),
          message: `selector uses '${req.key}', which changes between releases`,
        });
        return;
      }
      const bad = asArray(req.values).find(looksLikeVersionOrHash);
      if (bad !== undefined) {
        out.push({
          path: jsonPath('spec.selector.matchExpressions', i),
          message: `selector value ${show(bad)} of '${req.key}' looks like a version or hash`,
        });
      }
    });
    return out;
  },
});
