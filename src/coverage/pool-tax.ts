/**
 * The node tax per node pool of a coverage report: what the node services that land on a pool's fullest node request
 * there, against its allocatable and an optional budget; and the verdicts the CLI's gates read from a report.
 */

import { NodeLayout, analysedRequests, nodeLayout } from './analyze';
import { compileWorkload } from './compile';
import { daemonSetsByName } from './daemon-sets';
import { NodeTax, TaxBudget, nodeTax } from './node-tax';
import { ResourceVector, allocatable } from './resources';
import { CoverageReport, CoverageStatus, WorkloadCoverage, WorkloadStatus } from './types';
import { nodePoolOf } from '../k8s/node-pools';

/** The node tax of one pool, on its fullest node. */
export interface PoolTax {
  /** The pool's name (the value of the pool label). */
  readonly pool: string;
  /** How many nodes the pool has. */
  readonly nodes: number;
  /** The pool's node with the largest tax (largest share of CPU or memory). */
  readonly node: string;
  /** The node tax of that node. */
  readonly tax: NodeTax;
}

/** The node tax of every pool, the label keys the pools were read from, and the pool of each node (by node index). */
export interface PoolTaxes {
  readonly pools: PoolTax[];
  readonly labels: string[];
  readonly poolOf: string[];
}

// The status as a local constant: the loops over every node compare against it.
const EXCLUDED: string = CoverageStatus.EXCLUDED;

type Allocatable = { vector: ResourceVector; pods: number };

/** A pool while its nodes are read: its node count, and its node with the largest share so far. */
interface PoolEntry {
  nodes: number;
  worst: number;
  share: number;
}

/**
 * The node tax of each pool (`poolLabel`, or the default pool labels): the services that land on each node (not
 * excluded), on the pool's fullest node, sorted by pool name.
 */
export function poolTaxes(
  report: CoverageReport,
  manifests: readonly any[],
  nodes: readonly any[],
  poolLabel: string | undefined,
  budget: TaxBudget | undefined,
  minor: number | undefined,
): PoolTaxes {
  const analysed = report.workloads.filter((w) => w.status !== WorkloadStatus.INVALID);
  const objects = daemonSetsByName(manifests);
  const runtimeClasses = manifests.filter((m) => m?.kind === 'RuntimeClass');
  // The analysis compiled these DaemonSets already (from the same manifests): its requests serve when it kept them.
  const requests =
    analysedRequests(report, manifests, minor) ??
    analysed.map((w) => compileWorkload(objects.get(`${w.namespace}/${w.name}`), { kubernetesMinor: minor, runtimeClasses }).requests);
  const layout = nodeLayout(report);
  const { cpu, memory } = groupRequests(analysed, requests, layout);
  const allocatables = new Map<string, Allocatable>();
  const usedLabels = new Set<string>();
  const pools = new Map<string, PoolEntry>();
  const poolOf: string[] = new Array(nodes.length);
  // The nodes of one group have the same allocatable entries (they are part of what groups them), so the share of the
  // group's services is worked out once per group, from its first node.
  const shares = new Float64Array(layout.first.length).fill(-1);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const resolved = nodePoolOf(node?.metadata?.labels, poolLabel);
    if (resolved.label !== undefined) usedLabels.add(resolved.label);
    poolOf[i] = resolved.name;
    const g = layout.groupOf[i];
    let share = shares[g];
    if (share < 0) {
      const alloc = nodeAllocatable(node, allocatables);
      share = shares[g] = Math.max(
        alloc.vector.cpu > 0 ? cpu[g] / alloc.vector.cpu : 0,
        alloc.vector.memory > 0 ? memory[g] / alloc.vector.memory : 0,
      );
    }
    notePool(pools, resolved.name, i, share);
  }
  const out: PoolTax[] = [];
  for (const [pool, entry] of pools) {
    const i = entry.worst;
    const services = analysed.flatMap((w, k) =>
      w.nodes[i].status === EXCLUDED ? [] : [{ name: `${w.namespace}/${w.name}`, cpu: requests[k].cpu, memory: requests[k].memory }],
    );
    const alloc = nodeAllocatable(nodes[i], allocatables);
    out.push({
      pool,
      nodes: entry.nodes,
      node: String(nodes[i]?.metadata?.name),
      tax: nodeTax(services, alloc.vector, alloc.pods, budget),
    });
  }
  out.sort((a, b) => (a.pool < b.pool ? -1 : a.pool > b.pool ? 1 : 0));
  return { pools: out, labels: [...usedLabels], poolOf };
}

/** What lands on each node group (the nodes of a group have alike rows), summed in workload order. */
function groupRequests(
  analysed: readonly WorkloadCoverage[],
  requests: readonly ResourceVector[],
  layout: NodeLayout,
): { cpu: Float64Array; memory: Float64Array } {
  const { first } = layout;
  const cpu = new Float64Array(first.length);
  const memory = new Float64Array(first.length);
  analysed.forEach((w, k) => {
    const r = requests[k];
    const rows = w.nodes;
    for (let g = 0; g < first.length; g++) {
      if (rows[first[g]].status === EXCLUDED) continue;
      cpu[g] += r.cpu;
      memory[g] += r.memory;
    }
  });
  return { cpu, memory };
}

/** Counts node `i` in its pool, and keeps it as the pool's fullest node when its share is the largest so far. */
function notePool(pools: Map<string, PoolEntry>, pool: string, i: number, share: number): void {
  const entry = pools.get(pool);
  if (entry === undefined) {
    pools.set(pool, { nodes: 1, worst: i, share });
    return;
  }
  entry.nodes++;
  if (share > entry.share) {
    entry.share = share;
    entry.worst = i;
  }
}

/** A node's allocatable, parsed once per distinct (cpu, memory, pods). */
function nodeAllocatable(node: any, memo: Map<string, Allocatable>): Allocatable {
  const raw = node?.status?.allocatable;
  const list = raw != null && typeof raw === 'object' ? raw : {};
  const key = `${list.cpu}|${list.memory}|${list.pods}`;
  let parsed = memo.get(key);
  if (parsed === undefined)
    memo.set(
      key,
      (parsed = allocatable({ cpu: list.cpu ?? '0', memory: list.memory ?? '0', pods: list.pods ?? '0' }, 'status.allocatable', [])),
    );
  return parsed;
}

/** Whether a report misses wanted nodes (or has an invalid DaemonSet), and whether a pool is over its allocatable or budget. */
export function coverageVerdicts(report: CoverageReport, pools: readonly PoolTax[]): { missing: boolean; overBudget: boolean } {
  return {
    missing: report.workloads.some((w) => w.status === WorkloadStatus.INVALID || w.schedulable < w.desired),
    overBudget: pools.some((p) => p.tax.overAllocatable.length > 0 || p.tax.overBudget.length > 0),
  };
}
