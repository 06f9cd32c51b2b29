/**
 * A small model of the Kubernetes 1.28 ValidatingAdmissionPolicy admission plugin, used to evaluate the emitted
 * policies against sample requests. It mirrors what the API server does for one request:
 *
 * 1. for every policy whose `matchConstraints` match (resource rules incl. subresources, namespace and object
 *    selectors — for a Namespace object the selector sees the object's own new labels) and every binding of it whose
 *    `matchResources` match,
 * 2. evaluate `matchConditions` with `object`, `oldObject`, `request`, `params` bound and `namespaceObject` null
 *    (any false: policy skipped; an error is recorded),
 * 3. evaluate `variables` in order, then every validation with `namespaceObject` bound to the request's Namespace
 *    (null for cluster-scoped requests); a false validation fails with `messageExpression` (when it evaluates to a
 *    non-empty string), else `message`, else "failed expression: …",
 * 4. apply the binding's `validationActions` (Deny denies, Warn warns, Audit annotates).
 *
 * Objects are bound the way the API server binds them: JSON integers become CEL `int` (bigint), not `double`. With
 * `apiServerView`, zero values (`false`, `0`, `""`, `[]`, `{}`) are dropped from `spec` trees first, as the API
 * server's typed-to-unstructured conversion does for `omitempty` fields — so every field read must be guarded.
 *
 * The CEL environment is `@bufbuild/cel` with the extended strings library, which matches what Kubernetes 1.28
 * offers for the functions these policies use (see `cel-lint.ts` for the check that no other function is used).
 */

import { celEnv, isCelError, isCelList, isCelMap, parse, plan } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { selectorMatches as labelSelectorMatches } from '../../src/k8s';

type Json = any;

const ENV = celEnv({ funcs: strings });
const PLANS = new Map<string, ReturnType<typeof plan>>();

/** Evaluates one CEL expression; returns the JS value or an Error. */
export function evaluate(expression: string, bindings: Record<string, unknown>): unknown {
  let program = PLANS.get(expression);
  if (!program) {
    program = plan(ENV, parse(expression));
    PLANS.set(expression, program);
  }
  const result = (program as (b: Record<string, unknown>) => unknown)(bindings);
  if (isCelError(result)) return new Error(String((result as { message?: string }).message ?? result));
  return result;
}

/** Converts a CEL result back to plain JS (lists, maps, bigint → number). */
export function fromCel(value: unknown): unknown {
  if (isCelList(value)) return [...(value as Iterable<unknown>)].map(fromCel);
  if (isCelMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value as unknown as Iterable<[unknown, unknown]>) out[String(k)] = fromCel(v);
    return out;
  }
  if (typeof value === 'bigint') return Number(value);
  return value;
}

/** JSON → CEL input: integers become bigint (CEL int), everything else as is. */
export function toCel(value: Json): unknown {
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toCel(v);
    return out;
  }
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return value;
}

/** Drops zero values the way the API server's unstructured conversion drops `omitempty` fields (not in metadata). */
export function apiServerView(value: Json, inMetadata = false): Json {
  if (Array.isArray(value)) return value.map((v) => apiServerView(v, inMetadata));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) {
    const child = apiServerView(v, inMetadata || k === 'metadata');
    if (!inMetadata && k !== 'metadata' && isZero(child)) continue;
    out[k] = child;
  }
  return out;
}

