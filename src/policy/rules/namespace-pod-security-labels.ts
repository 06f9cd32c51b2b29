import { asObject, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

const ENFORCE = 'pod-security.kubernetes.io/enforce';
const LEVELS = ['privileged', 'baseline', 'restricted'];
const VERSION = /^(latest|v1\.(0|[1-9][0-9]*))$/;

/** When the DaemonSet's Namespace is among the checked manifests, it must carry Pod Security labels. */
export const namespacePodSecurityLabels = defineRule({
  id: 'namespace-pod-security-labels',
  severity: Severity.WARNING,
  category: RuleCategory.FIT,
  title: "The DaemonSet's Namespace lacks Pod Security labels",
  rationale: `A namespace that hosts node services should state its Pod Security level (${ENFORCE}: privileged | baseline | restricted, with -version labels) so the guardrails are explicit and reviewable; without it the cluster default applies silently. Checked only when the Namespace object is part of the same manifests (PRACTICES P8).`,
  fix: `Add \`${ENFORCE}\` (and \`${ENFORCE}-version\`) labels to the Namespace, e.g. privileged for CNI/CSI namespaces, baseline or restricted elsewhere.`,
  example: `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: logging\n  labels:\n    ${ENFORCE}: privileged\n    ${ENFORCE}-version: v1.28\n    pod-security.kubernetes.io/warn: baseline`,
  check(_object, { view, namespaces }) {
    const ns = view.metadata.namespace;
    if (typeof ns !== 'string' || ns === '') return [];
    const namespace = namespaces.get(ns);
    if (!namespace) return [];
    const labels = asObject(asObject(namespace.metadata).labels);
    const out: RuleFinding[] = [];
    const level = labels[ENFORCE];
    if (level === undefined) {
      out.push({ path: 'metadata.namespace', message: `Namespace '${ns}' has no ${ENFORCE} label` });
    } else if (!LEVELS.includes(level)) {
      out.push({
        path: 'metadata.namespace',
        message: `Namespace '${ns}' label ${ENFORCE} is ${show(level)}, not one of ${LEVELS.join(', ')}`,
      });
    }
    for (const mode of ['enforce', 'audit', 'warn']) {
      const v = labels[`pod-security.kubernetes.io/${mode}-version`];
      if (v !== undefined && !(typeof v === 'string' && VERSION.test(v))) {
        out.push({
          path: 'metadata.namespace',
          message: `Namespace '${ns}' label pod-security.kubernetes.io/${mode}-version is ${show(v)}, not 'latest' or 'v1.N'`,
        });
      }
    }
    return out;
  },
});
