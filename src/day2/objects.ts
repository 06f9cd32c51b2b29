/**
 * Shared helpers of the day-2 commands (`diff`, `plan`): identity of objects, the DaemonSets of an input, structural
 * comparison of plain JSON, node pools and node readiness. Pure functions over plain Kubernetes objects; nothing here
 * imports cdk8s, cdk8s-plus or the CLI.
 */

import { ownValue } from '../k8s/json';

/** A Kubernetes object with where it was read from (the CLI passes what its manifest reader returns). */
export interface InputObject {
  /** The object (plain JSON). */
  readonly object: any;
  /** The file it came from, when known. */
  readonly file?: string;
  /** 1-based line of the document in the file, when known. */
  readonly line?: number;
}

/** The DaemonSet annotation naming the stable DaemonSet of a canary (written by `Canary.byNodeLabel`). */
export const CANARY_OF_ANNOTATION = 'node-services.cdk8s.io/canary-of';

/** The DaemonSet annotation with the canary's node label, `key=value` (written by `Canary.byNodeLabel`). */
export const CANARY_LABEL_ANNOTATION = 'node-services.cdk8s.io/canary-label';

/** The namespace of an object (`default` when absent or empty). */
export function namespaceOf(object: any): string {
  const ns = object?.metadata?.namespace;
  return typeof ns === 'string' && ns.length > 0 ? ns : 'default';
}

/** The name of an object ("" when absent). */
export function nameOf(object: any): string {
  const name = object?.metadata?.name;
  return typeof name === 'string' ? name : '';
}

/** `namespace/name`, the identity DaemonSets are matched by. */
export function keyOf(object: any): string {
  return `${namespaceOf(object)}/${nameOf(object)}`;
}

/** Whether an object is a DaemonSet (`apps/v1`, or any group's `DaemonSet` kind such as OpenKruise's). */
export function isDaemonSet(object: any): boolean {
  return object?.kind === 'DaemonSet';
}

/** The DaemonSets of an input by `namespace/name`, in input order. A later duplicate replaces an earlier one. */
export function daemonSetsByKey(objects: readonly InputObject[]): Map<string, InputObject> {
  const out = new Map<string, InputObject>();
  for (const o of objects) if (isDaemonSet(o.object)) out.set(keyOf(o.object), o);
  return out;
}

/** JSON with object keys sorted, so that two values are equal exactly when their texts are equal. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value as object)
    .filter((k) => (value as any)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as any)[k])}`).join(',')}}`;
}

/** Structural equality of plain JSON values (object key order does not matter, array order does). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** One difference between two JSON values: the path (containers and other named lists keyed by name) and both sides. */
export interface JsonChange {
  /** Path such as `spec.template.spec.containers[agent].image`. */
  readonly path: string;
  /** The old value (`undefined` when added). */
  readonly old: unknown;
  /** The new value (`undefined` when removed). */
  readonly new: unknown;
}

/** Whether every item of a list is an object with a distinct string `name` (containers, volumes, env, ports…). */
function namedList(list: readonly unknown[]): boolean {
  const names = new Set<string>();
  for (const item of list) {
    const name = (item as any)?.name;
    if (item === null || typeof item !== 'object' || typeof name !== 'string' || names.has(name)) return false;
    names.add(name);
  }
  return true;
}

function pathKey(path: string, key: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key);
  if (path.length === 0) return plain ? key : `[${JSON.stringify(key)}]`;
  return plain ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Every leaf difference between two JSON values, in a stable order. Lists whose items all have distinct names on both
 * sides are compared by name (`containers[agent]`), other lists by index.
 */
export function jsonChanges(a: unknown, b: unknown, path = ''): JsonChange[] {
  const out: JsonChange[] = [];
  walkChanges(a, b, path, out);
  return out;
}

