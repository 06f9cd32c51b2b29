/**
 * Renderings of the day-2 reports: `diff` as text, JSON, Markdown (for a pull-request comment) and SARIF 2.1.0;
 * `plan` as text and JSON. The JSON outputs are the report objects as they are (their shapes are documented in the
 * README and checked by a test).
 */

import { ListOrder } from '../k8s/list-keys';
import { sarifLog, sarifPhysicalLocation } from '../manifests/sarif';
import { JsonChange, reorderOf } from './changes';
import { ChangeKind, DaemonSetDiff, DiffReport, NodeImpact } from './diff';
import { PoolNodes, shortJson } from './objects';
import { PlanReport, RolloutPlan } from './plan';

const CHANGE_WORDS: Record<ChangeKind, string> = {
  [ChangeKind.ADDED]: 'added',
  [ChangeKind.REMOVED]: 'removed',
  [ChangeKind.ROLLOUT]: 'pod template changed: rollout',
  [ChangeKind.CONFIG]: 'configuration only (config hash moved): rollout',
  [ChangeKind.METADATA]: 'changed without a rollout (pod template unchanged)',
};

/** At most this many changed fields are listed per DaemonSet in text and Markdown. */
const MAX_CHANGES = 15;
/** At most this many characters of the item keys of a reordered list (old and new order each). */
const MAX_ORDER = 240;
/** At most this many node names are listed per pool in text and Markdown. */
const MAX_NODES = 10;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function nodeList(nodes: readonly string[]): string {
  const shown = nodes.slice(0, MAX_NODES).join(', ');
  return nodes.length > MAX_NODES ? `${shown}, … (${nodes.length - MAX_NODES} more)` : shown;
}

function impactLines(impact: NodeImpact): Array<[string, PoolNodes[]]> {
  return [
    ['restart', impact.restart],
    ['start', impact.start],
    ['stop', impact.stop],
  ].filter(([, pools]) => (pools as PoolNodes[]).length > 0) as Array<[string, PoolNodes[]]>;
}

function count(pools: readonly PoolNodes[]): number {
  return pools.reduce((n, p) => n + p.nodes.length, 0);
}

function summaryLine(report: DiffReport): string {
  const by = (kind: ChangeKind) => report.daemonSets.filter((d) => d.change === kind).length;
  const parts = [
    `${by(ChangeKind.ADDED)} added`,
    `${by(ChangeKind.REMOVED)} removed`,
    `${by(ChangeKind.ROLLOUT) + by(ChangeKind.CONFIG)} rolled out (${by(ChangeKind.CONFIG)} configuration only)`,
    `${by(ChangeKind.METADATA)} changed without a rollout`,
    `${report.unchanged} unchanged`,
  ];
  const selector = report.daemonSets.filter((d) => d.selectorChanged).length;
  const widening = report.daemonSets.filter((d) => d.widenings.length > 0).length;
  const line = `DaemonSets: ${parts.join(', ')}; ${plural(selector, 'selector change')}, ${widening} with security widening.`;
  const defaults = report.apiDefaults ?? 0;
  return defaults === 0
    ? line
    : `${line}\n${plural(defaults, 'field')} stated on one side only at ${defaults === 1 ? 'its' : 'their'} Kubernetes default (the API server stores the same object either way): not counted as ${defaults === 1 ? 'a change' : 'changes'}.`;
}

/** What a reorder means for the pods, in words. */
function reorderWords(change: JsonChange): string | undefined {
  const reorder = reorderOf(change);
  if (reorder === undefined) return undefined;
  return reorder.order === ListOrder.MEANINGFUL
    ? `the order matters: ${reorder.note}`
    : `${reorder.note}, but the pod template changed, so the pods are replaced`;
}

/**
 * One changed field as a text line: `+` an added field or list item, `-` a removed one, `~` a changed value or a
 * reordered list (with what the order means).
 */
function changeLine(c: JsonChange): string {
  const reorder = reorderOf(c);
  if (reorder !== undefined)
    return `~ ${reorder.list}: reordered ${shortJson(c.old, MAX_ORDER)} → ${shortJson(c.new, MAX_ORDER)} (${reorderWords(c)})`;
  if (c.old === undefined) return `+ ${c.path}: ${shortJson(c.new)}`;
  if (c.new === undefined) return `- ${c.path}: ${shortJson(c.old)}`;
  return `~ ${c.path}: ${shortJson(c.old)} → ${shortJson(c.new)}`;
}

/** How a DaemonSet changed, in words. */
function changeWords(d: DaemonSetDiff): string {
  if (d.change === ChangeKind.METADATA && d.changes.length === 0) {
    return d.widenings.length > 0 ? 'unchanged, but its access changed (RBAC or namespace)' : 'unchanged, but its configuration changed';
  }
  return CHANGE_WORDS[d.change];
}

