/**
 * The guardrails evaluated in JS: which of the policies a workload's namespace falls under (the bindings'
 * namespace selectors, as the API server matches them) and which of their admission checks deny its pod — the very
 * checks whose CEL the policies carry (`PolicyPair.checks`), so the verdict is the admission policies' own. Serves the
 * synth-time check of `NodeServiceGuardrails` and the lint rule `guardrails-deny` (which recovers the settings from
 * the annotation the construct writes on its policies, and trusts it only when the policies render back from it).
 * Pure: no cdk8s.
 */

import { jsonEqual } from '../k8s/canonical-json';
import { selectorMatches } from '../k8s/selectors';
import { GUARDRAIL_SETTINGS_ANNOTATION } from '../k8s/vocabulary';
import { GuardrailSettings, guardrailPolicies, PolicyPair } from './admission-spec';
import { podOf } from './pod-security';

export { GUARDRAIL_SETTINGS_ANNOTATION };

/** One admission check of one policy that denies (or, with a Warn/Audit binding, reports) a workload. @internal */
export interface GuardrailDenial {
  /** The ValidatingAdmissionPolicy (and binding) name. */
  readonly policy: string;
  /** The check id (a Pod Security control id, `registryAllowlist`, `hostPathAllowlist`, …). */
  readonly check: string;
  /** What is denied, naming the values (`hostPath "/var/lib/x" (volume "state")`). */
  readonly summary: string;
  /** The offending fields, as paths in the workload. */
  readonly fields: string[];
  /** How to fix it. */
  readonly fix: string;
  /** Whether the binding denies (`Deny`); otherwise the API server only warns or audits. */
  readonly denies: boolean;
}

/**
 * The denials of `workload` (a DaemonSet or any object with a pod template) in namespace `namespace` with
 * `namespaceLabels`, by the policies `pairs`. @internal
 */
export function guardrailDenials(
  pairs: readonly PolicyPair[],
  workload: unknown,
  namespace: string,
  namespaceLabels: { readonly [key: string]: string },
): GuardrailDenial[] {
  const labels = { ...namespaceLabels, 'kubernetes.io/metadata.name': namespace };
  const bound = pairs.filter((p) => p.checks.length > 0 && selectorMatches(p.binding.matchResources?.namespaceSelector ?? {}, labels));
  if (bound.length === 0) return [];
  let pod: ReturnType<typeof podOf>;
  try {
    pod = podOf(workload);
  } catch {
    return []; // no pod template: the API-validity rules report it, there is nothing to admit
  }
  const out: GuardrailDenial[] = [];
  for (const pair of bound) {
    const denies = pair.binding.validationActions.includes('Deny');
    for (const check of pair.checks) {
      const found = check.check(pod);
      if (found)
        out.push({ policy: pair.name, check: check.id, summary: found.summary, fields: found.fields, fix: check.fix ?? pair.fix, denies });
    }
  }
  return out;
}

/**
 * The policies a set of manifests holds that this library rendered: each ValidatingAdmissionPolicy with the settings
 * annotation whose spec renders back, exactly, from those settings, with its binding (same name, same spec) among the
 * manifests. Policies not made by this library, edited after rendering, or not bound are left out: they are not
 * guessed at. @internal
 */
export function renderedGuardrails(policies: readonly any[], bindings: readonly any[]): PolicyPair[] {
  const out: PolicyPair[] = [];
  const rendered = new Map<string, PolicyPair[]>();
  for (const policy of policies) {
    const text = policy?.metadata?.annotations?.[GUARDRAIL_SETTINGS_ANNOTATION];
    if (typeof text !== 'string') continue;
    let pairs = rendered.get(text);
    if (pairs === undefined) rendered.set(text, (pairs = renderSettings(text)));
    const pair = pairs.find((p) => p.name === policy?.metadata?.name);
    if (pair === undefined || !jsonEqual(pair.policy, policy.spec)) continue;
    const binding = bindings.find((b) => b?.metadata?.name === pair.name);
    if (binding === undefined || !jsonEqual(pair.binding, binding.spec)) continue;
    out.push(pair);
  }
  return out;
}

/** The policies rendered from an annotation's settings, or none when it is not settings. */
function renderSettings(text: string): PolicyPair[] {
  let settings: GuardrailSettings;
  try {
    settings = JSON.parse(text);
    return guardrailPolicies(settings);
  } catch {
    return [];
  }
}
