/**
 * Which namespaces node services may not live in: `default` (shared with ordinary workloads) and the `kube-` names
 * Kubernetes reserves for itself (`kube-system` aside, where cluster components live). The one rule, for every
 * construct that names a namespace. Pure.
 */

/** The platform namespace node services go to when none is named. */
export const DEFAULT_NAMESPACE = 'node-services';

/** What is wrong with a reserved namespace name, and the fix. */
export interface NamespaceProblem {
  /** What is wrong, as a prop problem states it. */
  readonly problem: string;
  /** How to fix it. */
  readonly fix: string;
}

/**
 * Why `name` is no namespace for node services to run in: `default`, shared with ordinary workloads; undefined when
 * it may be used. Node services may run in an existing `kube-*` namespace (vendors ship `kube-flannel`, `kube-proxy`).
 */
export function defaultNamespaceProblem(name: string): NamespaceProblem | undefined {
  if (name !== 'default') return undefined;
  return {
    problem: 'node services must not share the default namespace with ordinary workloads',
    fix: `use a platform namespace such as "${DEFAULT_NAMESPACE}"`,
  };
}

/**
 * Why `name` is no namespace to create for node services: `default` ({@link defaultNamespaceProblem}), or a `kube-*`
 * name other than `kube-system`, which Kubernetes reserves for itself; undefined when it may be created.
 */
export function reservedNamespaceProblem(name: string): NamespaceProblem | undefined {
  const shared = defaultNamespaceProblem(name);
  if (shared) return shared;
  if (name.startsWith('kube-') && name !== 'kube-system') {
    return {
      problem: 'the kube- prefix is reserved for Kubernetes system namespaces',
      fix: `use a platform namespace such as "${DEFAULT_NAMESPACE}" (or "kube-system" for components that live there)`,
    };
  }
  return undefined;
}

/** Kinds without a namespace (their identity is kind and name): the ones the library reads or emits. */
const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'PriorityClass',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'CSIDriver',
  'StorageClass',
  'RuntimeClass',
]);

/** Whether objects of `kind` are cluster-scoped (a ClusterRole, a PriorityClass …): they have no namespace. */
export function isClusterScoped(kind: unknown): boolean {
  return typeof kind === 'string' && CLUSTER_SCOPED_KINDS.has(kind);
}
