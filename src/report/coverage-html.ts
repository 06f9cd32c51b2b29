/**
 * The HTML coverage report (`node-services coverage --output html`): a matrix of node pools × node services with each
 * cell's counts by status, the nodes and reasons behind each cell (grouped, with a bounded sample of node names), the
 * node tax of each pool as stacked bars, and the DaemonSets' totals. It is rendered from the same objects the JSON
 * output is serialized from (the coverage report and the node tax per pool), so the two cannot disagree; it
 * aggregates, so a report of a large fleet stays small.
 */

import { PALETTE, agree, escapeHtml, htmlPage, plural, sampleNames } from './html';
import { PLACEMENT_LOOK, Placement, coverageLegend, placementOf, placementTag } from './placement';
import { TaxBudget, formatPercent } from '../coverage/node-tax';
import { PoolTax } from '../coverage/pool-tax';
import { formatBytes, formatMilliCpu } from '../coverage/quantity';
import { CoverageReason, CoverageReport, CoverageStatus, NodeCoverage, WorkloadCoverage, WorkloadStatus } from '../coverage/types';

/** The node tax of one pool, on its fullest node (as in the JSON output's `pools`). */
export type PoolTaxView = PoolTax;

/** What the HTML coverage report is rendered from. */
export interface CoverageHtmlInput {
  /** The coverage analysis. */
  readonly report: CoverageReport;
  /** The pool of each node, by node index (the order of `report.workloads[k].nodes`). */
  readonly poolOf: readonly string[];
  /** The node tax of each pool. */
  readonly pools: readonly PoolTaxView[];
  /** The label keys the pools were read from. */
  readonly poolLabels: readonly string[];
  /** The node-tax budget, when one was given. */
  readonly budget?: TaxBudget;
}

/** Node names listed per group of alike nodes behind a matrix cell. */
const SAMPLE_NAMES = 5;
/** Groups (status, reason, detail) listed per matrix cell; the rest are summed up in one line. */
const MAX_GROUPS = 12;

/**
 * The counts of a cell, in the order a cell lists them, with their words: the pod runs; the DaemonSet does not target
 * the node (an intended absence); and the gaps: excluded by a taint it does not tolerate, pending, not running.
 */
const COUNTS: ReadonlyArray<{ key: keyof Counts; one: string; many: string }> = [
  { key: 'running', one: 'running', many: 'running' },
  { key: 'notTargeted', one: 'not targeted', many: 'not targeted' },
  { key: 'taint', one: 'excluded by a taint', many: 'excluded by taints' },
  { key: 'pending', one: 'pending', many: 'pending' },
  { key: 'notRunning', one: 'not running', many: 'not running' },
];

interface Counts {
  running: number;
  notTargeted: number;
  taint: number;
  pending: number;
  notRunning: number;
}

function emptyCounts(): Counts {
  return { running: 0, notTargeted: 0, taint: 0, pending: 0, notRunning: 0 };
}

/** The count a node's verdict adds to. */
function countKey(n: NodeCoverage): keyof Counts {
  if (n.status === CoverageStatus.EXCLUDED) return placementOf(n) === Placement.NOT_TARGETED ? 'notTargeted' : 'taint';
  return n.status as 'running' | 'pending' | 'notRunning';
}

function gaps(c: Counts): number {
  return c.taint + c.pending + c.notRunning;
}

interface Group {
  readonly status: string;
  readonly reason: string;
  readonly detail: string;
  count: number;
  readonly names: string[];
}

/** Counts and reason groups of one (pool, DaemonSet) cell. */
interface Cell {
  readonly counts: Counts;
  readonly groups: Map<string, Group>;
}

/** Estimated heights of a per-pool node-tax section and of a per-cell detail section, for sections not yet laid out. */
const TAX_SECTION_PX = 420;
const DETAIL_SECTION_PX = 150;
/** Estimated height of a row of the DaemonSets table. */
const DAEMONSET_ROW_PX = 30;

/**
 * The inline style of a long section that is laid out only when it comes into view (`content-visibility: auto` by its
 * `deferred` class): its estimated height, so the page's scroll length is about right before it is rendered.
 */
function deferredSize(contentPx: number): string {
  return `contain-intrinsic-size:auto ${Math.round(contentPx + 120)}px`;
}

function serviceName(w: WorkloadCoverage): string {
  return `${w.namespace}/${w.name}`;
}

