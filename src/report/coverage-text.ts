/**
 * The text coverage report (`node-services coverage`, the default output): per DaemonSet (or group of DaemonSets that
 * share one service's nodes) a header and a table of the nodes that lack its pod, then the node tax per pool.
 * Written as it is formatted, in chunks: the tables grow with the nodes that lack a pod, not with all nodes.
 */

import { ChunkedOut } from './chunked-out';
import { PICK_ALL, PICK_FIRST, PICK_NONE, pickNodes } from './node-picks';
import { COLOURS, painter, writeNodeTable, writeRows, writeTable } from './text-table';
import { NodeLayout, nodeLayout } from '../coverage/analyze';
import { workloadGroups } from '../coverage/groups';
import { TaxBudget, formatPercent } from '../coverage/node-tax';
import { PoolTax } from '../coverage/pool-tax';
import { formatBytes, formatMilliCpu } from '../coverage/quantity';
import { CoverageReport, CoverageStatus, NodeCoverage, WorkloadCoverage, WorkloadStatus } from '../coverage/types';

// The status as a local constant: the loops over every node compare against it.
const EXCLUDED: string = CoverageStatus.EXCLUDED;

/** What the statuses of the text report mean (once per report). */
export const LEGEND =
  '"excluded": the DaemonSet controller creates no pod there; "pending": a pod is created but cannot be scheduled; ' +
  '"notRunning": the pod is bound but the kubelet does not run it; "running" with "preemption": the scheduler evicts ' +
  'lower-priority pods to place it (PodDisruptionBudgets do not stop that).';

/** A node row of the text table, with its DaemonSet's name first when the table covers a group. */
function textRow(n: NodeCoverage, member?: string): string[] {
  const detail = n.preempts !== undefined && n.runs ? `after preempting ${n.preempts.join(', ')}` : n.detail;
  const row = [n.node, n.status, n.preempts !== undefined && n.runs ? 'preemption' : n.reason, detail];
  return member !== undefined ? [member, ...row] : row;
}

/** Groups of more excluded nodes than this that share their reason and detail are printed as one row. */
const COLLAPSE_ABOVE = 10;

/** Alike excluded rows: how many, and whether their row was printed. */
interface ExcludedClass {
  count: number;
  printed: boolean;
}

/**
 * Counts excluded rows by (member, reason, detail), to fold large groups of alike excluded nodes into one row: pending
 * and not-running nodes are always listed one by one, so a table grows with them, not with the excluded nodes.
 * (Rows with the same words share their detail string, so the lookups hash each text once.)
 */
class ExcludedGroups {
  /** Per member, per detail text, per reason: the count of alike excluded rows and whether their row was printed. */
  private readonly byMember: Array<Map<string, Map<string, ExcludedClass>>> = [];
  // The last entry looked up: alike rows come in runs (nodes of one group share their row's strings), so most
  // lookups are two string identity checks.
  private lastMember = -1;
  private lastReason = '';
  private lastDetail = '';
  private lastEntry: ExcludedClass | undefined;

  private entry(member: number, n: NodeCoverage): ExcludedClass {
    if (this.lastEntry !== undefined && member === this.lastMember && n.detail === this.lastDetail && n.reason === this.lastReason)
      return this.lastEntry;
    let byDetail = this.byMember[member];
    if (byDetail === undefined) this.byMember[member] = byDetail = new Map();
    let byReason = byDetail.get(n.detail);
    if (byReason === undefined) byDetail.set(n.detail, (byReason = new Map()));
    let entry = byReason.get(n.reason);
    if (entry === undefined) byReason.set(n.reason, (entry = { count: 0, printed: false }));
    this.lastMember = member;
    this.lastReason = n.reason;
    this.lastDetail = n.detail;
    this.lastEntry = entry;
    return entry;
  }

  /** Counts `count` alike excluded rows of `member`; returns their class. */
  public add(member: number, n: NodeCoverage, count = 1): ExcludedClass {
    const entry = this.entry(member, n);
    entry.count += count;
    return entry;
  }

  /** The row of `n`, folded when its group is large; `undefined` when its group's row was printed already. */
  public row(member: number, n: NodeCoverage, row: () => string[], nodeColumn: number): string[] | undefined {
    if (n.status !== EXCLUDED) return row();
    const entry = this.entry(member, n);
    if (entry.count <= COLLAPSE_ABOVE) return row();
    if (entry.printed) return undefined;
    entry.printed = true;
    const folded = row();
    folded[nodeColumn] = `${folded[nodeColumn]} (+${entry.count - 1} more)`;
    return folded;
  }
}

/** What a node group's nodes get in a DaemonSet's table: no row (the pod runs), a row each, or excluded rows (folded when many). */
const NO_ROW = 0;
const ROW = 1;
const EXCLUDED_ROW = 2;

/** Per node group of one DaemonSet: which row its nodes get, and the excluded class of an excluded group. */
interface GroupRows {
  readonly kind: Uint8Array;
  readonly classOf: Array<ExcludedClass | undefined>;
  /** The first group of each excluded class: a folded class's row is at that group's first node. */
  readonly firstGroupOf: Map<ExcludedClass, number>;
  /** Whether any node gets a row. */
  readonly listed: boolean;
}