function walkChanges(a: unknown, b: unknown, path: string, out: JsonChange[]): void {
  if (jsonEqual(a, b)) return;
  const objA = a !== null && typeof a === 'object';
  const objB = b !== null && typeof b === 'object';
  if (!objA || !objB || Array.isArray(a) !== Array.isArray(b)) {
    out.push({ path, old: a, new: b });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (namedList(a) && namedList(b) && (a.length > 0 || b.length > 0)) {
      const byName = (list: any[]) => new Map(list.map((item) => [item.name as string, item]));
      const mapA = byName(a);
      const mapB = byName(b);
      const names = [...mapA.keys(), ...[...mapB.keys()].filter((n) => !mapA.has(n))];
      for (const name of names) walkChanges(mapA.get(name), mapB.get(name), `${path}[${name}]`, out);
      const orderA = a.map((i: any) => i.name).filter((n: string) => mapB.has(n));
      const orderB = b.map((i: any) => i.name).filter((n: string) => mapA.has(n));
      if (!jsonEqual(orderA, orderB)) out.push({ path: `${path} (order)`, old: orderA, new: orderB });
      return;
    }
    const length = Math.max(a.length, b.length);
    for (let i = 0; i < length; i++) walkChanges(a[i], b[i], `${path}[${i}]`, out);
    return;
  }
  const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])].sort();
  for (const key of keys) walkChanges(ownValue(a, key), ownValue(b, key), pathKey(path, key), out);
}

/** A short rendering of a JSON value for reports (long values are cut). */
export function shortJson(value: unknown, max = 80): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Node labels that name a node's pool or node group, in the order they are looked for: managed node groups of EKS,
 * GKE, AKS, Karpenter, then common conventions.
 */
export const POOL_LABELS: readonly string[] = [
  'eks.amazonaws.com/nodegroup',
  'cloud.google.com/gke-nodepool',
  'kubernetes.azure.com/agentpool',
  'karpenter.sh/nodepool',
  'node.kubernetes.io/pool',
  'node-pool',
  'nodepool',
  'pool',
];

/** Label names (after the prefix) that name a pool under any prefix, e.g. `node.example.com/pool`. */
const POOL_NAMES = new Set(['pool', 'nodepool', 'node-pool', 'nodegroup', 'node-group', 'agentpool']);

/** The group of a node shown when no pool label is found. */
const NO_POOL = '(no pool label)';

/**
 * The pool of a node: the value of `groupBy` when given, else of the first {@link POOL_LABELS} entry present, else of
 * any label named `pool`, `nodepool`, `node-pool`, `nodegroup`, `node-group` or `agentpool` under some prefix (the first
 * in key order), else the node's role (`node-role.kubernetes.io/<role>`), else {@link NO_POOL}.
 */
function poolOf(node: any, groupBy?: string): string {
  const labels = node?.metadata?.labels ?? {};
  const value = (key: string) => (typeof labels[key] === 'string' ? `${key}=${labels[key]}` : undefined);
  if (groupBy !== undefined) return value(groupBy) ?? `(no ${groupBy} label)`;
  for (const key of POOL_LABELS) {
    const v = value(key);
    if (v !== undefined) return v;
  }
  const named = Object.keys(labels)
    .sort()
    .find((k) => POOL_NAMES.has(k.slice(k.indexOf('/') + 1)));
  if (named !== undefined) return value(named) ?? NO_POOL;
  const role = Object.keys(labels).find((k) => k.startsWith('node-role.kubernetes.io/'));
  return role !== undefined ? role : NO_POOL;
}

/** Nodes grouped by pool, pools and nodes in first-seen order. */
export interface PoolNodes {
  /** The pool (`label=value`, a role label, or {@link NO_POOL}). */
  readonly pool: string;
  /** Node names. */
  readonly nodes: string[];
}

/** Groups node names by pool. */
export function groupByPool(names: readonly string[], nodesByName: ReadonlyMap<string, any>, groupBy?: string): PoolNodes[] {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const pool = poolOf(nodesByName.get(name), groupBy);
    let list = groups.get(pool);
    if (!list) groups.set(pool, (list = []));
    list.push(name);
  }
  return [...groups].map(([pool, nodes]) => ({ pool, nodes }));
}

/**
 * Whether a node is ready: its `Ready` condition is `True`. A node without conditions (a hand-written node list)
 * counts as ready.
 */
export function nodeReady(node: any): boolean {
  const conditions = node?.status?.conditions;
  if (!Array.isArray(conditions)) return true;
  const ready = conditions.find((c: any) => c?.type === 'Ready');
  return ready === undefined || ready.status === 'True';
}

/** Whether a pod is ready (`Ready` condition `True`) and running. A pod without status counts as ready. */
export function podReady(pod: any): boolean {
  const status = pod?.status;
  if (status == null) return true;
  if (pod?.metadata?.deletionTimestamp != null) return false;
  if (status.phase !== undefined && status.phase !== 'Running') return false;
  const conditions = status.conditions;
  if (!Array.isArray(conditions)) return status.phase === 'Running';
  return conditions.some((c: any) => c?.type === 'Ready' && c.status === 'True');
}