function groupOf(n: NodeCoverage): { status: string; reason: string; detail: string } {
  if (n.runs && n.preempts !== undefined)
    return { status: n.status, reason: 'preemption', detail: 'runs after preempting lower-priority pods' };
  return { status: n.status, reason: n.reason, detail: n.detail };
}

/** The cells of the matrix: `cells[pool][workload]`, for the analysed DaemonSets. */
function buildCells(report: CoverageReport, poolOf: readonly string[], pools: readonly string[]): Cell[][] {
  const index = new Map(pools.map((p, i) => [p, i]));
  const cells = pools.map(() => report.workloads.map(() => ({ counts: emptyCounts(), groups: new Map<string, Group>() })));
  report.workloads.forEach((w, k) => {
    if (w.status === WorkloadStatus.INVALID) return;
    for (let i = 0; i < w.nodes.length; i++) {
      const n = w.nodes[i];
      const cell = cells[index.get(poolOf[i])!][k];
      cell.counts[countKey(n)]++;
      const g = groupOf(n);
      const key = `${g.status}\u0000${g.reason}\u0000${g.detail}`;
      const group = cell.groups.get(key);
      if (group === undefined) cell.groups.set(key, { ...g, count: 1, names: [n.node] });
      else {
        group.count++;
        if (group.names.length < SAMPLE_NAMES) group.names.push(n.node);
      }
    }
  });
  return cells;
}

/** The look and verdict of a cell: a gap if any node of it is one, else covered, not targeted or no nodes. */
function cellVerdict(c: Counts): { placement: Placement | undefined; word: string } {
  if (gaps(c) > 0) return { placement: Placement.GAP, word: 'gap' };
  if (c.running > 0) return { placement: Placement.RUNS, word: c.notTargeted > 0 ? 'covered where targeted' : 'covered' };
  return c.notTargeted > 0 ? { placement: Placement.NOT_TARGETED, word: 'not targeted' } : { placement: undefined, word: 'no nodes' };
}

function cellHtml(c: Counts, href: string): string {
  const v = cellVerdict(c);
  const look = v.placement !== undefined ? PLACEMENT_LOOK[v.placement] : undefined;
  const lines = COUNTS.filter((s) => c[s.key] > 0)
    .map((s) => `<span data-count="${s.key}" data-value="${c[s.key]}">${c[s.key]} ${c[s.key] === 1 ? s.one : s.many}</span>`)
    .join('');
  const attrs = COUNTS.map((s) => ` data-${s.key.toLowerCase()}="${c[s.key]}"`).join('');
  const icon = look !== undefined ? `<span class="icon" aria-hidden="true">${look.icon}</span> ` : '';
  return (
    `<td${attrs} data-placement="${v.placement ?? 'none'}"><a class="cell ${look?.cls ?? 'p-none'}" href="${href}">` +
    `<span class="verdict">${icon}${v.word}</span>${lines}</a></td>`
  );
}

/** A group's tag in the details: `✓ runs`, `– not targeted`, `✕ gap: excluded` / `pending` / `not running`. */
function groupTag(status: string, reason: string): string {
  const p = placementOf({ status: status as CoverageStatus, reason: reason as CoverageReason });
  if (p !== Placement.GAP) return placementTag(p);
  return placementTag(p, `: ${status === CoverageStatus.NOT_RUNNING ? 'not running' : status}`);
}

function countsOf(w: WorkloadCoverage): Counts {
  const c = emptyCounts();
  for (const n of w.nodes) c[countKey(n)]++;
  return c;
}

/** The report's verdict in one sentence, each count with the words that agree with it. */
export function headline(withGaps: number, invalid: number): string {
  if (withGaps === 0 && invalid === 0) return 'Every DaemonSet runs on every node it targets.';
  const parts: string[] = [];
  if (withGaps > 0) {
    parts.push(
      `${plural(withGaps, 'DaemonSet')} ${agree(withGaps, 'has', 'have')} gaps (nodes ${agree(withGaps, 'it targets', 'they target')} but cannot run on)`,
    );
  }
  if (invalid > 0) parts.push(`${plural(invalid, 'DaemonSet')} ${agree(invalid, 'is', 'are')} invalid (not analysed)`);
  return `${parts.join('; ')}.`;
}

/**
 * A memory amount for a reader: exact in Mi or larger units (`256Mi`, `1246Mi`, `16Gi`); an amount of 1Gi or more that
 * is exact only in Ki or bytes is rounded to a tenth of a Gi (a node's allocatable `31482648Ki` reads `≈30.0Gi`).
 */
