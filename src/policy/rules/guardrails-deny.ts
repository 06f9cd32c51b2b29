import { PolicyPair } from '../../admission/admission-spec';
import { guardrailDenials, renderedGuardrails, GUARDRAIL_SETTINGS_ANNOTATION } from '../../admission/admit';
import { asObject } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** The library's guardrail policies among the manifests of one check, recovered once per check. */
const RECOVERED = new WeakMap<object, PolicyPair[]>();

/**
 * When the manifests hold the guardrail policies `NodeServiceGuardrails` renders and the DaemonSet's Namespace, the
 * DaemonSet must be admitted by them: the same checks the policies' CEL carries, evaluated on its pod template.
 */
export const guardrailsDeny = defineRule({
  id: 'guardrails-deny',
  severity: Severity.ERROR,
  category: RuleCategory.FIT,
  title: "The manifests' own admission guardrails deny the DaemonSet",
  rationale: `A folder that holds both the ValidatingAdmissionPolicies of NodeServiceGuardrails and the DaemonSets they govern must agree with itself: a DaemonSet the policies deny is refused when it is applied. The policies are recognised by the settings annotation the construct writes (${GUARDRAIL_SETTINGS_ANNOTATION}) and trusted only when the policy and its binding render back from those settings exactly; other policies are not evaluated. Checked only when the DaemonSet's Namespace is among the manifests (the bindings select namespaces by their labels).`,
  fix: 'Change the DaemonSet to stay within the policy (registry, host path, host access), or change the guardrails (allowlists, trusted namespace) and render them again.',
  example:
    'NodeServiceGuardrails hostPathAllowlist: [/var/log, /var/lib/fluent-bit]\n...\nvolumes: [{name: state, hostPath: {path: /var/lib/fluent-bit}}]',
  check(object, { view, namespaces, objects }) {
    const policies = objects.byKind.get('ValidatingAdmissionPolicy') ?? [];
    if (policies.length === 0) return [];
    let pairs = RECOVERED.get(objects);
    if (pairs === undefined) {
      pairs = renderedGuardrails(policies, objects.byKind.get('ValidatingAdmissionPolicyBinding') ?? []);
      RECOVERED.set(objects, pairs);
    }
    const ns = view.metadata.namespace;
    if (pairs.length === 0 || typeof ns !== 'string' || ns === '') return [];
    const namespace = namespaces.get(ns);
    if (!namespace) return [];
    const labels = asObject(asObject(namespace.metadata).labels) as { [key: string]: string };
    const out: RuleFinding[] = [];
    for (const d of guardrailDenials(pairs, object, ns, labels)) {
      if (!d.denies) continue;
      out.push({
        path: d.fields[0] ?? 'spec.template.spec',
        message: `ValidatingAdmissionPolicy ${d.policy} denies it (${d.check}): ${d.summary}; fix: ${d.fix}`,
      });
    }
    return out;
  },
});
