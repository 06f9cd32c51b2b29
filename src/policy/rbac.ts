/**
 * Cross-object facts for the identity rules: the ServiceAccount a DaemonSet's pods run as, the ServiceAccounts in
 * the input, and the RBAC rules bound to a ServiceAccount by the (Cluster)RoleBindings in the input.
 */

import { asArray, asObject } from './helpers';
import type { InputObjects, PodView } from './types';

/** The ServiceAccount the pods run as (`serviceAccountName`, else the deprecated `serviceAccount`, else `default`). */
export function serviceAccountOf(view: PodView): { name: string; namespace: string | undefined; field: string } {
  const pod = view.pod;
  const ns = typeof view.metadata.namespace === 'string' && view.metadata.namespace !== '' ? view.metadata.namespace : undefined;
  if (typeof pod.serviceAccountName === 'string' && pod.serviceAccountName !== '')
    return { name: pod.serviceAccountName, namespace: ns, field: 'serviceAccountName' };
  if (typeof pod.serviceAccount === 'string' && pod.serviceAccount !== '')
    return { name: pod.serviceAccount, namespace: ns, field: 'serviceAccount' };
  return { name: 'default', namespace: ns, field: 'serviceAccountName' };
}

/**
 * The kinds the cross-object rules look up among the manifests of a check: a DaemonSet's Namespace, ServiceAccount,
 * the (Cluster)Roles its (Cluster)RoleBindings grant, and the guardrail policies with their bindings. Only objects of
 * these kinds are kept for them, so that a stream of manifests can be checked one object at a time.
 */
export const CROSS_OBJECT_KINDS: ReadonlySet<string> = new Set([
  'Namespace',
  'ServiceAccount',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
]);

/** The kinds the API server accepts as a binding's `roleRef.kind`. */
const ROLE_KINDS: ReadonlySet<unknown> = new Set(['Role', 'ClusterRole']);

/** Whether a manifest is of a kind the cross-object rules look up. */
function isCrossObject(manifest: unknown): boolean {
  const kind = (manifest as { kind?: unknown } | null | undefined)?.kind;
  return typeof kind === 'string' && CROSS_OBJECT_KINDS.has(kind);
}

/**
 * The kind names a text must spell for one of its objects to be of a {@link CROSS_OBJECT_KINDS} kind (each kind holds
 * one of them), so that a document whose text holds none of them (and no `\`, with which a YAML or JSON escape could
 * spell one) need not be read to know that it holds no such object.
 */
const CROSS_OBJECT_WORDS: readonly string[] = [...CROSS_OBJECT_KINDS].filter(
  (kind) => ![...CROSS_OBJECT_KINDS].some((other) => other !== kind && kind.includes(other)),
);

/** Whether a manifest's text may hold an object of a {@link CROSS_OBJECT_KINDS} kind (see `CROSS_OBJECT_WORDS`). */
export function mayHoldCrossObject(text: string): boolean {
  if (text.includes('\\')) return true;
  for (const word of CROSS_OBJECT_WORDS) if (text.includes(word)) return true;
  return false;
}

/** The index of the cross-object rules as it is filled, one manifest at a time. */
export class InputIndex implements InputObjects {
  public readonly byKind = new Map<unknown, any[]>();
  public readonly bindings: any[] = [];

  /** Adds a manifest when it is of a kind the cross-object rules look up (see {@link CROSS_OBJECT_KINDS}); whether it did. */
  public add(manifest: any): boolean {
    if (!isCrossObject(manifest)) return false;
    const kind = manifest.kind;
    const list = this.byKind.get(kind);
    if (list) list.push(manifest);
    else this.byKind.set(kind, [manifest]);
    if (kind === 'RoleBinding' || kind === 'ClusterRoleBinding') this.bindings.push(manifest);
    return true;
  }
}

/** Lists the manifests of a check the cross-object rules look up by kind, and its (Cluster)RoleBindings, in input order. */
export function inputObjects(manifests: readonly any[]): InputObjects {
  const index = new InputIndex();
  for (const m of manifests) index.add(m);
  return index;
}

const NONE: readonly any[] = [];

/** The manifests whose `kind` is `kind` among those the index keeps. */
function ofKind(input: InputObjects, kind: unknown): readonly any[] {
  return input.byKind.get(kind) ?? NONE;
}

/** Namespaces match when equal, or when either is unset (a manifest applied with `-n`). */
function sameNamespace(a: unknown, b: string | undefined): boolean {
  return a === undefined || a === null || a === '' || b === undefined || a === b;
}

