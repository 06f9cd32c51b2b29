/**
 * The JSON coverage report (`--output json`) and the compact JSON lines report (`--output jsonl`), written as they are
 * formatted: node names are serialized once per node, the rest of a node's entry once per node group and workload.
 */

import { ChunkedOut } from './chunked-out';
import { PICK_ALL, PICK_NONE, pickNodes } from './node-picks';
import { NodeLayout, nodeLayout } from '../coverage/analyze';
import { PoolTax } from '../coverage/pool-tax';
import { formatBytes, formatMilliCpu } from '../coverage/quantity';
import { CoverageReport, CoverageStatus, NodeCoverage, WorkloadCoverage, WorkloadStatus } from '../coverage/types';

// The status as a local constant: the loops over every node compare against it.
const EXCLUDED: string = CoverageStatus.EXCLUDED;

/** A percentage to one decimal, or `null` when there is none. */
function percentJson(percent: number | undefined): number | null {
  return percent === undefined ? null : Math.round(percent * 10) / 10;
}

/** A pool's node tax as the JSON reports show it. */
function poolJson(p: PoolTax): object {
  const t = p.tax;
  return {
    pool: p.pool,
    nodes: p.nodes,
    node: p.node,
    cpu: formatMilliCpu(t.cpu),
    memory: formatBytes(t.memory),
    pods: t.pods,
    allocatable: { cpu: formatMilliCpu(t.allocatableCpu), memory: formatBytes(t.allocatableMemory), pods: t.allocatablePods },
    cpuPercent: percentJson(t.cpuPercent),
    memoryPercent: percentJson(t.memoryPercent),
    overAllocatable: t.overAllocatable,
    overBudget: t.overBudget,
    services: t.services.map((s) => ({
      name: s.name,
      cpu: formatMilliCpu(s.cpu),
      memory: formatBytes(s.memory),
      cpuPercent: percentJson(s.cpuPercent),
      memoryPercent: percentJson(s.memoryPercent),
    })),
  };
}

/**
 * Serializes node entries of the JSON report: `{node, runs, reason, detail, status}`, plus `preempts` where the pod
 * preempts. Node names are serialized once per node; the rest of an entry once per node group and workload (the nodes
 * of a group have alike rows).
 */
class NodeEntryWriter {
  private readonly names: string[];
  private readonly details = new Map<string, string>();
  constructor(names: readonly string[]) {
    this.names = names.map((name) => JSON.stringify(name));
  }
  /** Writes the entries of `rows` (one per node, in node order), each after `open` (`,` between them). */
  public write(out: ChunkedOut, rows: readonly NodeCoverage[], layout: NodeLayout, open: string): void {
    const { groupOf, first } = layout;
    const tails: Array<string | undefined> = new Array(first.length);
    for (let i = 0; i < rows.length; i++) {
      const g = groupOf[i];
      let tail = tails[g];
      if (tail === undefined) tails[g] = tail = this.tail(rows[first[g]]);
      out.write(`${i > 0 ? ',' : ''}${open}${this.names[i]}${tail}`);
    }
  }
  /** An entry after its node name: `,"runs":…}`. */
  private tail(n: NodeCoverage): string {
    let detail = this.details.get(n.detail);
    if (detail === undefined) this.details.set(n.detail, (detail = JSON.stringify(n.detail)));
    const base = `,"runs":${n.runs},"reason":"${n.reason}","detail":${detail},"status":"${n.status}"`;
    return n.preempts !== undefined ? `${base},"preempts":${JSON.stringify(n.preempts)}}` : `${base}}`;
  }
}

/**
 * The JSON report, written as it is formatted: `{nodes, workloads: [{kind, namespace, name, desired, schedulable,
 * nodes: [{node, runs, reason, detail, status}]}]}` (invalid DaemonSets add `status` and `findings`; `pools` is added
 * when given: when the node tax is asked for). In a fleet report the object starts with the cluster's `name` and every
 * line after the first is indented by `indent`. No newline is written after the closing brace.
 */