/** Decides the rows of a DaemonSet's table once per node group (the nodes of a group have alike rows). */
function groupRows(w: WorkloadCoverage, layout: NodeLayout): GroupRows {
  const { first, size } = layout;
  const kind = new Uint8Array(first.length);
  const classOf: Array<ExcludedClass | undefined> = new Array(first.length);
  const firstGroupOf = new Map<ExcludedClass, number>();
  const excluded = new ExcludedGroups();
  let listed = false;
  for (let g = 0; g < first.length; g++) {
    const n = w.nodes[first[g]];
    if (n.runs) {
      if (n.preempts !== undefined) kind[g] = ROW;
      else continue;
    } else if (n.status === EXCLUDED) {
      kind[g] = EXCLUDED_ROW;
      const c = excluded.add(0, n, size[g]);
      classOf[g] = c;
      if (!firstGroupOf.has(c)) firstGroupOf.set(c, g);
    } else kind[g] = ROW;
    listed = true;
  }
  return { kind, classOf, firstGroupOf, listed };
}

/**
 * Text for one DaemonSet: a header and a table of the nodes without its pod (and those where it preempts). The rows
 * are decided once per node group (`layout`: the nodes of a group have alike rows), then written in node order.
 */
function workloadText(out: ChunkedOut, w: WorkloadCoverage, total: number, layout: NodeLayout, tty: boolean): void {
  const paint = painter(tty);
  if (w.status === WorkloadStatus.INVALID) {
    out.write(`${paint(COLOURS.bold, `DaemonSet ${w.namespace}/${w.name}: invalid, not analysed (the API server rejects it)`)}\n`);
    for (const f of w.findings ?? []) out.write(`  ${paint(COLOURS.red, 'invalid')}  ${f}\n`);
    return;
  }
  out.write(
    `${paint(COLOURS.bold, `DaemonSet ${w.namespace}/${w.name}: desired ${w.desired}, schedulable ${w.schedulable}, nodes ${total}`)}\n`,
  );
  const { groupOf, first } = layout;
  const nodes = w.nodes;
  const { kind, classOf, firstGroupOf, listed } = groupRows(w, layout);
  if (!listed) {
    out.write(`  ${paint(COLOURS.green, 'runs on every node')}\n`);
    return;
  }
  // The nodes that get a row, in node order: every node of a listed group, and of a folded class only its first node.
  const rowNodes = pickNodes(layout, (g) => {
    if (kind[g] === NO_ROW) return PICK_NONE;
    const c = classOf[g];
    if (c === undefined || c.count <= COLLAPSE_ABOVE) return PICK_ALL;
    return firstGroupOf.get(c) === g ? PICK_FIRST : PICK_NONE;
  });
  const cells: string[] = new Array(rowNodes.length);
  const rowGroups: number[] = new Array(rowNodes.length);
  for (let k = 0; k < rowNodes.length; k++) {
    const i = rowNodes[k];
    const g = groupOf[i];
    const c = classOf[g];
    cells[k] = c !== undefined && c.count > COLLAPSE_ABOVE ? `${nodes[i].node} (+${c.count - 1} more)` : nodes[i].node;
    rowGroups[k] = g;
  }
  writeNodeTable(out, ['NODE', 'STATUS', 'REASON', 'DETAIL'], cells, rowGroups, (g) => textRow(nodes[first[g]]).slice(1), tty);
}

/** Per node of a group: which member's row is shown (-1: none, -2: an overlap), with the group's counts. */
interface GroupNodes {
  readonly shown: Int32Array;
  readonly desired: number;
  readonly schedulable: number;
  readonly excluded: ExcludedGroups;
}

/** Decides, node by node, whose row a group's table shows: the member that is wanted but misses, or an overlap. */
function groupNodes(members: readonly WorkloadCoverage[], total: number): GroupNodes {
  let desired = 0;
  let schedulable = 0;
  const shown = new Int32Array(total);
  const excluded = new ExcludedGroups();
  for (let i = 0; i < total; i++) {
    let running = 0;
    let wanted = -1;
    for (let m = 0; m < members.length; m++) {
      const n = members[m].nodes[i];
      if (n.runs) running++;
      if (wanted === -1 && n.status !== CoverageStatus.EXCLUDED) wanted = m;
    }
    if (wanted !== -1) desired++;
    if (running > 0) schedulable++;
    if (running > 1) shown[i] = -2;
    else if (running === 0) shown[i] = wanted === -1 ? 0 : wanted;
    else shown[i] = wanted !== -1 && members[wanted].nodes[i].preempts !== undefined ? wanted : -1;
    if (shown[i] >= 0 && members[shown[i]].nodes[i].status === CoverageStatus.EXCLUDED) excluded.add(shown[i], members[shown[i]].nodes[i]);
  }
  return { shown, desired, schedulable, excluded };
}