export function readableBytes(bytes: number): string {
  const exact = formatBytes(bytes);
  const GI = 1024 ** 3;
  if (bytes < GI || !/Ki$|\d$/.test(exact)) return exact;
  return `≈${(bytes / GI).toFixed(1)}Gi`;
}

function percent(value: number | undefined): string {
  return value === undefined ? '–' : formatPercent(value);
}

/** A stacked bar of the services' shares of one resource, with marks at allocatable (100 %) and the budget. */
function taxBar(
  label: string,
  shares: ReadonlyArray<{ name: string; percent: number | undefined; amount: string }>,
  total: number | undefined,
  budget: number | undefined,
  scale: number,
  colourOf: (name: string) => string,
): string {
  const segments = shares
    .filter((s) => (s.percent ?? 0) > 0)
    .map(
      (s) =>
        `<div class="seg" style="width:${(((s.percent ?? 0) / scale) * 100).toFixed(3)}%;background:${colourOf(s.name)}" title="${escapeHtml(
          `${s.name}: ${s.amount} (${percent(s.percent)})`,
        )}"></div>`,
    )
    .join('');
  const marks =
    (100 <= scale ? `<div class="mark m-alloc" style="left:${((100 / scale) * 100).toFixed(3)}%"><span>allocatable</span></div>` : '') +
    (budget !== undefined
      ? `<div class="mark m-budget" style="left:${((budget / scale) * 100).toFixed(3)}%"><span>budget ${escapeHtml(formatPercent(budget))}</span></div>`
      : '');
  const text = `${label}: ${percent(total)} of allocatable${budget !== undefined ? `, budget ${formatPercent(budget)}` : ''}`;
  return `<div class="bar" role="img" aria-label="${escapeHtml(text)}">${segments}${marks}</div>`;
}

function poolTaxSection(p: PoolTaxView, anchor: string, budget: TaxBudget | undefined, colourOf: (name: string) => string): string {
  const t = p.tax;
  const scale = Math.max(
    10,
    Math.ceil(Math.max(t.cpuPercent ?? 0, t.memoryPercent ?? 0, budget?.cpuPercent ?? 0, budget?.memoryPercent ?? 0) / 10) * 10 + 5,
  );
  const status =
    t.overAllocatable.length > 0
      ? `<span class="tag t-bad">over allocatable</span> ${escapeHtml(t.overAllocatable.join('; '))}`
      : t.overBudget.length > 0
        ? `<span class="tag t-warn">over budget</span> ${escapeHtml(t.overBudget.join('; '))}`
        : '<span class="tag t-ok">fits</span> within allocatable' + (budget ? ' and the budget' : '');
  const rows = t.services
    .map(
      (s) =>
        `<tr><th scope="row"><span class="swatch" style="background:${colourOf(s.name)}"></span>${escapeHtml(s.name)}</th>` +
        `<td class="num">${escapeHtml(formatMilliCpu(s.cpu))}</td><td class="num">${escapeHtml(percent(s.cpuPercent))}</td>` +
        `<td class="num">${escapeHtml(formatBytes(s.memory))}</td><td class="num">${escapeHtml(percent(s.memoryPercent))}</td></tr>`,
    )
    .join('\n');
  return (
    `<section class="pool" id="${anchor}" data-pool="${escapeHtml(p.pool)}">\n` +
    `<h3>Pool <code>${escapeHtml(p.pool)}</code> (${plural(p.nodes, 'node')}; fullest node <code>${escapeHtml(p.node)}</code>)</h3>\n` +
    `<p>${status}.<br>CPU ${escapeHtml(formatMilliCpu(t.cpu))} of ${escapeHtml(formatMilliCpu(t.allocatableCpu))} (${escapeHtml(percent(t.cpuPercent))}), ` +
    `memory ${escapeHtml(readableBytes(t.memory))} of ${escapeHtml(readableBytes(t.allocatableMemory))} (${escapeHtml(percent(t.memoryPercent))}), ` +
    `${t.pods} of ${t.allocatablePods} pod slots.</p>\n` +
    `<div>CPU requests</div>` +
    taxBar(
      'CPU requests',
      t.services.map((s) => ({ name: s.name, percent: s.cpuPercent, amount: formatMilliCpu(s.cpu) })),
      t.cpuPercent,
      budget?.cpuPercent,
      scale,
      colourOf,
    ) +
    `\n<div>Memory requests</div>` +
    taxBar(
      'Memory requests',
      t.services.map((s) => ({ name: s.name, percent: s.memoryPercent, amount: formatBytes(s.memory) })),
      t.memoryPercent,
      budget?.memoryPercent,
      scale,
      colourOf,
    ) +
    `\n<table class="tax"><caption>Node tax of pool ${escapeHtml(p.pool)} by service (share of allocatable; the bars' colours)</caption>\n` +
    '<thead><tr><th scope="col">Service</th><th scope="col">CPU</th><th scope="col">CPU %</th><th scope="col">Memory</th><th scope="col">Memory %</th></tr></thead>\n' +
    `<tbody>\n${rows}\n</tbody></table>\n</section>\n`
  );
}