/** What a configuration change means for the running pods. */
function configWords(d: DaemonSetDiff): string {
  const what = d.configChanged.join(', ');
  if (d.change === ChangeKind.ROLLOUT || d.change === ChangeKind.CONFIG) return `${what} changed (the rollout restarts the pods with it)`;
  return `${what} changed, but the pod template did not: the pods are not restarted (a mounted ConfigMap or Secret is refreshed by the kubelet, environment variables never); add a checksum annotation to roll them`;
}

function diffBlock(d: DaemonSetDiff): string[] {
  const lines = [`DaemonSet ${d.namespace}/${d.name}: ${changeWords(d)}`];
  if (d.selectorChanged)
    lines.push(
      '  ERROR spec.selector changed: the API server refuses the update (the selector is immutable); delete and re-create the DaemonSet',
    );
  for (const w of d.widenings) lines.push(`  WIDENING ${w.category}: ${w.detail} (${w.path})`);
  if (d.configChanged.length > 0) lines.push(`  config: ${configWords(d)}`);
  for (const c of d.changes.slice(0, MAX_CHANGES)) lines.push(`  ${changeLine(c)}`);
  if (d.changes.length > MAX_CHANGES) lines.push(`  … ${d.changes.length - MAX_CHANGES} more changed fields`);
  if (d.nodes) {
    for (const [verb, pools] of impactLines(d.nodes)) {
      lines.push(`  ${verb} on ${plural(count(pools), 'node')}:`);
      for (const p of pools) lines.push(`    ${p.pool}: ${nodeList(p.nodes)}`);
    }
  }
  return lines;
}

/** The text report of `node-services diff`. */
export function formatDiffText(report: DiffReport): string {
  const blocks = report.daemonSets.map((d) => diffBlock(d).join('\n'));
  return `${[...blocks, summaryLine(report)].join('\n\n')}\n`;
}

/** The JSON report of `node-services diff`: exactly `{daemonSets, unchanged}` (see the README). */
export function formatDiffJson(report: DiffReport): string {
  return `${JSON.stringify({ daemonSets: report.daemonSets, unchanged: report.unchanged }, null, 2)}\n`;
}