/**
 * Text for a group of DaemonSets that share one service's nodes (a canary pair, or variants with the same
 * `app.kubernetes.io/name` in one namespace): one header with the combined counts, and only the nodes where no member
 * runs (with the member whose verdict is shown) or more than one runs.
 */
function groupText(out: ChunkedOut, members: readonly WorkloadCoverage[], kind: string, total: number, tty: boolean): void {
  const paint = painter(tty);
  const names = members.map((m) => `${m.namespace}/${m.name}`);
  const { shown, desired, schedulable, excluded } = groupNodes(members, total);
  const rows: string[][] = [['DAEMONSET', 'NODE', 'STATUS', 'REASON', 'DETAIL']];
  for (let i = 0; i < total; i++) {
    const m = shown[i];
    if (m === -1) continue;
    if (m === -2) {
      rows.push([
        members.map((w) => w.name).join('+'),
        members[0].nodes[i].node,
        'overlap',
        'runs',
        `more than one pod of the ${kind} runs here`,
      ]);
      continue;
    }
    const n = members[m].nodes[i];
    const row = excluded.row(m, n, () => textRow(n, members[m].name), 1);
    if (row !== undefined) rows.push(row);
  }
  const counts = members.map((m) => `${m.name} ${m.schedulable}`).join(', ');
  out.write(
    `${paint(COLOURS.bold, `DaemonSet ${names.join(' + ')} (${kind}): desired ${desired}, schedulable ${schedulable}, nodes ${total}`)} (runs: ${counts})\n`,
  );
  if (rows.length === 1) {
    out.write(`  ${paint(COLOURS.green, 'runs on every node, once')}\n`);
    return;
  }
  writeRows(out, rows, tty);
}

/** A pool's row of the node-tax table. */
function poolRow(p: PoolTax): string[] {
  const t = p.tax;
  const status = t.overAllocatable.length > 0 ? 'over allocatable' : t.overBudget.length > 0 ? 'over budget' : 'fits';
  const largest = t.services
    .slice(0, 3)
    .map((s) => `${s.name} ${formatPercent(Math.max(s.cpuPercent ?? 0, s.memoryPercent ?? 0))}`)
    .join(', ');
  return [
    p.pool,
    String(p.nodes),
    `${formatMilliCpu(t.cpu)} of ${formatMilliCpu(t.allocatableCpu)} (${formatPercent(t.cpuPercent)})`,
    `${formatBytes(t.memory)} of ${formatBytes(t.allocatableMemory)} (${formatPercent(t.memoryPercent)})`,
    `${t.pods}`,
    status,
    largest + (t.services.length > 3 ? ', …' : ''),
  ];
}

function poolsText(
  out: ChunkedOut,
  pools: readonly PoolTax[],
  labels: readonly string[],
  budget: TaxBudget | undefined,
  tty: boolean,
): void {
  const paint = painter(tty);
  const budgetText = budget
    ? `; budget ${[budget.cpuPercent !== undefined ? `cpu ${budget.cpuPercent}%` : '', budget.memoryPercent !== undefined ? `memory ${budget.memoryPercent}%` : ''].filter(Boolean).join(', ')}`
    : '';
  out.write(
    `${paint(COLOURS.bold, `Node tax per pool (${labels.length > 0 ? labels.join(', ') : 'no pool label'}): what the node services landing on the pool's fullest node request${budgetText}`)}\n`,
  );
  const rows: string[][] = [['POOL', 'NODES', 'CPU', 'MEMORY', 'PODS', 'STATUS', 'LARGEST'], ...pools.map(poolRow)];
  writeTable(out, rows, (row, column, text) => {
    if (row === 0) return paint(COLOURS.dim, text);
    if (column === 5) return paint(rows[row][5] === 'fits' ? COLOURS.green : COLOURS.red, text);
    return text;
  });
}

/**
 * The text report: per DaemonSet (or group) a header and a table of the nodes that lack its pod, then the node tax
 * (when there are pools and an analysed DaemonSet), then a summary line (with the {@link LEGEND} when `legend`).
 */
export function writeText(
  out: ChunkedOut,
  report: CoverageReport,
  manifests: readonly any[],
  pools: readonly PoolTax[],
  poolLabels: readonly string[],
  budget: TaxBudget | undefined,
  tty: boolean,
  legend = true,
): void {
  const layout = nodeLayout(report);
  for (const g of workloadGroups(report, manifests)) {
    if (g.members.length === 1) workloadText(out, g.members[0], report.nodes, layout, tty);
    else groupText(out, g.members, g.kind, report.nodes, tty);
    out.write('\n');
  }
  if (pools.length > 0 && report.workloads.some((w) => w.status !== WorkloadStatus.INVALID)) {
    poolsText(out, pools, poolLabels, budget, tty);
    out.write('\n');
  }
  const count = report.workloads.length;
  out.write(
    `${count} DaemonSet${count === 1 ? '' : 's'} over ${report.nodes} node${report.nodes === 1 ? '' : 's'}` +
      (report.skipped > 0 ? `; ${report.skipped} other object${report.skipped === 1 ? '' : 's'} skipped` : '') +
      (legend ? `. ${LEGEND}\n` : '.\n'),
  );
}
