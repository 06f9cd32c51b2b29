/**
 * Shared helpers of the day-2 commands (`diff`, `plan`): identity of objects, the DaemonSets of an input, structural
 * comparison of plain JSON, node pools and node readiness. Pure functions over plain Kubernetes objects; nothing here
 * imports cdk8s, cdk8s-plus or the CLI.
 */

import { nodePoolOf } from '../k8s/node-pools';
import type { WireCondition, WireDaemonSet, WireMetadataHolder, WireNode, WireObject, WirePod } from '../k8s/wire';

/** A Kubernetes object with where it was read from (the CLI passes what its manifest reader returns). */
export interface InputObject {
  /** The object (plain JSON as read, not yet checked; its readers check each field). */
  readonly object: any;
  /** The file it came from, when known. */
  readonly file?: string;
  /** 1-based line of the document in the file, when known. */
  readonly line?: number;
}

export { CANARY_OF_ANNOTATION, CANARY_LABEL_ANNOTATION } from '../k8s/vocabulary';

/** The namespace of an object (`default` when absent or empty). */
export function namespaceOf(object: unknown): string {
  const ns = (object as WireMetadataHolder | undefined)?.metadata?.namespace;
  return typeof ns === 'string' && ns.length > 0 ? ns : 'default';
}

/** The name of an object ("" when absent). */
export function nameOf(object: unknown): string {
  const name = (object as WireMetadataHolder | undefined)?.metadata?.name;
  return typeof name === 'string' ? name : '';
}

/** `namespace/name`, the identity DaemonSets are matched by. */
export function keyOf(object: unknown): string {
  return `${namespaceOf(object)}/${nameOf(object)}`;
}

/** Whether an object is a DaemonSet (`apps/v1`, or any group's `DaemonSet` kind such as OpenKruise's). */
export function isDaemonSet(object: unknown): object is WireDaemonSet {
  return (object as WireObject | undefined)?.kind === 'DaemonSet';
}

/** An input object that is a DaemonSet. */
export interface DaemonSetInput extends InputObject {
  /** The DaemonSet. */
  readonly object: WireDaemonSet;
}

/** The DaemonSets of an input by `namespace/name`, in input order. A later duplicate replaces an earlier one. */
export function daemonSetsByKey(objects: readonly InputObject[]): Map<string, DaemonSetInput> {
  const out = new Map<string, DaemonSetInput>();
  for (const o of objects) if (isDaemonSet(o.object)) out.set(keyOf(o.object), o as DaemonSetInput);
  return out;
}

export { canonicalJson, jsonEqual } from '../k8s/canonical-json';

/** A short rendering of a JSON value for reports (long values are cut). */
export function shortJson(value: unknown, max = 80): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The pool of a node as `diff` and `plan` show it: the one resolver of `k8s/node-pools.ts`, `label=value`. */
function poolOf(node: WireNode | undefined, groupBy?: string): string {
  return nodePoolOf(node?.metadata?.labels, groupBy).qualified;
}

/** Nodes grouped by pool, pools and nodes in first-seen order. */
export interface PoolNodes {
  /** The pool (`label=value`, a role label, or `(no pool label)`; see `nodePoolOf`). */
  readonly pool: string;
  /** Node names. */
  readonly nodes: string[];
}

/** Groups node names by pool. */
export function groupByPool(names: readonly string[], nodesByName: ReadonlyMap<string, WireNode>, groupBy?: string): PoolNodes[] {
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
export function nodeReady(node: WireNode | undefined): boolean {
  const conditions = node?.status?.conditions;
  if (!Array.isArray(conditions)) return true;
  const ready = conditions.find((c: WireCondition | undefined) => c?.type === 'Ready');
  return ready === undefined || ready.status === 'True';
}

/** Whether a pod is ready (`Ready` condition `True`) and running. A pod without status counts as ready. */
export function podReady(pod: WirePod | undefined): boolean {
  const status = pod?.status;
  if (status == null) return true;
  if (pod?.metadata?.deletionTimestamp != null) return false;
  if (status.phase !== undefined && status.phase !== 'Running') return false;
  const conditions = status.conditions;
  if (!Array.isArray(conditions)) return status.phase === 'Running';
  return conditions.some((c: WireCondition | undefined) => c?.type === 'Ready' && c.status === 'True');
}
