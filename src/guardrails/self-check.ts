/**
 * The guardrails checked against the App they belong to, at synth: every DaemonSet of the App is evaluated with the
 * admission checks of the policies whose bindings select its namespace (the checks whose CEL the policies carry, see
 * `admit.ts`). A denial is a synth error naming the DaemonSet, the policy, the field and value, and the fix; under a
 * Warn/Audit binding (`dryRun`) it is a warning. A DaemonSet whose Namespace the App does not define cannot be
 * judged (the bindings select by the namespace's labels): a warning says so.
 */

import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { NodeServiceChecks } from '../policy/synth';
import { PolicyPair } from '../admission/admission-spec';
import { GuardrailDenial, guardrailDenials } from '../admission/admit';

/** The construct an object belongs to for messages: the wrapper of a `Resource`, else the object. */
function ownerPath(o: ApiObject): string {
  const scope = o.node.scope;
  return o.node.id === 'Resource' && scope ? scope.node.path : o.node.path;
}

/** The results of the current synthesis, per guardrails construct (validations run several times per synthesis). */
const RESULTS = new WeakMap<IConstruct, { readonly synthesis: object; readonly errors: string[] }>();

/** `hostPath "/x" (volume "v") at spec.….path`. */
function describeDenial(d: GuardrailDenial): string {
  return `${d.check}: ${d.summary} at ${d.fields.join(', ')}`;
}

/** The App's Namespaces (name → labels) and DaemonSets, rendered once. */
function appObjects(root: IConstruct): {
  namespaces: Map<string, { [key: string]: string }>;
  daemonSets: { object: ApiObject; json: any }[];
} {
  const namespaces = new Map<string, { [key: string]: string }>();
  const daemonSets: { object: ApiObject; json: any }[] = [];
  for (const c of root.node.findAll()) {
    if (!ApiObject.isApiObject(c) || (c.kind !== 'Namespace' && c.kind !== 'DaemonSet')) continue;
    const json = c.toJson();
    if (c.kind === 'Namespace') namespaces.set(String(json?.metadata?.name), { ...(json?.metadata?.labels ?? {}) });
    else daemonSets.push({ object: c, json });
  }
  return { namespaces, daemonSets };
}

/** The synth errors (and, through the App's checks, warnings) of `guardrails` over its App. @internal */
export function checkAppAgainstGuardrails(guardrails: IConstruct, pairs: readonly PolicyPair[]): string[] {
  const checks = NodeServiceChecks.of(guardrails);
  const synthesis = checks._synthesis;
  const cached = RESULTS.get(guardrails);
  if (synthesis !== undefined && cached?.synthesis === synthesis) return [...cached.errors];
  const errors: string[] = [];
  const { namespaces, daemonSets } = appObjects(guardrails.node.root);
  for (const { object, json } of daemonSets) {
    const ns = typeof json?.metadata?.namespace === 'string' ? json.metadata.namespace : 'default';
    const subject = `DaemonSet ${ns}/${String(json?.metadata?.name)} [${ownerPath(object)}]`;
    const labels = namespaces.get(ns);
    if (labels === undefined) {
      checks._warn(
        `guardrails-namespace-unknown: ${subject} runs in namespace ${ns}, which the App does not define, so whether the guardrails [${guardrails.node.path}] admit it depends on labels the App does not show (define the namespace in the App, e.g. with NodeServiceNamespace)`,
      );
      continue;
    }
    for (const d of guardrailDenials(pairs, json, ns, labels)) {
      const text = `${subject} would be ${d.denies ? 'denied' : 'reported'} by ValidatingAdmissionPolicy ${d.policy} [${guardrails.node.path}]: ${describeDenial(d)}. Fix: ${d.fix}`;
      if (d.denies) errors.push(`guardrails-deny: ${text}`);
      else checks._warn(`guardrails-warn: ${text}`);
    }
  }
  if (synthesis !== undefined) RESULTS.set(guardrails, { synthesis, errors });
  return errors;
}