function isZero(v: Json): boolean {
  if (v === false || v === 0 || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (v !== null && typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

/** The resource a request addresses. */
export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/** One admission request. */
export interface SimRequest {
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  readonly resource: GroupVersionResource;
  readonly subResource?: string;
  readonly kind: { readonly group: string; readonly version: string; readonly kind: string };
  /** Namespace of a namespaced request; undefined for cluster-scoped objects. */
  readonly namespace?: string;
  /** Labels of that namespace (`kubernetes.io/metadata.name` is added as the API server does). */
  readonly namespaceLabels?: Record<string, string>;
  readonly object: Json | null;
  readonly oldObject: Json | null;
  readonly user: { readonly username: string; readonly groups: string[] };
}

/** A failed validation (or an evaluation error). */
export interface Finding {
  readonly policy: string;
  readonly binding: string;
  readonly message: string;
  /** Where the message came from. */
  readonly source: 'messageExpression' | 'message' | 'default' | 'error';
}

/** The outcome of one request. */
export interface Decision {
  readonly allowed: boolean;
  readonly denials: Finding[];
  readonly warnings: Finding[];
  readonly audits: Finding[];
  /** CEL evaluation errors (each would trigger the failure policy). */
  readonly errors: Finding[];
  /** `policy/binding` pairs whose match conditions passed and whose validations ran. */
  readonly evaluated: string[];
}

interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** Label selector semantics (`metav1.LabelSelectorAsSelector`): every requirement must hold; undefined or {} matches all. */
export function selectorMatches(selector: Selector | undefined, labels: Record<string, string>): boolean {
  return selector === undefined || labelSelectorMatches(selector, labels);
}

interface Rule {
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  operations?: string[];
}

function listMatches(list: string[] | undefined, value: string): boolean {
  return (list ?? []).some((x) => x === '*' || x === value);
}

function resourceMatches(resources: string[] | undefined, resource: string, sub: string): boolean {
  return (resources ?? []).some((r) => {
    const [res, subres] = r.split('/');
    if (sub === '') return subres === undefined && (res === '*' || res === resource);
    return subres !== undefined && (res === '*' || res === resource) && (subres === '*' || subres === sub);
  });
}

function ruleMatches(rule: Rule, req: SimRequest): boolean {
  return (
    listMatches(rule.apiGroups, req.resource.group) &&
    listMatches(rule.apiVersions, req.resource.version) &&
    listMatches(rule.operations, req.operation) &&
    resourceMatches(rule.resources, req.resource.resource, req.subResource ?? '')
  );
}

function labelsOf(obj: Json | null): Record<string, string> {
  return (obj && obj.metadata && obj.metadata.labels) || {};
}

/** `matchConstraints` / `matchResources` semantics. */
function matchResourcesMatches(match: Json | undefined, req: SimRequest, requireRules: boolean): boolean {
  if (!match) return !requireRules;
  const rules: Rule[] | undefined = match.resourceRules;
  if (rules && rules.length > 0) {
    if (!rules.some((r) => ruleMatches(r, req))) return false;
  } else if (requireRules) {
    return false;
  }
  if ((match.excludeResourceRules ?? []).some((r: Rule) => ruleMatches(r, req))) return false;
  // Namespace selector: namespaced requests use their namespace's labels; a Namespace object uses its own labels
  // (the new ones on update); other cluster-scoped objects always match.
  if (req.namespace !== undefined) {
    if (!selectorMatches(match.namespaceSelector, namespaceLabels(req))) return false;
  } else if (req.resource.group === '' && req.resource.resource === 'namespaces') {
    if (!selectorMatches(match.namespaceSelector, labelsOf(req.object ?? req.oldObject))) return false;
  }
  if (match.objectSelector) {
    if (!selectorMatches(match.objectSelector, labelsOf(req.object)) && !selectorMatches(match.objectSelector, labelsOf(req.oldObject)))
      return false;
  }
  return true;
}

function namespaceLabels(req: SimRequest): Record<string, string> {
  return { ...(req.namespaceLabels ?? {}), 'kubernetes.io/metadata.name': req.namespace as string };
}

function requestVariable(req: SimRequest): Json {
  const obj = req.object ?? req.oldObject;
  const userInfo: Json = { username: req.user.username };
  if (req.user.groups.length > 0) userInfo.groups = [...req.user.groups];
  return {
    kind: req.kind,
    resource: req.resource,
    subResource: req.subResource ?? '',
    requestKind: req.kind,
    requestResource: req.resource,
    requestSubResource: req.subResource ?? '',
    name: obj?.metadata?.name ?? '',
    namespace: req.namespace ?? '',
    operation: req.operation,
    userInfo,
    dryRun: false,
  };
}

/** Evaluates `manifests` (policies and bindings, as synthesized) against one request. */
export function admit(manifests: Json[], req: SimRequest, options: { apiServerView?: boolean } = {}): Decision {
  const view = (o: Json | null) => (o === null ? null : options.apiServerView ? apiServerView(o) : o);
  const object = toCel(view(req.object));
  const oldObject = toCel(view(req.oldObject));
  const request = toCel(requestVariable(req));
  const namespaceObject =
    req.namespace === undefined
      ? null
      : toCel({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: req.namespace, labels: namespaceLabels(req) } });

  const policies = manifests.filter((m) => m.kind === 'ValidatingAdmissionPolicy');
  const bindings = manifests.filter((m) => m.kind === 'ValidatingAdmissionPolicyBinding');
  const denials: Finding[] = [];
  const warnings: Finding[] = [];
  const audits: Finding[] = [];
  const errors: Finding[] = [];
  const evaluated: string[] = [];

  for (const policy of policies) {
    const spec = policy.spec;
    if (!matchResourcesMatches(spec.matchConstraints, req, true)) continue;
    for (const binding of bindings.filter((b) => b.spec.policyName === policy.metadata.name)) {
      if (!matchResourcesMatches(binding.spec.matchResources, req, false)) continue;
      const where = { policy: policy.metadata.name, binding: binding.metadata.name };
      const fail = (message: string, source: Finding['source']) => {
        const finding = { ...where, message, source };
        const actions: string[] = binding.spec.validationActions;
        if (actions.includes('Deny')) denials.push(finding);
        if (actions.includes('Warn')) warnings.push(finding);
        if (actions.includes('Audit')) audits.push(finding);
      };

      // Match conditions: no variables, namespaceObject is null.
      const conditionBindings = { object, oldObject, request, params: null, namespaceObject: null };
      let skip = false;
      for (const condition of spec.matchConditions ?? []) {
        const result = evaluate(condition.expression, conditionBindings);
        if (typeof result !== 'boolean') {
          errors.push({ ...where, message: `matchCondition ${condition.name}: ${describe(result)}`, source: 'error' });
          skip = true;
          break;
        }
        if (!result) {
          skip = true;
          break;
        }
      }
      if (skip) continue;
      evaluated.push(`${where.policy}/${where.binding}`);

      const variables: Record<string, unknown> = {};
      const scope = { object, oldObject, request, params: null, namespaceObject, variables };
      for (const variable of spec.variables ?? []) {
        const value = evaluate(variable.expression, scope);
        if (value instanceof Error) {
          errors.push({ ...where, message: `variable ${variable.name}: ${value.message}`, source: 'error' });
        }
        variables[variable.name] = value;
      }
      for (const validation of spec.validations ?? []) {
        const result = evaluate(validation.expression, scope);
        if (typeof result !== 'boolean') {
          errors.push({ ...where, message: `validation ${validation.expression}: ${describe(result)}`, source: 'error' });
          fail(`failed expression: ${validation.expression}`, 'error');
          continue;
        }
        if (result) continue;
        if (validation.messageExpression) {
          const message = evaluate(validation.messageExpression, scope);
          if (typeof message === 'string' && message.trim() !== '') {
            fail(message, 'messageExpression');
            continue;
          }
          errors.push({ ...where, message: `messageExpression: ${describe(message)}`, source: 'error' });
        }
        if (validation.message) fail(validation.message, 'message');
        else fail(`failed expression: ${validation.expression}`, 'default');
      }
    }
  }
  return { allowed: denials.length === 0, denials, warnings, audits, errors, evaluated };
}

function describe(value: unknown): string {
  if (value instanceof Error) return `error: ${value.message}`;
  return `non-boolean result ${String(value)}`;
}