export function writeJson(
  out: ChunkedOut,
  report: CoverageReport,
  names: readonly string[],
  pools: readonly PoolTax[] | undefined,
  cluster?: { name: string; indent: string },
): void {
  const entries = new NodeEntryWriter(names);
  const layout = nodeLayout(report);
  const nl = `\n${cluster?.indent ?? ''}`;
  out.write(
    `{${cluster !== undefined ? `${nl}  "name": ${JSON.stringify(cluster.name)},` : ''}${nl}  "nodes": ${report.nodes},${nl}  "workloads": [`,
  );
  report.workloads.forEach((w, k) => {
    out.write(
      `${k > 0 ? ',' : ''}${nl}    {"kind":${JSON.stringify(w.kind)},"namespace":${JSON.stringify(w.namespace)},"name":${JSON.stringify(w.name)},`,
    );
    out.write(`"desired":${w.desired},"schedulable":${w.schedulable},"nodes":[`);
    entries.write(out, w.nodes, layout, `${nl}      {"node":`);
    out.write(w.nodes.length > 0 ? `${nl}    ]` : ']');
    if (w.status === WorkloadStatus.INVALID) out.write(`,"status":"invalid","findings":${JSON.stringify(w.findings ?? [])}`);
    out.write('}');
  });
  out.write(report.workloads.length > 0 ? `${nl}  ]` : ']');
  if (pools !== undefined) out.write(`,${nl}  "pools": ${JSON.stringify(pools.map(poolJson))}`);
  out.write(`${nl}}`);
}

/** One analysed DaemonSet's lines counted per node group: counts by status, excluded classes, and the groups listed. */
interface WorkloadLines {
  readonly counts: Record<string, number>;
  readonly excluded: Map<string, { reason: string; detail: string; nodes: number }>;
  /** Per group, the end of its node lines (from `status` on), or undefined when its nodes get none. */
  readonly tails: Array<string | undefined>;
  readonly listed: boolean;
}

/** Counts a DaemonSet's nodes per node group (groups are in the order of their first node, so excluded entries come in node order). */
function workloadLines(w: WorkloadCoverage, layout: NodeLayout): WorkloadLines {
  const { first, size } = layout;
  const counts: Record<string, number> = { running: 0, excluded: 0, pending: 0, notRunning: 0 };
  const excluded = new Map<string, { reason: string; detail: string; nodes: number }>();
  const tails: Array<string | undefined> = new Array(first.length);
  let listed = false;
  for (let g = 0; g < first.length; g++) {
    const n = w.nodes[first[g]];
    counts[n.status] += size[g];
    if (n.status === EXCLUDED) {
      const key = `${n.reason}\u0000${n.detail}`;
      const e = excluded.get(key);
      if (e) e.nodes += size[g];
      else excluded.set(key, { reason: n.reason, detail: n.detail, nodes: size[g] });
    } else if (!n.runs || n.preempts !== undefined) {
      const tail = { status: n.status, reason: n.reason, detail: n.detail, ...(n.preempts ? { preempts: n.preempts } : {}) };
      tails[g] = `,${JSON.stringify(tail).slice(1)}\n`;
      listed = true;
    }
  }
  return { counts, excluded, tails, listed };
}

/**
 * The compact report, one JSON object per line; it grows with the nodes where a pod is wanted but does not run, not
 * with nodes × DaemonSets: `{"type":"summary"}`, per DaemonSet `{"type":"workload"}` with its counts by status,
 * `{"type":"excluded"}` per distinct (reason, detail) with a node count, `{"type":"node"}` per node where the pod is
 * pending, not running or preempts, and `{"type":"pool"}` per node pool. In a fleet report every line starts with
 * `"cluster"`.
 */
export function writeJsonLines(out: ChunkedOut, report: CoverageReport, pools: readonly PoolTax[], cluster?: string): void {
  const line = (o: object) => out.write(`${JSON.stringify(cluster === undefined ? o : { cluster, ...o })}\n`);
  line({ type: 'summary', nodes: report.nodes, workloads: report.workloads.length });
  const layout = nodeLayout(report);
  const { groupOf } = layout;
  for (const w of report.workloads) {
    const id = { namespace: w.namespace, name: w.name };
    if (w.status === WorkloadStatus.INVALID) {
      line({ type: 'workload', kind: w.kind, ...id, status: 'invalid', findings: w.findings ?? [] });
      continue;
    }
    const { counts, excluded, tails, listed } = workloadLines(w, layout);
    line({ type: 'workload', kind: w.kind, ...id, status: 'analyzed', desired: w.desired, schedulable: w.schedulable, ...counts });
    for (const e of excluded.values()) line({ type: 'excluded', ...id, ...e });
    if (!listed) continue;
    // `{…"type":"node","namespace":…,"name":…` + `,"node":…` + the group's tail: JSON.stringify of the same object.
    const head = JSON.stringify(cluster === undefined ? { type: 'node', ...id } : { cluster, type: 'node', ...id }).slice(0, -1);
    const listedNodes = pickNodes(layout, (g) => (tails[g] !== undefined ? PICK_ALL : PICK_NONE));
    for (let k = 0; k < listedNodes.length; k++) {
      const i = listedNodes[k];
      out.write(`${head},"node":${JSON.stringify(w.nodes[i].node)}${tails[groupOf[i]]}`);
    }
  }
  for (const p of pools) line({ type: 'pool', ...poolJson(p) });
}