function md(text: string): string {
  return text.replace(/([\\`*_[\]|<>])/g, '\\$1');
}

/** A code span; in a table cell `|` is escaped (GFM splits cells before it parses code spans). */
function code(text: string, inTable = false): string {
  const clean = inTable ? text.replace(/\n/g, ' ').replace(/\|/g, '\\|') : text.replace(/\n/g, ' ');
  const fence = clean.includes('`') ? '``' : '`';
  return `${fence}${fence.length > 1 ? ' ' : ''}${clean}${fence.length > 1 ? ' ' : ''}${fence}`;
}

/** A Markdown table with padded columns (the layout prettier gives tables); `right` marks right-aligned columns. */
function mdTable(header: readonly string[], right: readonly boolean[], rows: readonly string[][]): string[] {
  const widths = header.map((h, c) => rows.reduce((w, r) => Math.max(w, r[c].length), Math.max(3, h.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, c) => (right[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join(' | ')} |`;
  const rule = `| ${widths.map((w, c) => (right[c] ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)];
}

/** The Markdown report of `node-services diff`, made to be posted as a pull-request comment. */
export function formatDiffMarkdown(report: DiffReport): string {
  const out: string[] = ['## node-services diff', ''];
  const selector = report.daemonSets.filter((d) => d.selectorChanged);
  const widening = report.daemonSets.filter((d) => d.widenings.length > 0);
  if (selector.length > 0) {
    out.push(
      `> [!CAUTION]\n> ${plural(selector.length, 'DaemonSet')} change${selector.length === 1 ? 's' : ''} \`spec.selector\`, which is immutable: ` +
        'the API server refuses the update. Delete and re-create ' +
        `${selector.map((d) => code(`${d.namespace}/${d.name}`)).join(', ')} (every covered node loses the pod meanwhile).`,
      '',
    );
  }
  if (widening.length > 0) {
    out.push(`> [!WARNING]\n> Security widening in ${widening.map((d) => code(`${d.namespace}/${d.name}`)).join(', ')}.`, '');
  }
  if (report.daemonSets.length === 0) {
    out.push(`No DaemonSet changes (${plural(report.unchanged, 'DaemonSet')} unchanged).`, '');
    return `${out.join('\n')}\n`;
  }
  const hasNodes = report.daemonSets.some((d) => d.nodes !== undefined);
  const rows = report.daemonSets.map((d) => {
    const change = `${md(changeWords(d))}${d.selectorChanged ? ' — **selector changed**' : ''}`;
    const wideningCell = d.widenings.length === 0 ? '—' : [...new Set(d.widenings.map((w) => w.category))].join(', ');
    const n = (pools: PoolNodes[] | undefined) => String(count(pools ?? []));
    const name = code(`${d.namespace}/${d.name}`, true);
    return hasNodes ? [name, change, n(d.nodes?.restart), n(d.nodes?.start), n(d.nodes?.stop), wideningCell] : [name, change, wideningCell];
  });
  out.push(
    ...(hasNodes
      ? mdTable(['DaemonSet', 'Change', 'Restarts', 'Starts', 'Stops', 'Widening'], [false, false, true, true, true, false], rows)
      : mdTable(['DaemonSet', 'Change', 'Widening'], [false, false, false], rows)),
  );
  out.push('', md(summaryLine(report)), '');
  for (const d of report.daemonSets) {
    out.push(`### ${code(`${d.namespace}/${d.name}`)}: ${md(changeWords(d))}`, '');
    if (d.selectorChanged)
      out.push('- :x: `spec.selector` changed: the API server refuses the update; delete and re-create the DaemonSet.');
    for (const w of d.widenings) out.push(`- :warning: **${w.category}**: ${md(w.detail)} (${code(w.path)})`);
    if (d.configChanged.length > 0) out.push(`- configuration: ${md(configWords(d))}`);
    if (d.nodes) {
      for (const [verb, pools] of impactLines(d.nodes)) {
        out.push(
          `- ${verb} on ${plural(count(pools), 'node')}: ${pools.map((p) => `${code(p.pool)} (${p.nodes.length}: ${md(nodeList(p.nodes))})`).join('; ')}`,
        );
      }
    }
    for (const c of d.changes) {
      const reorder = reorderOf(c);
      if (reorder !== undefined) out.push(`- reordered ${code(reorder.list)}: ${md(reorderWords(c) ?? '')}`);
    }
    if (d.changes.length > 0) {
      const fields = d.changes
        .slice(0, MAX_CHANGES)
        .map((c) => [code(c.path, true), code(shortJson(c.old), true), code(shortJson(c.new), true)]);
      if (d.changes.length > MAX_CHANGES) fields.push([`… ${d.changes.length - MAX_CHANGES} more`, '', '']);
      out.push('', '<details><summary>Changed fields</summary>', '', ...mdTable(['Field', 'Old', 'New'], [false, false, false], fields));
      out.push('', '</details>');
    }
    out.push('');
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

const SARIF_RULES = [
  {
    id: 'daemonset-selector-changed',
    level: 'error',
    text: 'spec.selector of a DaemonSet changed; the API server refuses the update (the selector is immutable)',
  },
  {
    id: 'daemonset-security-widening',
    level: 'warning',
    text: 'the new version of the DaemonSet has host access, privilege or API permissions the old one did not',
  },
  { id: 'daemonset-rollout', level: 'note', text: 'the pod template changed: the pod restarts on every covered node' },
];

/** SARIF 2.1.0 for code scanning: selector changes (error), widening (warning), rollouts (note), on the new file. */
export function formatDiffSarif(report: DiffReport, toolVersion: string): string {
  const results: unknown[] = [];
  for (const d of report.daemonSets) {
    const physicalLocation = sarifPhysicalLocation(d.file ?? '-', d.line);
    const name = `DaemonSet ${d.namespace}/${d.name}`;
    const push = (ruleIndex: number, text: string, path: string) =>
      results.push({
        ruleId: SARIF_RULES[ruleIndex].id,
        ruleIndex,
        level: SARIF_RULES[ruleIndex].level,
        message: { text: `${name}: ${text}` },
        locations: [
          {
            physicalLocation,
            logicalLocations: [{ name: path, fullyQualifiedName: `DaemonSet/${d.namespace}/${d.name}:${path}`, kind: 'member' }],
          },
        ],
      });
    if (d.selectorChanged) push(0, 'spec.selector changed; delete and re-create the DaemonSet', 'spec.selector');
    for (const w of d.widenings) push(1, `${w.category}: ${w.detail}`, w.path);
    if (d.change === ChangeKind.ROLLOUT || d.change === ChangeKind.CONFIG) push(2, CHANGE_WORDS[d.change], 'spec.template');
  }
  const rules = SARIF_RULES.map((r) => ({ id: r.id, shortDescription: { text: r.text }, defaultConfiguration: { level: r.level } }));
  return sarifLog({ name: 'node-services diff', version: toolVersion, rules }, results);
}

/** `1h 02m 05s`, `4m 10s`, `40s`. */
function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m ${String(s).padStart(2, '0')}s`;
  if (m > 0) return `${m}m ${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

const OUTCOME_WORDS: Record<RolloutPlan['outcome'], string> = {
  complete: 'completes',
  stuck: 'STUCK',
  manual: 'manual (OnDelete)',
  unchanged: 'no rollout',
  invalid: 'INVALID',
};

function planBlock(p: RolloutPlan, pullSeconds: number, readySeconds: number): string[] {
  const perPod = pullSeconds + readySeconds + p.minReadySeconds;
  const lines = [`DaemonSet ${p.namespace}/${p.name}: ${OUTCOME_WORDS[p.outcome]} — ${p.because}`];
  if (p.outcome !== 'unchanged' && p.outcome !== 'invalid') {
    lines.push(
      `  strategy ${p.strategy}, desired ${p.desired}, maxUnavailable ${p.maxUnavailable}, maxSurge ${p.maxSurge}, ` +
        `to update ${p.toUpdate}, unavailable at start ${p.unavailableAtStart.length}`,
    );
  }
  if (p.waves.length > 0) {
    lines.push(`  ${plural(p.waves.length, 'wave')}:`);
    const shown = p.waves.length > 12 ? [...p.waves.slice(0, 10), undefined, p.waves[p.waves.length - 1]] : p.waves;
    for (const w of shown)
      lines.push(w === undefined ? `    … ${p.waves.length - 11} more waves` : `    wave ${w.wave}: ${nodeList(w.nodes)}`);
  }
  if (p.estimatedSeconds !== null) {
    lines.push(
      `  estimate: ${formatDuration(p.estimatedSeconds)} (${plural(p.waves.length, 'wave')} × ${perPod}s: ${pullSeconds}s pull + ` +
        `${readySeconds}s ready + ${p.minReadySeconds}s minReadySeconds)`,
    );
  }
  if (p.outcome === 'stuck') {
    lines.push(
      `  the rollout cannot progress; ${plural(p.neverUpdated.length, 'node')} ${p.neverUpdated.length === 1 ? 'keeps' : 'keep'} the old pod: ${nodeList(p.neverUpdated)}`,
    );
    lines.push('  held by:');
    for (const b of p.blockedBy) lines.push(`    ${b.node}: ${b.reason}`);
  }
  const unfit = new Map<string, string[]>();
  for (const u of p.unfit) {
    const why = `${u.reason}: ${u.detail}`;
    unfit.set(why, [...(unfit.get(why) ?? []), u.node]);
  }
  for (const [why, nodes] of unfit) lines.push(`  cannot be placed on ${plural(nodes.length, 'node')} (${nodeList(nodes)}): ${why}`);
  if (p.canary) {
    lines.push(
      `  canary of ${p.canary.stable} by node label ${p.canary.label}: ${plural(p.canary.labelled.length, 'node')} labelled, ${plural(p.canary.waves.length, 'wave')} to go`,
    );
    for (const c of p.canary.commands) lines.push(`    ${c}`);
    if (p.canary.rollback) lines.push(`    rollback: ${p.canary.rollback}`);
  }
  for (const n of p.notes) lines.push(`  note: ${n}`);
  return lines;
}

/** The text report of `node-services plan`: a block per DaemonSet that rolls (or is a canary), one line for the rest. */
export function formatPlanText(report: PlanReport): string {
  const { pullSeconds, readySeconds } = report.assumptions;
  const quiet = report.daemonSets.filter((p) => p.outcome === 'unchanged' && p.canary === undefined && p.notes.length === 0);
  const blocks = report.daemonSets.filter((p) => !quiet.includes(p)).map((p) => planBlock(p, pullSeconds, readySeconds).join('\n'));
  if (quiet.length > 0) blocks.push(`No rollout (pod template unchanged): ${quiet.map((p) => `${p.namespace}/${p.name}`).join(', ')}`);
  const count = (...outcomes: string[]) => report.daemonSets.filter((p) => outcomes.includes(p.outcome)).length;
  const summary =
    `${plural(report.daemonSets.length, 'DaemonSet')}: ${count('complete', 'stuck')} rolling out (${count('stuck')} stuck), ` +
    `${count('manual')} manual (OnDelete), ${count('invalid')} invalid. ` +
    `Per pod: ${pullSeconds}s image pull + ${readySeconds}s to Ready + minReadySeconds.`;
  return `${[...blocks, summary].join('\n\n')}\n`;
}

/** The JSON report of `node-services plan`: exactly `{assumptions, daemonSets}` (see the README). */
export function formatPlanJson(report: PlanReport): string {
  return `${JSON.stringify({ assumptions: report.assumptions, daemonSets: report.daemonSets }, null, 2)}\n`;
}
