/**
 * `node-services coverage`: which nodes get each DaemonSet's pod, for every node that does not why, and what the node
 * services together cost each node pool (the node tax).
 *
 * Built for fleets: the nodes and pods inputs are streamed (`manifests/node-stream.ts`) and only the fields the
 * analysis reads are kept of each object; the report is written in chunks as it is formatted, never as one string.
 */

import * as path from 'path';
import { Command, Option } from 'commander';
import { refusalsHelp } from './refusals';
import '../policy/api-validity';
import { CliIo, InputError, progressOf, readClusterManifests, readList, ExitCode } from './io';
import { kindsOf, nothingToCheck } from '../manifests/contract';
import { slimNode, slimPod } from '../manifests/slim';
import { NodeLayout, analyzeCoverage, nodeLayout } from '../coverage/analyze';
import { compileWorkload } from '../coverage/compile';
import { NodeTax, TaxBudget, formatPercent, nodeTax } from '../coverage/node-tax';
import { formatBytes, formatMilliCpu } from '../coverage/quantity';
import { ResourceVector, allocatable } from '../coverage/resources';
import { CoverageReport, CoverageStatus, NodeCoverage, WorkloadCoverage, WorkloadStatus } from '../coverage/types';
import { CLUSTER_VERSION_FILE, clusterVersion } from '../manifests/cluster-version';
import { KUBERNETES_VERSION_RANGE, parseKubernetesVersion } from '../k8s/api-fields/versions';
import { nodePoolOf, poolLabelsHelp } from '../k8s/node-pools';
import { CANARY_OF_ANNOTATION, SERVICE_LABEL } from '../k8s/vocabulary';
import { CoverageHtmlInput, writeCoverageHtmlClustersPage, writeCoverageHtmlPage } from '../report/coverage-html';
import { clusterFiles, clusterFolders, throwProblems } from './clusters';

interface CoverageFlags {
  readonly nodes: string;
  readonly pods?: string;
  readonly output: 'text' | 'json' | 'jsonl' | 'html';
  readonly failOnMissing?: boolean;
  readonly kubernetesVersion?: string;
  readonly poolLabel?: string;
  readonly budget?: string;
  readonly failOnBudget?: boolean;
  readonly clusters?: string;
}

async function readManifests(inputs: readonly string[], io: CliIo): Promise<any[]> {
  const objects = await readClusterManifests(inputs, io, {
    nodesFlag: '--nodes',
    refuseWrongTypes: true,
    clustersCommand: (root) => `coverage --clusters ${root} --nodes <folder with one nodes file per cluster>`,
  });
  return objects.map((o) => o.object);
}

/** The minor of `--kubernetes-version` (the one version grammar of `k8s/`), or undefined when not given. */
function kubernetesMinor(version: string | undefined): number | undefined {
  if (version === undefined) return undefined;
  const parsed = parseKubernetesVersion(version);
  if (parsed.error !== undefined) throw new InputError(`--kubernetes-version ${JSON.stringify(version)} ${parsed.error}`);
  return parsed.minor;
}

/** `cpu=8%,memory=10%` → a budget. */
function parseBudget(text: string | undefined): TaxBudget | undefined {
  if (text === undefined) return undefined;
  const budget: { cpuPercent?: number; memoryPercent?: number } = {};
  for (const part of text.split(',')) {
    const m = /^\s*(cpu|memory)\s*=\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(part);
    const value = m ? Number(m[2]) : NaN;
    if (!m || !(value > 0 && value <= 100)) {
      throw new InputError(
        `--budget ${JSON.stringify(text)}: ${JSON.stringify(part)} is not cpu=<percent> or memory=<percent> (0 < percent <= 100), e.g. --budget cpu=8%,memory=10%`,
      );
    }
    if (m[1] === 'cpu') budget.cpuPercent = value;
    else budget.memoryPercent = value;
  }
  return budget;
}

/** Collects output and hands it to `io.out` in chunks of about 1 MiB, so that no report is ever one string. */
class ChunkedOut {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly io: CliIo) {}
  public write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= 1 << 20) this.flush();
  }
  public flush(): void {
    if (this.parts.length === 0) return;
    this.io.out(this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
}

// The statuses as local constants: the loops over every node compare against them.
const EXCLUDED: string = CoverageStatus.EXCLUDED;
const RUNNING: string = CoverageStatus.RUNNING;

const COLOURS = { bold: '\u001b[1m', red: '\u001b[31m', yellow: '\u001b[33m', green: '\u001b[32m', dim: '\u001b[2m', reset: '\u001b[0m' };

/** Writes rows as an aligned table (two spaces between columns, the last column unpadded), each line indented. */
function writeTable(
  out: ChunkedOut,
  rows: readonly (readonly string[])[],
  colour: (row: number, column: number, text: string) => string,
  indent = '  ',
): void {
  const widths: number[] = rows[0].map(() => 0);
  for (const r of rows) for (let c = 0; c < r.length; c++) if (r[c].length > widths[c]) widths[c] = r[c].length;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    let line = '';
    for (let c = 0; c < r.length; c++) line += (c > 0 ? '  ' : '') + colour(i, c, c === r.length - 1 ? r[c] : r[c].padEnd(widths[c]));
    out.write(`${indent}${line.trimEnd()}\n`);
  }
}

