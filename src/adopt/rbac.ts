/**
 * Service-account permissions as the library's `apiAccess`: where the imported ServiceAccount is bound by one
 * ClusterRoleBinding to one ClusterRole whose rules `ApiPermission` expresses exactly (no wildcard, no Secrets, no
 * `resourceNames`, no non-resource URLs) and the library would create the same ServiceAccount, the three objects become
 * `apiAccess` (the library creates them, least-privilege); otherwise they are kept as they are, with the reason. The
 * check compares access, not object names: what each ServiceAccount may do (`grantsOf`). Pure given the runtime.
 */

import { asArray, asObject, isObject } from '../k8s/json';
import { InputObject, jsonEqual, nameOf, namespaceOf } from '../day2/objects';
import { AdoptRuntime } from './evaluate';
import { arr, call, Expr, lit } from './model';

/** The permissions of the imported RBAC, and the objects `apiAccess` replaces. */
export interface ApiAccessMapping {
  /** `ApiPermission` expressions, one per rule. */
  readonly permissions: Expr;
  /** The input's ServiceAccount, ClusterRole and ClusterRoleBinding (in this order) the library creates instead. */
  readonly replaced: readonly InputObject[];
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** Label keys of RBAC objects the library writes itself, or that only name the chart that rendered them. */
const REPLACEABLE_LABEL = /^(?:app\.kubernetes\.io\/[a-z-]+|helm\.sh\/chart)$/;

const READ = ['get', 'list', 'watch'];

/**
 * Whether binding `o` names the ServiceAccount `namespace/account`; a subject without a namespace is in the binding's
 * (the API's reading, which grants compare by; `input.ts` groups objects with the DaemonSet's namespace instead).
 */
function isBindingOf(o: Record<string, any>, namespace: string, account: string): boolean {
  return asArray(o.subjects).some((s) => {
    const subject = asObject(s);
    return subject.kind === 'ServiceAccount' && subject.name === account && (subject.namespace ?? namespaceOf(o)) === namespace;
  });
}

/** Why `objects`' labels and annotations would be lost if the library created them, or `undefined`. */
function metadataKept(objects: readonly Record<string, any>[]): string | undefined {
  for (const o of objects) {
    const meta = asObject(o.metadata);
    const labels = Object.keys(asObject(meta.labels)).filter((k) => !REPLACEABLE_LABEL.test(k));
    if (labels.length > 0) return `${String(o.kind)} ${nameOf(o)} has labels the library does not write (${labels.join(', ')})`;
    if (Object.keys(asObject(meta.annotations)).length > 0)
      return `${String(o.kind)} ${nameOf(o)} has annotations the library does not write`;
  }
  return undefined;
}

/** One rule as an `ApiPermission` factory call, or why it is not one. */
function permissionExpr(rule: unknown, runtime: AdoptRuntime): Expr | string {
  const r = asObject(rule);
  const groups = asArray(r.apiGroups);
  const resources = asArray(r.resources);
  const verbs = asArray(r.verbs);
  if (r.resourceNames !== undefined || r.nonResourceURLs !== undefined) return 'a rule names resourceNames or nonResourceURLs';
  if (groups.length !== 1 || typeof groups[0] !== 'string') return 'a rule names several API groups';
  if (![...resources, ...verbs].every((v) => typeof v === 'string')) return 'a rule has a value that is not a string';
  const ApiPermission = runtime.library.ApiPermission as { of(g: string, r: string[], v: string[]): { problem(): string | undefined } };
  const problem = ApiPermission.of(groups[0], resources as string[], verbs as string[]).problem();
  if (problem !== undefined) return `a rule ${problem}`;
  const group = groups[0];
  if (verbs.length === READ.length && READ.every((v) => verbs.includes(v)))
    return group === '' ? call('ApiPermission', 'read', lit(resources)) : call('ApiPermission', 'read', lit(resources), lit(group));
  return call('ApiPermission', 'of', lit(group), lit(resources), lit(verbs));
}

/**
 * The `apiAccess` of a DaemonSet named `name` in `namespace` running as `account`, from the objects that belong to it:
 * a mapping, the reason it is kept raw, or `undefined` when it has no RBAC at all.
 */
export function apiAccessOf(
  belonging: readonly InputObject[],
  names: { readonly name: string; readonly namespace: string; readonly account?: string },
  runtime: AdoptRuntime,
): ApiAccessMapping | string | undefined {
  const { name, namespace, account } = names;
  if (account === undefined) return undefined;
  const kindOf = (o: InputObject) => String(asObject(o.object).kind);
  const bindings = belonging.filter(
    (o) => ['ClusterRoleBinding', 'RoleBinding'].includes(kindOf(o)) && isBindingOf(o.object, namespace, account),
  );
  if (bindings.length === 0) return undefined;
  const keep = (why: string) => `kept as they are: ${why}`;
  if (bindings.length > 1 || kindOf(bindings[0]) !== 'ClusterRoleBinding')
    return keep('the ServiceAccount is bound more than once, or by a RoleBinding');
  const binding = asObject(bindings[0].object);
  const ref = asObject(binding.roleRef);
  if (asArray(binding.subjects).length !== 1) return keep(`ClusterRoleBinding ${nameOf(binding)} binds other subjects too`);
  const role = belonging.find((o) => kindOf(o) === 'ClusterRole' && nameOf(o.object) === ref.name);
  const sa = belonging.find((o) => kindOf(o) === 'ServiceAccount' && nameOf(o.object) === account);
  if (ref.kind !== 'ClusterRole' || ref.apiGroup !== RBAC_GROUP || role === undefined || sa === undefined)
    return keep('the ServiceAccount or the ClusterRole it is bound to is not among the input objects');
  if (account !== name) return keep(`the library names the ServiceAccount after the service (${name}), the input's is ${account}`);
  const saObject = asObject(sa.object);
  const extra = Object.keys(saObject).filter((k) => !['apiVersion', 'kind', 'metadata', 'automountServiceAccountToken'].includes(k));
  if (extra.length > 0) return keep(`ServiceAccount ${account} has ${extra.join(', ')}`);
  if (saObject.automountServiceAccountToken === false)
    return keep(`ServiceAccount ${account} turns off its token, which the library's mounts`);
  if (isObject(asObject(role.object).aggregationRule)) return keep(`ClusterRole ${String(ref.name)} aggregates other roles`);
  const lost = metadataKept([saObject, binding, asObject(role.object)]);
  if (lost !== undefined) return keep(lost);
  const rules = asArray(asObject(role.object).rules);
  if (rules.length === 0) return keep(`ClusterRole ${String(ref.name)} has no rules`);
  const permissions: Expr[] = [];
  for (const rule of rules) {
    const p = permissionExpr(rule, runtime);
    if (typeof p === 'string') return keep(`ClusterRole ${String(ref.name)}: ${p}, which apiAccess does not express`);
    permissions.push(p);
  }
  return { permissions: arr(permissions), replaced: [sa, role, bindings[0]] };
}

/** Every (scope, group, resource, verb) a ServiceAccount `namespace/name` is granted by `objects`' RBAC. */
function grantsOf(objects: readonly unknown[], namespace: string, name: string): string[] {
  const all = objects.filter(isObject);
  const out = new Set<string>();
  for (const b of all) {
    if ((b.kind !== 'ClusterRoleBinding' && b.kind !== 'RoleBinding') || !isBindingOf(b, namespace, name)) continue;
    const ref = asObject(b.roleRef);
    const scope = b.kind === 'RoleBinding' ? namespaceOf(b) : '*';
    const role = all.find(
      (r) => r.kind === ref.kind && nameOf(r) === ref.name && (ref.kind === 'ClusterRole' || namespaceOf(r) === namespaceOf(b)),
    );
    for (const rule of asArray(asObject(role).rules).map(asObject)) {
      const names = asArray(rule.resourceNames).join(',');
      for (const g of asArray(rule.apiGroups))
        for (const r of asArray(rule.resources))
          for (const v of asArray(rule.verbs)) out.add(`${scope} ${String(g)}/${String(r)} ${String(v)}${names ? ` [${names}]` : ''}`);
      for (const u of asArray(rule.nonResourceURLs)) for (const v of asArray(rule.verbs)) out.add(`${scope} ${String(u)} ${String(v)}`);
    }
  }
  return [...out].sort();
}

const RBAC_KINDS = ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'];

/** Whether an object is a ServiceAccount or RBAC object, whose check is by access (see {@link explainRbac}). */
export function isRbacObject(object: unknown): boolean {
  return RBAC_KINDS.includes(String(asObject(object).kind));
}

/** A ServiceAccount without what the library writes differently (its labels, an explicit token mount). */
function accountBody(object: unknown): unknown {
  const o = asObject(object);
  const labels = Object.fromEntries(Object.entries(asObject(asObject(o.metadata).labels)).filter(([k]) => !REPLACEABLE_LABEL.test(k)));
  const { automountServiceAccountToken, ...rest } = o;
  const metadata = { ...asObject(o.metadata), labels };
  return { ...rest, metadata, automount: automountServiceAccountToken !== false };
}

/**
 * The input's ServiceAccount and RBAC objects the output does not reproduce as they are, explained when every
 * ServiceAccount they concern is granted exactly the same by the output (and is the same ServiceAccount up to the
 * labels the library writes); the others are problems.
 */
export function explainRbac(
  input: readonly unknown[],
  output: readonly unknown[],
  differing: readonly Record<string, any>[],
): { explained: string[]; problems: string[] } {
  const accounts = new Map<string, [string, string]>();
  const add = (ns: string, name: string) => accounts.set(`${ns}/${name}`, [ns, name]);
  const bindings = input.filter(isObject).filter((o) => o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding');
  const explained: string[] = [];
  const problems: string[] = [];
  for (const o of differing) {
    const before = accounts.size;
    if (o.kind === 'ServiceAccount') add(namespaceOf(o), nameOf(o));
    const refs = o.kind === 'ClusterRole' || o.kind === 'Role' ? bindings.filter((b) => asObject(b.roleRef).name === nameOf(o)) : [o];
    for (const b of refs)
      for (const s of asArray(b.subjects).map(asObject))
        if (s.kind === 'ServiceAccount') add(String(s.namespace ?? namespaceOf(b)), String(s.name));
    // An object that concerns no ServiceAccount is compared as it is.
    if (accounts.size === before && o.kind !== 'ServiceAccount' && !refs.some((b) => asArray(b.subjects).length > 0))
      problems.push(`${String(o.kind)} ${nameOf(o)}: the generated app does not produce it as it is`);
  }
  for (const [ns, name] of accounts.values()) {
    const before = grantsOf(input, ns, name);
    const after = grantsOf(output, ns, name);
    const same = JSON.stringify(before) === JSON.stringify(after);
    const find = (list: readonly unknown[]) =>
      list.find((o) => asObject(o).kind === 'ServiceAccount' && nameOf(o) === name && namespaceOf(o) === ns);
    const inAccount = find(input);
    const outAccount = find(output);
    const account = inAccount === undefined || (outAccount !== undefined && jsonEqual(accountBody(inAccount), accountBody(outAccount)));
    if (same && account)
      explained.push(`ServiceAccount ${ns}/${name}: granted the same ${before.length} permission(s) by the library's RBAC`);
    else if (!same)
      problems.push(
        `ServiceAccount ${ns}/${name}: the generated app grants ${after.join('; ') || 'nothing'}, the input ${before.join('; ') || 'nothing'}`,
      );
    else
      problems.push(
        `ServiceAccount ${ns}/${name}: the generated app ${outAccount === undefined ? 'does not produce it' : 'produces it changed'}`,
      );
  }
  return { explained, problems };
}
