/**
 * Placement as node pools, from a cluster's nodes (`--nodes`, `kubectl get nodes -o json`): the nodes are grouped
 * into the pools their pool label names (EKS node group, GKE node pool, AKS agent pool, Karpenter node pool, else a
 * `node-role.kubernetes.io/<role>` label), each with the taints all its nodes carry; a DaemonSet's node selection is
 * expressed as `pools` where the pools' nodes are exactly the nodes it runs on (selected and tolerated, with the
 * DaemonSet controller's semantics), else kept with the reason. The check then proves, on the same nodes, that the
 * generated placement covers exactly the input's nodes. Pure.
 */

import { asArray, asObject } from '../k8s/json';
import { checkPodOnNode } from '../coverage/evaluate';
import { CoverageReason } from '../coverage/types';
import { nameOf } from '../day2/objects';
import { arr, call, Expr, lit, obj, ObjectExpr, prop, Property } from './model';

/** Node labels that name a node's pool, most specific first. */
const POOL_LABELS: readonly string[] = [
  'eks.amazonaws.com/nodegroup',
  'cloud.google.com/gke-nodepool',
  'kubernetes.azure.com/agentpool',
  'agentpool',
  'karpenter.sh/nodepool',
];

const ROLE_PREFIX = 'node-role.kubernetes.io/';

/** Node-selector keys kept as they are (they select an OS or architecture, not a pool). */
const PLATFORM_KEYS: readonly string[] = ['kubernetes.io/os', 'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch'];

/** A pool proposed from the nodes. */
export interface ProposedPool {
  /** Its name (the pool label's value, or the role). */
  readonly name: string;
  /** The label that identifies its nodes. */
  readonly labels: Readonly<Record<string, string>>;
  /** The taints every node of the pool carries (the node lifecycle's `node.kubernetes.io/*` taints left out). */
  readonly taints: ReadonlyArray<{ key: string; value?: string; effect: string }>;
  /** Its nodes' names. */
  readonly nodes: readonly string[];
}

/** The pool label of a node, if it has one. */
function poolLabel(node: unknown): [string, string] | undefined {
  const labels = asObject(asObject(asObject(node).metadata).labels);
  for (const key of POOL_LABELS) if (typeof labels[key] === 'string' && labels[key] !== '') return [key, labels[key]];
  const role = Object.keys(labels)
    .filter((k) => k.startsWith(ROLE_PREFIX) && k.length > ROLE_PREFIX.length)
    .sort()[0];
  return role !== undefined ? [role, String(labels[role])] : undefined;
}

const taintKey = (t: unknown) => {
  const x = asObject(t);
  return `${String(x.key)}=${x.value === undefined ? '' : String(x.value)}:${String(x.effect)}`;
};

/** The pools of `nodes`, by pool label (nodes without one belong to no pool). */
export function proposePools(nodes: readonly unknown[]): ProposedPool[] {
  const groups = new Map<string, { label: [string, string]; nodes: unknown[] }>();
  for (const n of nodes) {
    const label = poolLabel(n);
    if (label === undefined) continue;
    const id = `${label[0]}=${label[1]}`;
    const g = groups.get(id) ?? { label, nodes: [] };
    g.nodes.push(n);
    groups.set(id, g);
  }
  return [...groups.values()].map(({ label, nodes: members }) => {
    const taintsOf = (n: unknown) =>
      asArray(asObject(asObject(n).spec).taints).filter((t) => !String(asObject(t).key).startsWith('node.kubernetes.io/'));
    const common = taintsOf(members[0]).filter((t) => members.every((m) => taintsOf(m).some((u) => taintKey(u) === taintKey(t))));
    const [key, value] = label;
    return {
      name: key.startsWith(ROLE_PREFIX) ? key.slice(ROLE_PREFIX.length) : value,
      labels: { [key]: value },
      taints: common.map((t) => {
        const x = asObject(t);
        return { key: String(x.key), ...(typeof x.value === 'string' ? { value: x.value } : {}), effect: String(x.effect) };
      }),
      nodes: members.map((m) => nameOf(m)),
    };
  });
}

/** The nodes (by name) a DaemonSet runs on: selected, tolerated, and of its OS. */
export function coveredNodes(daemonSet: unknown, nodes: readonly unknown[]): string[] {
  return nodes
    .filter((n) => {
      const v = checkPodOnNode(daemonSet, n);
      return v.desired && v.reason !== CoverageReason.OS && !v.alsoFails.some((f) => f.reason === CoverageReason.OS);
    })
    .map((n) => nameOf(n))
    .sort();
}