/** Whether the input holds a ServiceAccount with this name (and namespace). */
export function hasServiceAccount(input: InputObjects, name: string, namespace: string | undefined): boolean {
  return ofKind(input, 'ServiceAccount').some((m) => m?.metadata?.name === name && sameNamespace(m?.metadata?.namespace, namespace));
}

/** Whether a (Cluster)RoleBinding of the input names the ServiceAccount as a subject. */
export function isBindingSubject(input: InputObjects, name: string, namespace: string | undefined): boolean {
  return input.bindings.some((b) =>
    asArray(b.subjects)
      .map(asObject)
      .some(
        (s) => s.kind === 'ServiceAccount' && s.name === name && sameNamespace(s.namespace ?? asObject(b.metadata).namespace, namespace),
      ),
  );
}

/** One RBAC rule bound to a ServiceAccount, with the role it comes from. */
export interface BoundRule {
  /** `ClusterRole name` or `Role namespace/name`. */
  readonly role: string;
  /** The binding that grants it. */
  readonly binding: string;
  /** Index of the rule in the role. */
  readonly index: number;
  readonly apiGroups: string[];
  readonly resources: string[];
  readonly verbs: string[];
  readonly resourceNames: string[];
}

const strings = (v: unknown): string[] => asArray(v).filter((x): x is string => typeof x === 'string');

/** Every rule the input's bindings grant to the ServiceAccount (roles not in the input are not known). */
export function boundRules(input: InputObjects, name: string, namespace: string | undefined): BoundRule[] {
  const out: BoundRule[] = [];
  for (const b of input.bindings) {
    const bindingNs = asObject(b.metadata).namespace;
    const subjects = asArray(b.subjects).map(asObject);
    const matches = subjects.some(
      (s) =>
        s.kind === 'ServiceAccount' &&
        s.name === name &&
        sameNamespace(s.namespace ?? (b.kind === 'RoleBinding' ? bindingNs : undefined), namespace),
    );
    if (!matches) continue;
    const ref = asObject(b.roleRef);
    // A roleRef of another kind grants nothing (the API server accepts no other).
    const role = (ROLE_KINDS.has(ref.kind) ? ofKind(input, ref.kind) : NONE).find(
      (r) =>
        r?.metadata?.name === ref.name &&
        (ref.kind === 'ClusterRole' || sameNamespace(r?.metadata?.namespace, typeof bindingNs === 'string' ? bindingNs : undefined)),
    );
    if (!role) continue;
    const roleName =
      ref.kind === 'ClusterRole'
        ? `ClusterRole ${ref.name}`
        : `Role ${role.metadata?.namespace ? `${role.metadata.namespace}/` : ''}${ref.name}`;
    asArray(role.rules).forEach((raw, index) => {
      const r = asObject(raw);
      out.push({
        role: roleName,
        binding: `${b.kind} ${asObject(b.metadata).name}`,
        index,
        apiGroups: strings(r.apiGroups),
        resources: strings(r.resources),
        verbs: strings(r.verbs),
        resourceNames: strings(r.resourceNames),
      });
    });
  }
  return out;
}

/** What is dangerous about one bound rule (empty when nothing is). */
export function ruleDangers(r: BoundRule): string[] {
  const out: string[] = [];
  const core = r.apiGroups.includes('') || r.apiGroups.includes('*');
  const any = (list: string[], ...values: string[]) => list.includes('*') || values.some((v) => list.includes(v));
  if (r.verbs.includes('*') || r.resources.includes('*') || r.apiGroups.includes('*'))
    out.push('a wildcard (*) grants every current and future permission it covers');
  if (core && any(r.resources, 'secrets') && any(r.verbs, 'get', 'list', 'watch')) {
    out.push(`reads Secrets${r.resourceNames.length > 0 ? ` (${r.resourceNames.join(', ')})` : ' in every namespace it is bound in'}`);
  }
  if (core && any(r.resources, 'pods/exec', 'pods/attach') && any(r.verbs, 'create', 'get'))
    out.push('pods/exec runs commands in any pod it reaches');
  const escalating = ['escalate', 'bind', 'impersonate'].filter((v) => r.verbs.includes(v));
  if (escalating.length > 0) out.push(`${escalating.join(', ')} lets it grant itself (or act as) more than it has`);
  if (core && any(r.resources, 'nodes/proxy')) out.push('nodes/proxy reaches the kubelet API of every node (exec into any pod there)');
  return out;
}