function paintStatus(status: string): string {
  return status === RUNNING ? COLOURS.green : status === EXCLUDED ? COLOURS.yellow : COLOURS.red;
}

/** A node row of the text table, with its DaemonSet's name first when the table covers a group. */
function textRow(n: NodeCoverage, member?: string): string[] {
  const detail = n.preempts !== undefined && n.runs ? `after preempting ${n.preempts.join(', ')}` : n.detail;
  const row = [n.node, n.status, n.preempts !== undefined && n.runs ? 'preemption' : n.reason, detail];
  return member !== undefined ? [member, ...row] : row;
}

function writeRows(out: ChunkedOut, rows: string[][], tty: boolean): void {
  const paint = (code: string, text: string) => (tty ? `${code}${text}${COLOURS.reset}` : text);
  const statusColumn = rows[0].indexOf('STATUS');
  writeTable(out, rows, (row, column, text) => {
    if (row === 0) return paint(COLOURS.dim, text);
    if (column === statusColumn) return paint(paintStatus(rows[row][column]), text);
    return text;
  });
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

/**
 * Text for one DaemonSet: a header and a table of the nodes without its pod (and those where it preempts). The rows
 * are decided once per node group (`layout`: the nodes of a group have alike rows), then written in node order.
 */
function workloadText(out: ChunkedOut, w: WorkloadCoverage, total: number, layout: NodeLayout, tty: boolean): void {
  const paint = (code: string, text: string) => (tty ? `${code}${text}${COLOURS.reset}` : text);
  if (w.status === WorkloadStatus.INVALID) {
    out.write(`${paint(COLOURS.bold, `DaemonSet ${w.namespace}/${w.name}: invalid, not analysed (the API server rejects it)`)}\n`);
    for (const f of w.findings ?? []) out.write(`  ${paint(COLOURS.red, 'invalid')}  ${f}\n`);
    return;
  }
  out.write(
    `${paint(COLOURS.bold, `DaemonSet ${w.namespace}/${w.name}: desired ${w.desired}, schedulable ${w.schedulable}, nodes ${total}`)}\n`,
  );
  const { groupOf, first, size } = layout;
  const nodes = w.nodes;
  const kind = new Uint8Array(first.length);
  const classOf: Array<ExcludedClass | undefined> = new Array(first.length);
  // The first group of each excluded class: a folded class's row is at that group's first node.
  const firstGroupOf = new Map<ExcludedClass, number>();
  const excluded = new ExcludedGroups();
  let listed = false;
  for (let g = 0; g < first.length; g++) {
    const n = nodes[first[g]];
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

const PICK_NONE = 0;
const PICK_ALL = 1;
const PICK_FIRST = 2;

/**
 * The nodes of the groups `pick` chooses (every node of a group, only its first, or none), in node order. Costs the
 * number of groups plus the nodes picked (sorted), not the number of nodes.
 */
function pickNodes(layout: NodeLayout, pick: (group: number) => number): Int32Array {
  const { first, size, members, start } = layout;
  const picks = new Uint8Array(first.length);
  let count = 0;
  for (let g = 0; g < first.length; g++) {
    picks[g] = pick(g);
    count += picks[g] === PICK_ALL ? size[g] : picks[g] === PICK_FIRST ? 1 : 0;
  }
  const out = new Int32Array(count);
  let at = 0;
  for (let g = 0; g < first.length; g++) {
    if (picks[g] === PICK_ALL) {
      out.set(members.subarray(start[g], start[g + 1]), at);
      at += size[g];
    } else if (picks[g] === PICK_FIRST) out[at++] = first[g];
  }
  return out.sort();
}

/**
 * Writes a table like {@link writeRows} whose rows are a node cell followed by the cells of a node group's row
 * (`rest(group)`, the same for every node of the group; the status column is the first of them): each group's cells
 * are padded, painted and joined once.
 */
function writeNodeTable(
  out: ChunkedOut,
  header: readonly string[],
  cells: readonly string[],
  rowGroups: readonly number[],
  rest: (group: number) => string[],
  tty: boolean,
): void {
  const paint = (code: string, text: string) => (tty ? `${code}${text}${COLOURS.reset}` : text);
  const restOf = new Map<number, string[]>();
  const widths = header.map((h) => h.length);
  for (let k = 0; k < cells.length; k++) {
    if (cells[k].length > widths[0]) widths[0] = cells[k].length;
    const g = rowGroups[k];
    if (restOf.has(g)) continue;
    const r = rest(g);
    restOf.set(g, r);
    for (let c = 0; c < r.length; c++) if (r[c].length > widths[c + 1]) widths[c + 1] = r[c].length;
  }
  const last = header.length - 1;
  const pad = (text: string, c: number) => (c === last ? text : text.padEnd(widths[c]));
  out.write(`  ${header.map((h, c) => paint(COLOURS.dim, pad(h, c))).join('  ')}`.trimEnd() + '\n');
  // Each group's cells after the node cell, painted, padded and joined (the line's end is always in them, so trimming
  // them trims the line).
  const suffixes = new Map<number, string>();
  for (const [g, r] of restOf) {
    let suffix = '';
    for (let c = 0; c < r.length; c++) suffix += `  ${c === 0 ? paint(paintStatus(r[c]), pad(r[c], c + 1)) : pad(r[c], c + 1)}`;
    suffixes.set(g, suffix.trimEnd());
  }
  for (let k = 0; k < cells.length; k++) out.write(`  ${cells[k].padEnd(widths[0])}${suffixes.get(rowGroups[k])}\n`);
}

/**
 * Text for a group of DaemonSets that share one service's nodes (a canary pair, or variants with the same
 * `app.kubernetes.io/name` in one namespace): one header with the combined counts, and only the nodes where no member
 * runs (with the member whose verdict is shown) or more than one runs.
 */
function groupText(out: ChunkedOut, members: readonly WorkloadCoverage[], kind: string, total: number, tty: boolean): void {
  const paint = (code: string, text: string) => (tty ? `${code}${text}${COLOURS.reset}` : text);
  const names = members.map((m) => `${m.namespace}/${m.name}`);
  let desired = 0;
  let schedulable = 0;
  // Per node: which member's row is shown (-1: none), or -2 for an overlap.
  const shown = new Int32Array(total);
  const groups = new ExcludedGroups();
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
    if (shown[i] >= 0 && members[shown[i]].nodes[i].status === CoverageStatus.EXCLUDED) groups.add(shown[i], members[shown[i]].nodes[i]);
  }
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
    const row = groups.row(m, n, () => textRow(n, members[m].name), 1);
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

/**
 * Groups the analysed workloads for the text report: the DaemonSets of one node service (its
 * `node-services.cdk8s.io/service` label: stable, canary, variants), a canary DaemonSet
 * (`node-services.cdk8s.io/canary-of`) with the one it splits, and DaemonSets of one namespace whose pod templates carry the same `app.kubernetes.io/name` (variants
 * of one service, e.g. per OS). Each group is listed at its first member.
 */
function workloadGroups(report: CoverageReport, manifests: readonly any[]): Array<{ members: WorkloadCoverage[]; kind: string }> {
  const objects = new Map<string, any>();
  for (const m of manifests) if (m?.kind === 'DaemonSet') objects.set(`${m.metadata?.namespace || 'default'}/${m.metadata?.name}`, m);
  const groupKey = (w: WorkloadCoverage): string | undefined => {
    if (w.status === WorkloadStatus.INVALID) return undefined;
    const o = objects.get(`${w.namespace}/${w.name}`);
    // Every DaemonSet of one node service (stable, canary, variants and their canaries) carries its service label.
    const service = o?.spec?.template?.metadata?.labels?.[SERVICE_LABEL];
    if (typeof service === 'string') return `service ${w.namespace}/${service}`;
    const canaryOf = o?.metadata?.annotations?.[CANARY_OF_ANNOTATION];
    if (typeof canaryOf === 'string') return `canary ${w.namespace}/${canaryOf}`;
    const app = o?.spec?.template?.metadata?.labels?.['app.kubernetes.io/name'];
    return typeof app === 'string' ? `app ${w.namespace}/${app}` : undefined;
  };
  // A canary's base joins the canary's group: index the bases by their own name.
  const byKey = new Map<string, WorkloadCoverage[]>();
  const keyOf = new Map<WorkloadCoverage, string>();
  const canaryBases = new Set<string>();
  for (const w of report.workloads) {
    const k = groupKey(w);
    if (k?.startsWith('canary ')) canaryBases.add(k.slice('canary '.length));
  }
  for (const w of report.workloads) {
    let k = groupKey(w);
    if (canaryBases.has(`${w.namespace}/${w.name}`)) k = `canary ${w.namespace}/${w.name}`;
    if (k === undefined) continue;
    keyOf.set(w, k);
    let list = byKey.get(k);
    if (!list) byKey.set(k, (list = []));
    list.push(w);
  }
  const groups: Array<{ members: WorkloadCoverage[]; kind: string }> = [];
  const listed = new Set<string>();
  for (const w of report.workloads) {
    const k = keyOf.get(w);
    const members = k !== undefined ? byKey.get(k)! : [w];
    if (members.length < 2) {
      groups.push({ members: [w], kind: '' });
      continue;
    }
    if (listed.has(k!)) continue;
    listed.add(k!);
    const canaries = members.filter(
      (m) => objects.get(`${m.namespace}/${m.name}`)?.metadata?.annotations?.[CANARY_OF_ANNOTATION] !== undefined,
    );
    const pair = k!.startsWith('canary ') || (members.length === 2 && canaries.length === 1);
    groups.push({ members, kind: pair ? 'canary pair' : 'variants' });
  }
  return groups;
}

interface PoolTax {
  readonly pool: string;
  readonly nodes: number;
  /** The pool's node with the largest tax (largest share of CPU or memory). */
  readonly node: string;
  readonly tax: NodeTax;
}

/** The node tax of each node group: the services that land on each node (not excluded), on its fullest node. */
function poolTaxes(
  report: CoverageReport,
  manifests: readonly any[],
  nodes: readonly any[],
  poolLabel: string | undefined,
  budget: TaxBudget | undefined,
  minor: number | undefined,
): { pools: PoolTax[]; labels: string[]; poolOf: string[] } {
  const analysed = report.workloads.filter((w) => w.status !== WorkloadStatus.INVALID);
  const objects = new Map<string, any>();
  for (const m of manifests) if (m?.kind === 'DaemonSet') objects.set(`${m.metadata?.namespace || 'default'}/${m.metadata?.name}`, m);
  const runtimeClasses = manifests.filter((m) => m?.kind === 'RuntimeClass');
  const requests = analysed.map(
    (w) => compileWorkload(objects.get(`${w.namespace}/${w.name}`), { kubernetesMinor: minor, runtimeClasses }).requests,
  );
  const count = nodes.length;
  // What lands on each node group (the nodes of a group have alike rows), summed in workload order.
  const { groupOf, first } = nodeLayout(report);
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
  const allocatables = new Map<string, { vector: ResourceVector; pods: number }>();
  const usedLabels = new Set<string>();
  const pools = new Map<string, { nodes: number; worst: number; share: number }>();
  const poolOf: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const node = nodes[i];
    const resolved = nodePoolOf(node?.metadata?.labels, poolLabel);
    if (resolved.label !== undefined) usedLabels.add(resolved.label);
    const pool = resolved.name;
    poolOf[i] = pool;
    const alloc = nodeAllocatable(node, allocatables);
    const g = groupOf[i];
    const share = Math.max(
      alloc.vector.cpu > 0 ? cpu[g] / alloc.vector.cpu : 0,
      alloc.vector.memory > 0 ? memory[g] / alloc.vector.memory : 0,
    );
    const entry = pools.get(pool);
    if (entry === undefined) pools.set(pool, { nodes: 1, worst: i, share });
    else {
      entry.nodes++;
      if (share > entry.share) {
        entry.share = share;
        entry.worst = i;
      }
    }
  }
  const out: PoolTax[] = [];
  for (const [pool, entry] of pools) {
    const i = entry.worst;
    const services = analysed.flatMap((w, k) =>
      w.nodes[i].status === CoverageStatus.EXCLUDED
        ? []
        : [{ name: `${w.namespace}/${w.name}`, cpu: requests[k].cpu, memory: requests[k].memory }],
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

function nodeAllocatable(node: any, memo: Map<string, { vector: ResourceVector; pods: number }>): { vector: ResourceVector; pods: number } {
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

function poolsText(
  out: ChunkedOut,
  pools: readonly PoolTax[],
  labels: readonly string[],
  budget: TaxBudget | undefined,
  tty: boolean,
): void {
  const paint = (code: string, text: string) => (tty ? `${code}${text}${COLOURS.reset}` : text);
  const budgetText = budget
    ? `; budget ${[budget.cpuPercent !== undefined ? `cpu ${budget.cpuPercent}%` : '', budget.memoryPercent !== undefined ? `memory ${budget.memoryPercent}%` : ''].filter(Boolean).join(', ')}`
    : '';
  out.write(
    `${paint(COLOURS.bold, `Node tax per pool (${labels.length > 0 ? labels.join(', ') : 'no pool label'}): what the node services landing on the pool's fullest node request${budgetText}`)}\n`,
  );
  const rows: string[][] = [['POOL', 'NODES', 'CPU', 'MEMORY', 'PODS', 'STATUS', 'LARGEST']];
  for (const p of pools) {
    const t = p.tax;
    const status = t.overAllocatable.length > 0 ? 'over allocatable' : t.overBudget.length > 0 ? 'over budget' : 'fits';
    const largest = t.services
      .slice(0, 3)
      .map((s) => `${s.name} ${formatPercent(Math.max(s.cpuPercent ?? 0, s.memoryPercent ?? 0))}`)
      .join(', ');
    rows.push([
      p.pool,
      String(p.nodes),
      `${formatMilliCpu(t.cpu)} of ${formatMilliCpu(t.allocatableCpu)} (${formatPercent(t.cpuPercent)})`,
      `${formatBytes(t.memory)} of ${formatBytes(t.allocatableMemory)} (${formatPercent(t.memoryPercent)})`,
      `${t.pods}`,
      status,
      largest + (t.services.length > 3 ? ', …' : ''),
    ]);
  }
  writeTable(out, rows, (row, column, text) => {
    if (row === 0) return paint(COLOURS.dim, text);
    if (column === 5) return paint(rows[row][5] === 'fits' ? COLOURS.green : COLOURS.red, text);
    return text;
  });
}

function poolJson(p: PoolTax): unknown {
  const t = p.tax;
  return {
    pool: p.pool,
    nodes: p.nodes,
    node: p.node,
    cpu: formatMilliCpu(t.cpu),
    memory: formatBytes(t.memory),
    pods: t.pods,
    allocatable: { cpu: formatMilliCpu(t.allocatableCpu), memory: formatBytes(t.allocatableMemory), pods: t.allocatablePods },
    cpuPercent: t.cpuPercent === undefined ? null : Math.round(t.cpuPercent * 10) / 10,
    memoryPercent: t.memoryPercent === undefined ? null : Math.round(t.memoryPercent * 10) / 10,
    overAllocatable: t.overAllocatable,
    overBudget: t.overBudget,
    services: t.services.map((s) => ({
      name: s.name,
      cpu: formatMilliCpu(s.cpu),
      memory: formatBytes(s.memory),
      cpuPercent: s.cpuPercent === undefined ? null : Math.round(s.cpuPercent * 10) / 10,
      memoryPercent: s.memoryPercent === undefined ? null : Math.round(s.memoryPercent * 10) / 10,
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
 * when the node tax is asked for). In a fleet report the object starts with the cluster's `name` and every line after
 * the first is indented by `indent`. No newline is written after the closing brace.
 */
function writeJson(
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

/**
 * The compact report, one JSON object per line; it grows with the nodes where a pod is wanted but does not run, not
 * with nodes × DaemonSets: `{"type":"summary"}`, per DaemonSet `{"type":"workload"}` with its counts by status,
 * `{"type":"excluded"}` per distinct (reason, detail) with a node count, `{"type":"node"}` per node where the pod is
 * pending, not running or preempts, and `{"type":"pool"}` per node pool. In a fleet report every line starts with
 * `"cluster"`.
 */
function writeJsonLines(out: ChunkedOut, report: CoverageReport, pools: readonly PoolTax[], cluster?: string): void {
  const line = (o: object) => out.write(`${JSON.stringify(cluster === undefined ? o : { cluster, ...o })}\n`);
  line({ type: 'summary', nodes: report.nodes, workloads: report.workloads.length });
  const layout = nodeLayout(report);
  const { groupOf, first, size } = layout;
  for (const w of report.workloads) {
    const id = { namespace: w.namespace, name: w.name };
    if (w.status === WorkloadStatus.INVALID) {
      line({ type: 'workload', kind: w.kind, ...id, status: 'invalid', findings: w.findings ?? [] });
      continue;
    }
    // Counted per node group (groups are in the order of their first node, so the excluded entries come in node order).
    const counts: Record<string, number> = { running: 0, excluded: 0, pending: 0, notRunning: 0 };
    const excluded = new Map<string, { reason: string; detail: string; nodes: number }>();
    // Per group, the end of its node lines (from `status` on), or undefined when its nodes get none.
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
  for (const p of pools) line({ type: 'pool', ...(poolJson(p) as object) });
}

/** The text report: per DaemonSet (or group) a header and a table of the nodes that lack its pod, then the node tax. */
function writeText(
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

/** What the statuses of the text report mean (once per report). */
const LEGEND =
  '"excluded": the DaemonSet controller creates no pod there; "pending": a pod is created but cannot be scheduled; ' +
  '"notRunning": the pod is bound but the kubelet does not run it; "running" with "preemption": the scheduler evicts ' +
  'lower-priority pods to place it (PodDisruptionBudgets do not stop that).';

/**
 * @internal A report as `coverage` writes it in `format` (`text`, `json` or `jsonl`, with the node tax of the default
 * pool labels), as one string: the formatting of the command without its reading.
 */
export function formatCoverage(
  report: CoverageReport,
  manifests: readonly any[],
  nodes: readonly any[],
  format: 'text' | 'json' | 'jsonl',
  tty = false,
): string {
  const chunks: string[] = [];
  const out = new ChunkedOut({ out: (text) => void chunks.push(text), err: () => undefined, readStdin: async () => '', isTTY: tty });
  const { pools, labels } = poolTaxes(report, manifests, nodes, undefined, undefined, undefined);
  const names = nodes.map((n) => n.metadata.name as string);
  if (format === 'json') writeJson(out, report, names, pools);
  else if (format === 'jsonl') writeJsonLines(out, report, pools);
  else writeText(out, report, manifests, pools, labels, undefined, tty);
  out.flush();
  return chunks.join('');
}

/** What one cluster's coverage run read and found. */
interface CoverageRun {
  readonly report: CoverageReport;
  readonly workloads: readonly any[];
  readonly names: string[];
  readonly pools: PoolTax[];
  readonly poolLabels: string[];
  readonly poolOf: string[];
}

/** Reads one cluster's nodes, pods and manifests, and analyses them. */
async function runCoverage(
  inputs: readonly string[],
  nodesPath: string,
  podsPath: string | undefined,
  flags: CoverageFlags,
  minor: number | undefined,
  budget: TaxBudget | undefined,
  io: CliIo,
  cluster?: string,
): Promise<CoverageRun> {
  const progress = progressOf(io);
  const of = cluster !== undefined ? ` of cluster ${cluster}` : '';
  progress(`reading nodes${of} (${nodesPath === '-' ? 'standard input' : nodesPath})`);
  const nodes = await readList(nodesPath, 'Node', '--nodes', io, slimNode);
  if (podsPath !== undefined) progress(`reading pods${of} (${podsPath === '-' ? 'standard input' : podsPath})`);
  const pods = podsPath !== undefined ? await readList(podsPath, 'Pod', '--pods', io, slimPod) : undefined;
  progress(`reading manifests${of}`);
  const workloads = await readManifests(inputs, io);
  checkGates(flags, nodes.length, nodesPath, workloads, cluster !== undefined ? `cluster ${cluster}: ` : '');
  progress(`analyzing ${nodes.length} node${nodes.length === 1 ? '' : 's'}${of}`);
  const report = analyzeCoverage(workloads, nodes, pods, minor !== undefined ? { kubernetesMinor: minor } : undefined);
  const { pools, labels: poolLabels, poolOf } = poolTaxes(report, workloads, nodes, flags.poolLabel, budget, minor);
  const names = nodes.map((n) => n.metadata.name as string);
  return { report, workloads, names, pools, poolLabels, poolOf };
}

/** A gate (`--fail-on-missing`, `--fail-on-budget`) over zero nodes or zero DaemonSets is refused: nothing to check. */
function checkGates(flags: CoverageFlags, nodes: number, nodesPath: string, workloads: readonly any[], of: string): void {
  const gate = flags.failOnMissing ? '--fail-on-missing' : flags.failOnBudget ? '--fail-on-budget' : undefined;
  if (gate === undefined) return;
  if (nodes === 0) throw nothingToCheck(`${of}no nodes in --nodes ${nodesPath} (an empty list)`, gate);
  if (!workloads.some((w) => w?.kind === 'DaemonSet'))
    throw nothingToCheck(`${of}no DaemonSet in the manifests (${kindsOf(workloads)})`, gate);
}

/** Writes a run's warnings to standard error (prefixed with the cluster in a fleet report). */
function writeWarnings(run: CoverageRun, io: CliIo, cluster?: string): void {
  const of = cluster !== undefined ? `cluster ${cluster}: ` : '';
  for (const warning of run.report.warnings) io.err(`warning: ${of}${warning}\n`);
  if (run.report.workloads.length === 0) io.err(`node-services: ${of}no DaemonSet found in the given manifests\n`);
}

/** Whether a run misses wanted nodes (or has an invalid DaemonSet), and whether a pool is over its allocatable or budget. */
function verdicts(run: CoverageRun): { missing: boolean; overBudget: boolean } {
  return {
    missing: run.report.workloads.some((w) => w.status === WorkloadStatus.INVALID || w.schedulable < w.desired),
    overBudget: run.pools.some((p) => p.tax.overAllocatable.length > 0 || p.tax.overBudget.length > 0),
  };
}

function exitCodeOf(run: CoverageRun, flags: CoverageFlags): number {
  const { missing, overBudget } = verdicts(run);
  return (flags.failOnMissing && missing) || (flags.failOnBudget && overBudget) ? 1 : 0;
}

function jsonPools(run: CoverageRun, flags: CoverageFlags, budget: TaxBudget | undefined): readonly PoolTax[] | undefined {
  return flags.poolLabel !== undefined || budget !== undefined || flags.failOnBudget ? run.pools : undefined;
}

/** The clusters of `--clusters` with their manifests folder, nodes file and pods file; every layout problem at once. */
function resolveClusters(
  root: string,
  flags: CoverageFlags,
  manifests: readonly string[],
): Array<{ name: string; folder: string; nodes: string; pods?: string; version?: { text: string; minor: number } }> {
  const problems: string[] = [];
  if (manifests.length > 0) {
    problems.push(
      `give the manifests either as arguments (${manifests.join(' ')}) or as --clusters ${root}, not both; with --clusters each cluster's manifests are its folder`,
    );
  }
  for (const [flag, value] of [
    ['--nodes', flags.nodes],
    ['--pods', flags.pods],
  ] as const) {
    if (value === '-') problems.push(`${flag} -: with --clusters, ${flag} is a folder with one file per cluster, not standard input`);
  }
  const clusters = clusterFolders(root, '--clusters', problems);
  const nodes = clusters.length > 0 && flags.nodes !== '-' ? clusterFiles(flags.nodes, '--nodes', clusters, problems) : new Map();
  const pods =
    clusters.length > 0 && flags.pods !== undefined && flags.pods !== '-'
      ? clusterFiles(flags.pods, '--pods', clusters, problems)
      : undefined;
  // The Kubernetes version a Fleet records in each cluster folder (--kubernetes-version overrides it for all).
  const versions = new Map<string, { text: string; minor: number }>();
  for (const name of clusters) {
    const recorded = clusterVersion(path.join(root, name));
    if (recorded === undefined) continue;
    if (recorded.error !== undefined) problems.push(`${recorded.file}: ${recorded.error}`);
    else versions.set(name, { text: recorded.text, minor: recorded.minor! });
  }
  throwProblems(problems);
  return clusters.map((name) => ({
    name,
    folder: path.join(root, name),
    nodes: nodes.get(name)!,
    pods: pods?.get(name),
    version: versions.get(name),
  }));
}

/** `coverage --clusters`: each cluster read, analysed and reported in turn (only one cluster's data is held at a time). */
async function coverageOfClusters(
  root: string,
  manifests: readonly string[],
  flags: CoverageFlags,
  minor: number | undefined,
  budget: TaxBudget | undefined,
  io: CliIo,
): Promise<number> {
  const clusters = resolveClusters(root, flags, manifests);
  const out = new ChunkedOut(io);
  let code = 0;
  const missing: string[] = [];
  const overBudget: string[] = [];
  const runs = async function* () {
    for (const c of clusters) {
      const run = await runCoverage([c.folder], c.nodes, c.pods, flags, minor ?? c.version?.minor, budget, io, c.name);
      const v = verdicts(run);
      if (v.missing) missing.push(c.name);
      if (v.overBudget) overBudget.push(c.name);
      code = Math.max(code, exitCodeOf(run, flags));
      yield { cluster: c, run };
      out.flush();
      writeWarnings(run, io, c.name);
    }
  };
  if (flags.output === 'html') {
    const inputs: Array<{ name: string; input: CoverageHtmlInput }> = [];
    for await (const { cluster, run } of runs()) {
      inputs.push({
        name: cluster.name,
        input: { report: run.report, poolOf: run.poolOf, pools: run.pools, poolLabels: run.poolLabels, budget },
      });
    }
    writeCoverageHtmlClustersPage(
      inputs,
      clusters.map((c) => c.name),
      (text) => out.write(text),
    );
    out.flush();
    return code;
  }
  if (flags.output === 'json') out.write('{\n  "clusters": [');
  let first = true;
  for await (const { cluster, run } of runs()) {
    if (flags.output === 'json') {
      out.write(`${first ? '' : ','}\n    `);
      writeJson(out, run.report, run.names, jsonPools(run, flags, budget), { name: cluster.name, indent: '    ' });
    } else if (flags.output === 'jsonl') writeJsonLines(out, run.report, run.pools, cluster.name);
    else {
      const paint = (text: string) => (io.isTTY ? `${COLOURS.bold}${text}${COLOURS.reset}` : text);
      const version =
        flags.kubernetesVersion !== undefined
          ? `, Kubernetes ${flags.kubernetesVersion.trim()}`
          : cluster.version
            ? `, Kubernetes ${cluster.version.text} (${CLUSTER_VERSION_FILE})`
            : '';
      out.write(`${first ? '' : '\n'}${paint(`Cluster ${cluster.name}`)} (${cluster.folder}, nodes ${cluster.nodes}${version})\n\n`);
      writeText(out, run.report, run.workloads, run.pools, run.poolLabels, budget, io.isTTY, false);
    }
    first = false;
  }
  if (flags.output === 'json') out.write('\n  ]\n}\n');
  if (flags.output === 'text') {
    const names = (list: readonly string[]) => (list.length > 0 ? list.join(', ') : 'none');
    out.write(
      `\n${clusters.length} cluster${clusters.length === 1 ? '' : 's'} (${clusters.map((c) => c.name).join(', ')}); ` +
        `missing or invalid DaemonSets in: ${names(missing)}; node tax over allocatable or budget in: ${names(overBudget)}. ${LEGEND}\n`,
    );
  }
  out.flush();
  return code;
}

/** Registers `node-services coverage`. */
export function registerCoverageCommand(program: Command, io: CliIo, exit: ExitCode): void {
  program
    .command('coverage')
    .description(
      "Explain which nodes get each DaemonSet's pod and, for every node that does not, why " +
        '(nodeSelector, nodeAffinity, taint, hostPort, resources, diskPressure, unreachable, notReady, os), and what the ' +
        'node services together request on each node pool (the node tax). With --clusters, per cluster of a fleet.',
    )
    .addHelpText('after', refusalsHelp('coverage'))
    .argument(
      '[manifests...]',
      'manifest files or folders with DaemonSets (and PriorityClass / RuntimeClass objects); - or nothing: standard input',
    )
    .requiredOption(
      '--nodes <file>',
      'the nodes: a NodeList, Node objects, JSON lines or YAML (kubectl get nodes -o json), any size; - for standard input. ' +
        'With --clusters: a folder with one such file per cluster, <cluster-name>.json, .yaml or .yml',
    )
    .option(
      '--pods <file>',
      'pods already running (kubectl get pods -A -o json): their requests, host ports and count use up their node; lower-priority ones may be preempted. ' +
        'With --clusters: a folder with one file per cluster, as --nodes',
    )
    .option(
      '--clusters <folder>',
      "a fleet: the folder with one folder per cluster (<cluster-name>/ with that cluster's manifests, e.g. dist/clusters); " +
        'reports per cluster, and the exit code is the worst of the clusters',
    )
    .addOption(
      new Option(
        '--output <format>',
        'report format: text, json, jsonl (compact: one line per DaemonSet and per node that lacks a wanted pod), or html (one self-contained page: pools × services matrix, node tax bars)',
      )
        .choices(['text', 'json', 'jsonl', 'html'])
        .default('text'),
    )
    .option('--fail-on-missing', 'exit with 1 when a node where the controller wants a pod does not run it, or a DaemonSet is invalid')
    .option(
      '--kubernetes-version <version>',
      `the Kubernetes version whose semantics apply, ${KUBERNETES_VERSION_RANGE} (default: 1.28, or a cluster folder's ` +
        'kubernetes-version; from 1.29 restartable init containers are sidecars)',
    )
    .option('--pool-label <key>', `node label that names the node pool for the node tax (default: ${poolLabelsHelp()})`)
    .option('--budget <shares>', 'node-tax budget per node, e.g. cpu=8%,memory=10% of allocatable')
    .option('--fail-on-budget', 'exit with 1 when the node services of a pool request more than its allocatable or the budget')
    .action(async (manifests: string[], flags: CoverageFlags) => {
      const minor = kubernetesMinor(flags.kubernetesVersion);
      const budget = parseBudget(flags.budget);
      if (flags.clusters !== undefined) {
        exit.code = await coverageOfClusters(flags.clusters, manifests, flags, minor, budget, io);
        return;
      }
      const inputs = manifests.length > 0 ? manifests : ['-'];
      const stdinUsers = [
        flags.nodes === '-' ? '--nodes' : '',
        flags.pods === '-' ? '--pods' : '',
        inputs.includes('-') ? (manifests.length > 0 ? 'the manifests' : 'the manifests (none given, so read from standard input)') : '',
      ].filter(Boolean);
      if (stdinUsers.length > 1) {
        throw new InputError(
          `standard input (-) can be read only once, but ${stdinUsers.join(' and ')} both use it; save one of them to a file`,
        );
      }
      const run = await runCoverage(inputs, flags.nodes, flags.pods, flags, minor, budget, io);
      progressOf(io)(`writing the ${flags.output} report`);
      const out = new ChunkedOut(io);
      const { report, pools, poolLabels, poolOf } = run;
      if (flags.output === 'html') writeCoverageHtmlPage({ report, poolOf, pools, poolLabels, budget }, (text) => out.write(text));
      else if (flags.output === 'json') {
        writeJson(out, report, run.names, jsonPools(run, flags, budget));
        out.write('\n');
      } else if (flags.output === 'jsonl') writeJsonLines(out, report, pools);
      else writeText(out, report, run.workloads, pools, poolLabels, budget, io.isTTY);
      out.flush();
      writeWarnings(run, io);
      exit.code = exitCodeOf(run, flags);
    });
}
