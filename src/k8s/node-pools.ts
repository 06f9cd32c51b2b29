/**
 * The node pool (node group) a node is shown under, by every command that groups nodes: `coverage` (its node tax and
 * the HTML matrix), `diff` and `plan` (the nodes a change restarts, per pool). One resolver, so that a node is in the
 * same group in every report.
 */

/** The label keys of a node's role (`node-role.kubernetes.io/<role>`). */
const NODE_ROLE_PREFIX = 'node-role.kubernetes.io/';

/** The role labels of a control-plane node: the current one, and the one of clusters from before 1.24. */
const CONTROL_PLANE_ROLE_LABELS: readonly string[] = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

/**
 * Node labels that name a node's pool or node group, in the order they are looked for: the managed node groups of
 * EKS, GKE, AKS and Karpenter, then common conventions.
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

/** The well-known label of a node's instance type: the group of a node that no pool label or role names. */
const INSTANCE_TYPE_LABEL = 'node.kubernetes.io/instance-type';

/** The group of a node that no label names. */
const NO_POOL = '(no pool label)';

/** The pool of one node. */
export interface NodePool {
  /** The label that named the pool (a pool label, a role label or the instance type), when one did. */
  readonly label?: string;
  /** The pool's name as reports show it in a column of pools: the label's value, or the role label. */
  readonly name: string;
  /** The pool's name with its label, as reports show it in a sentence: `label=value`, or the role label. */
  readonly qualified: string;
}

function fromLabel(label: string, value: string): NodePool {
  return { label, name: value, qualified: `${label}=${value}` };
}

function fromRole(label: string): NodePool {
  return { label, name: label, qualified: label };
}

/**
 * The pool of a node with these labels. With `poolLabel` (the `--pool-label` / `--group-by` flag), that label's value,
 * else `(no <label> label)`. Otherwise the first of: a control-plane role (a control-plane node is in the control
 * plane, whatever else it is labelled with), a {@link POOL_LABELS} entry, a label named `pool`, `nodepool`,
 * `node-pool`, `nodegroup`, `node-group` or `agentpool` under any prefix (the first in key order), another node role,
 * the instance type ({@link INSTANCE_TYPE_LABEL}), else {@link NO_POOL}.
 */
export function nodePoolOf(labels: unknown, poolLabel?: string): NodePool {
  const map: Record<string, unknown> = labels !== null && typeof labels === 'object' ? (labels as Record<string, unknown>) : {};
  if (poolLabel !== undefined) {
    const v = map[poolLabel];
    if (typeof v === 'string') return fromLabel(poolLabel, v);
    const none = `(no ${poolLabel} label)`;
    return { name: none, qualified: none };
  }
  for (const key of CONTROL_PLANE_ROLE_LABELS) if (typeof map[key] === 'string') return fromRole(key);
  for (const key of POOL_LABELS) {
    const v = map[key];
    if (typeof v === 'string') return fromLabel(key, v);
  }
  // The first in key order (code units, as a sort orders them) of a prefixed pool name, and of a role.
  let named: string | undefined;
  let role: string | undefined;
  for (const key of Object.keys(map)) {
    if (typeof map[key] !== 'string') continue;
    const slash = key.indexOf('/');
    if (slash !== -1 && (named === undefined || key < named) && POOL_NAMES.has(key.slice(slash + 1))) named = key;
    if (key.startsWith(NODE_ROLE_PREFIX) && (role === undefined || key < role)) role = key;
  }
  if (named !== undefined) return fromLabel(named, map[named] as string);
  if (role !== undefined) return fromRole(role);
  const type = map[INSTANCE_TYPE_LABEL];
  if (typeof type === 'string') return fromLabel(INSTANCE_TYPE_LABEL, type);
  return { name: NO_POOL, qualified: NO_POOL };
}

/** The default pool labels as help texts list them. */
export function poolLabelsHelp(): string {
  return (
    `a control-plane role, else the first of ${POOL_LABELS.join(', ')}, else a <prefix>/pool (or nodepool, nodegroup) label, ` +
    `else the node role, else ${INSTANCE_TYPE_LABEL}`
  );
}