const TAINT_FACTORIES: Readonly<Record<string, string>> = {
  NoSchedule: 'noSchedule',
  NoExecute: 'noExecute',
  PreferNoSchedule: 'preferNoSchedule',
};

/** A proposed pool as `NodePool.of({...})`. */
function poolExpr(pool: ProposedPool): Expr {
  const taints = pool.taints.map((t) => call('Taint', TAINT_FACTORIES[t.effect] ?? 'noSchedule', lit(t.key), lit(t.value)));
  return call(
    'NodePool',
    'of',
    obj([
      prop('name', lit(pool.name)),
      prop('labels', obj(Object.entries(pool.labels).map(([k, v]) => ({ key: k, value: lit(v) })))),
      prop('taints', taints.length > 0 ? arr(taints) : undefined),
    ]),
  );
}

/** The placement of one DaemonSet: its props rewritten with `pools`, or why its selectors are kept. */
export interface PoolPlacement {
  /** The props (unchanged when the selection is kept). */
  readonly props: ObjectExpr;
  /** What was done, in a sentence. */
  readonly reason: string;
  /** The pools used (none when kept). */
  readonly pools: readonly string[];
}

/** Whether the DaemonSet selects nodes by label beyond their OS and architecture. */
function selectsByLabel(pod: Record<string, any>): boolean {
  const selector = Object.keys(asObject(pod.nodeSelector)).filter((k) => !PLATFORM_KEYS.includes(k));
  return selector.length > 0 || asObject(asObject(pod.affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution !== undefined;
}

/** The platform entries of the input's node selector, which stay (`kubernetes.io/os` …). */
function platformSelector(pod: Record<string, any>): Property | undefined {
  const entries = Object.entries(asObject(pod.nodeSelector)).filter(([k, v]) => PLATFORM_KEYS.includes(k) && typeof v === 'string');
  return entries.length > 0 ? { key: 'nodeSelector', value: obj(entries.map(([k, v]) => ({ key: k, value: lit(v) }))) } : undefined;
}

/** `props` with the node selection expressed as the pools of `nodes` where that covers exactly the same nodes. */
export function placeOnPools(
  daemonSet: unknown,
  props: ObjectExpr,
  nodes: readonly unknown[],
  pools: readonly ProposedPool[],
): PoolPlacement {
  const keep = (reason: string): PoolPlacement => ({ props, reason: `selectors and tolerations kept: ${reason}`, pools: [] });
  const pod = asObject(asObject(asObject(asObject(daemonSet).spec).template).spec);
  if (!selectsByLabel(pod)) return keep('it selects every node (of its OS); pools would narrow it to the pools of the node list');
  const covered = new Set(coveredNodes(daemonSet, nodes));
  if (covered.size === 0) return keep('it runs on none of the listed nodes');
  const whole = pools.filter((p) => p.nodes.every((n) => covered.has(n)));
  const partial = pools.filter((p) => !whole.includes(p) && p.nodes.some((n) => covered.has(n)));
  if (partial.length > 0) return keep(`it runs on part of the pool(s) ${partial.map((p) => p.name).join(', ')}`);
  const outside = [...covered].filter((n) => !whole.some((p) => p.nodes.includes(n)));
  if (outside.length > 0) return keep(`it runs on nodes in no pool (${outside.slice(0, 3).join(', ')})`);
  if (whole.length === pools.length)
    return keep('it runs on every pool of the node list; pools would narrow it to the pools there are today');
  const rewritten = props.properties.filter((p) => p.key !== 'nodeSelector' && p.key !== 'nodeAffinity');
  const index = props.properties.findIndex((p) => p.key === 'nodeSelector' || p.key === 'nodeAffinity');
  const placed: Property[] = [
    ...(platformSelector(pod) !== undefined ? [platformSelector(pod)!] : []),
    {
      key: 'pools',
      value: arr(whole.map(poolExpr)),
      comment: `The pools of the node list this DaemonSet runs on (all their nodes, and no other).`,
    },
  ];
  const at = index < 0 ? rewritten.length : index;
  return {
    props: { type: 'object', properties: [...rewritten.slice(0, at), ...placed, ...rewritten.slice(at)] },
    reason: `as pools: ${whole.map((p) => p.name).join(', ')} (the ${covered.size} listed node(s) it runs on)`,
    pools: whole.map((p) => p.name),
  };
}