/** What the parts of one report are rendered from. */
interface Rendering {
  readonly input: CoverageHtmlInput;
  readonly poolNames: readonly string[];
  readonly cells: Cell[][];
  readonly nodesPerPool: ReadonlyMap<string, number>;
  readonly colourOf: (name: string) => string;
  readonly write: (text: string) => void;
}

function writeHeader(r: Rendering, title: string): void {
  const { report } = r.input;
  const workloads = report.workloads;
  const invalid = workloads.filter((w) => w.status === WorkloadStatus.INVALID).length;
  const withGaps = workloads.filter((w) => w.status !== WorkloadStatus.INVALID && gaps(countsOf(w)) > 0).length;
  const labels =
    r.input.poolLabels.length > 0 ? r.input.poolLabels.map((l) => `<code>${escapeHtml(l)}</code>`).join(', ') : 'no pool label';
  r.write(
    `<header><h1>${escapeHtml(title)}</h1>\n<p class="lead">${plural(workloads.length, 'DaemonSet')} over ${plural(report.nodes, 'node')} ` +
      `in ${plural(r.poolNames.length, 'pool')} (${labels})` +
      (report.skipped > 0 ? `; ${plural(report.skipped, 'other object')} skipped` : '') +
      `. <strong>${headline(withGaps, invalid)}</strong></p></header>\n` +
      '<nav><ul><li><a href="#matrix">Coverage matrix</a></li><li><a href="#tax">Node tax per pool</a></li>' +
      '<li><a href="#daemonsets">DaemonSets</a></li><li><a href="#details">Nodes and reasons</a></li></ul></nav>\n',
  );
}

/** The matrix of pools × DaemonSets, a row at a time, after what its cells mean and their legend. */
function writeMatrix(r: Rendering): void {
  const workloads = r.input.report.workloads;
  r.write(
    '<section id="matrix"><h2>Coverage matrix</h2>\n' +
      "<p>Each cell counts the pool's nodes by what happens to the DaemonSet's pod there: <strong>running</strong>; " +
      '<strong>not targeted</strong> (the nodeSelector or node affinity leaves the node out: no pod is wanted there); and the gaps, ' +
      'nodes the DaemonSet targets where its pod cannot run: <strong>excluded by a taint</strong> it does not tolerate (the controller creates no pod), ' +
      '<strong>pending</strong> (created, but the scheduler cannot place it) and <strong>not running</strong> (bound, but the kubelet does not run it). ' +
      'A cell links to the nodes and reasons behind it.</p>\n' +
      coverageLegend() +
      '<div class="scroll"><table class="matrix"><caption>Node pools × node services: nodes per status</caption>\n<thead><tr><th scope="col">Pool (nodes)</th>' +
      workloads
        .map(
          (w) =>
            `<th scope="col" data-service="${escapeHtml(serviceName(w))}"><code>${escapeHtml(w.namespace)}/</code><br>${escapeHtml(w.name)}</th>`,
        )
        .join('') +
      '</tr></thead>\n<tbody>\n',
  );
  r.poolNames.forEach((pool, p) => {
    let row = `<tr data-pool="${escapeHtml(pool)}"><th scope="row"><code>${escapeHtml(pool)}</code> (${r.nodesPerPool.get(pool)})</th>`;
    workloads.forEach((w, k) => {
      row +=
        w.status === WorkloadStatus.INVALID
          ? `<td data-status="invalid" data-placement="invalid"><a class="cell p-gap" href="#ds-${k}">` +
            '<span class="verdict"><span class="icon" aria-hidden="true">!</span> invalid</span><span>not analysed</span></a></td>'
          : cellHtml(r.cells[p][k].counts, `#c-${p}-${k}`);
    });
    r.write(`${row}</tr>\n`);
  });
  r.write('</tbody></table></div></section>\n');
}

function writeTax(r: Rendering): void {
  const { pools, budget, report } = r.input;
  r.write(
    `<section id="tax" class="deferred" style="${deferredSize(pools.length * TAX_SECTION_PX)}"><h2>Node tax per pool</h2>\n<p>What the node services that land on each pool's fullest node request, ` +
      `as shares of its allocatable CPU and memory` +
      (budget
        ? `, against the budget (${[budget.cpuPercent !== undefined ? `CPU ${formatPercent(budget.cpuPercent)}` : '', budget.memoryPercent !== undefined ? `memory ${formatPercent(budget.memoryPercent)}` : ''].filter(Boolean).join(', ')})`
        : '') +
      '. Each colour is one service, named in the table below its bars.</p>\n',
  );
  if (pools.length === 0 || report.workloads.every((w) => w.status === WorkloadStatus.INVALID)) r.write('<p>No analysed DaemonSet.</p>\n');
  else pools.forEach((pool, i) => r.write(poolTaxSection(pool, `tax-${i}`, budget, r.colourOf)));
  r.write('</section>\n');
}

/** The DaemonSets' totals, the gap counts marked as gaps. */
function writeDaemonSets(r: Rendering): void {
  const workloads = r.input.report.workloads;
  r.write(
    `<section id="daemonsets" class="deferred" style="${deferredSize(workloads.length * DAEMONSET_ROW_PX)}"><h2>DaemonSets</h2>\n<table class="daemonsets"><caption>Per DaemonSet: nodes where the controller wants a pod (desired), where it runs (schedulable), and nodes per status</caption>\n` +
      '<thead><tr><th scope="col">DaemonSet</th><th scope="col">Desired</th><th scope="col">Schedulable</th><th scope="col">Running</th><th scope="col">Not targeted</th>' +
      '<th scope="col">Excluded by a taint</th><th scope="col">Pending</th><th scope="col">Not running</th></tr></thead>\n<tbody>\n',
  );
  workloads.forEach((w, k) => {
    const head = `<tr id="ds-${k}" data-service="${escapeHtml(serviceName(w))}"><th scope="row">${escapeHtml(w.kind)} <code>${escapeHtml(serviceName(w))}</code></th>`;
    if (w.status === WorkloadStatus.INVALID) {
      const findings = (w.findings ?? []).map((f) => `<li>${escapeHtml(f)}</li>`).join('');
      r.write(`${head}<td colspan="7"><span class="tag t-bad">invalid</span> not analysed:<ul>${findings}</ul></td></tr>\n`);
      return;
    }
    const c = countsOf(w);
    const cellsHtml = COUNTS.map((s) => {
      const gap = c[s.key] > 0 && s.key !== 'running' && s.key !== 'notTargeted';
      return `<td class="num${gap ? ' p-gap' : ''}" data-count="${s.key}">${c[s.key]}</td>`;
    }).join('');
    r.write(`${head}<td class="num">${w.desired}</td><td class="num">${w.schedulable}</td>${cellsHtml}</tr>\n`);
  });
  r.write('</tbody></table></section>\n');
}

/** The nodes and reasons behind one matrix cell, or "" when it has none. */
function detailSection(r: Rendering, p: number, k: number): string {
  const w = r.input.report.workloads[k];
  const groups = [...r.cells[p][k].groups.values()].sort((a, b) => b.count - a.count);
  if (w.status === WorkloadStatus.INVALID || groups.length === 0) return '';
  const rest = groups.slice(MAX_GROUPS);
  const items = groups
    .slice(0, MAX_GROUPS)
    .map(
      (g) =>
        `<li>${groupTag(g.status, g.reason)} ${plural(g.count, 'node')}${g.reason !== 'ok' ? ` — <strong>${escapeHtml(g.reason)}</strong>` : ''}` +
        `${g.detail !== '' ? `: ${escapeHtml(g.detail)}` : ''} <br>${sampleNames(g.names, g.count, SAMPLE_NAMES)}</li>`,
    )
    .join('\n');
  const more =
    rest.length > 0
      ? `\n<li>and ${plural(rest.length, 'more group')} of ${plural(
          rest.reduce((s, g) => s + g.count, 0),
          'node',
        )} (the JSON output lists every node)</li>`
      : '';
  return (
    `<section class="detail" id="c-${p}-${k}"><h3><code>${escapeHtml(serviceName(w))}</code> on pool <code>${escapeHtml(r.poolNames[p])}</code></h3>\n` +
    `<ul class="groups">\n${items}${more}\n</ul></section>\n`
  );
}

function writeDetails(r: Rendering): void {
  const workloads = r.input.report.workloads;
  let detailSections = 0;
  r.poolNames.forEach((_pool, p) =>
    workloads.forEach((w, k) => {
      if (w.status !== WorkloadStatus.INVALID && r.cells[p][k].groups.size > 0) detailSections++;
    }),
  );
  r.write(
    `<section id="details" class="deferred" style="${deferredSize(detailSections * DETAIL_SECTION_PX)}"><h2>Nodes and reasons</h2>\n<p>Per pool and DaemonSet, the nodes grouped by status and reason, ` +
      `with up to ${SAMPLE_NAMES} node names per group.</p>\n`,
  );
  r.poolNames.forEach((_pool, p) => workloads.forEach((_w, k) => r.write(detailSection(r, p, k))));
  r.write('</section>\n');
}

/**
 * Renders the HTML coverage report, handing it to `write` in pieces (never one string for the whole report).
 */
function renderCoverageHtml(input: CoverageHtmlInput, write: (text: string) => void, options: { title?: string } = {}): void {
  const { report, poolOf } = input;
  const poolNames = [...new Set(poolOf)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const nodesPerPool = new Map<string, number>();
  for (const p of poolOf) nodesPerPool.set(p, (nodesPerPool.get(p) ?? 0) + 1);
  const colours = new Map(report.workloads.map((w, k) => [serviceName(w), PALETTE[k % PALETTE.length]]));
  const colourOf = (name: string) => colours.get(name) ?? PALETTE[PALETTE.length - 1];
  const r: Rendering = { input, poolNames, cells: buildCells(report, poolOf, poolNames), nodesPerPool, colourOf, write };
  writeHeader(r, options.title ?? 'Node-service coverage');
  writeMatrix(r);
  writeTax(r);
  writeDaemonSets(r);
  writeDetails(r);
  if (report.warnings.length > 0) {
    write(
      `<section id="warnings"><h2>Warnings</h2>\n<ul>${report.warnings.map((x) => `<li>${escapeHtml(x)}</li>`).join('\n')}</ul></section>\n`,
    );
  }
  write('<footer>Generated by <code>node-services coverage --output html</code>; the same facts as <code>--output json</code>.</footer>\n');
}

/** The HTML coverage report as one page (see {@link renderCoverageHtml}), written through `write`. */
export function writeCoverageHtmlPage(input: CoverageHtmlInput, write: (text: string) => void): void {
  const page = htmlPage('Node-service coverage', '\u0000');
  const [head, tail] = page.split('\u0000');
  write(head);
  renderCoverageHtml(input, write);
  write(tail);
}

/** One cluster of a fleet's HTML coverage report. */
export interface ClusterCoverageHtml {
  /** The cluster's name (its folder's name). */
  readonly name: string;
  /** Its coverage report and node tax. */
  readonly input: CoverageHtmlInput;
}

/**
 * The HTML coverage report of several clusters as one page: a list of the clusters, then per cluster its own report
 * (matrix, node tax, DaemonSets, nodes and reasons) in a section of its own, with anchors unique to the cluster.
 * `clusters` is read once, in order, so that each cluster's report can be built when it is rendered.
 */
export function writeCoverageHtmlClustersPage(
  clusters: Iterable<ClusterCoverageHtml>,
  names: readonly string[],
  write: (text: string) => void,
): void {
  const page = htmlPage(`Node-service coverage of ${plural(names.length, 'cluster')}`, '\u0000');
  const [head, tail] = page.split('\u0000');
  write(head);
  write(
    `<header><h1>Node-service coverage of ${plural(names.length, 'cluster')}</h1></header>\n<nav><ul>` +
      names.map((n, i) => `<li><a href="#cluster-${i}">Cluster <code>${escapeHtml(n)}</code></a></li>`).join('') +
      '</ul></nav>\n',
  );
  let i = 0;
  for (const cluster of clusters) {
    const prefix = `cluster-${i}-`;
    write(`<section class="cluster" id="cluster-${i}" data-cluster="${escapeHtml(cluster.name)}">\n`);
    // Every anchor of the cluster's report gets the cluster's prefix (user text is escaped, so it holds no `id="`).
    renderCoverageHtml(cluster.input, (text) => write(text.replace(/ id="/g, ` id="${prefix}`).replace(/ href="#/g, ` href="#${prefix}`)), {
      title: `Cluster ${cluster.name}`,
    });
    write('</section>\n');
    i++;
  }
  write(tail);
}
