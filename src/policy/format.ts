/**
 * Report formats for the CLI: text grouped per object (colours only on a terminal), JSON, and SARIF 2.1.0 for code
 * scanning. Pure functions over a {@link PolicyReport} and the source location of each checked manifest.
 */

import { CheckedObject, describeKind, describeObject, Finding, PolicyReport } from './engine';
import { RULES } from './rules';
import { sarifLog, sarifPhysicalLocation } from '../manifests/sarif';
import { Severity } from './types';

/** Where a manifest came from. */
export interface ManifestSource {
  /** The file (`-` for stdin). */
  readonly file: string;
  /** 1-based line of the object's document, when known. */
  readonly line?: number;
  /**
   * The line and column of a field of the object, by the JSON path a rule reported (the nearest existing ancestor
   * when the field is missing).
   *
   * @default - findings point at the object's line
   */
  readonly locate?: (path: string) => { readonly line: number; readonly column: number } | undefined;
}

/** An input that could not be read, for the reports. */
export interface InputProblem {
  /** The file (`-` for stdin; empty when about the inputs as a whole). */
  readonly file: string;
  /** 1-based line, when known. */
  readonly line?: number;
  /** 1-based column, when known. */
  readonly column?: number;
  /** What is wrong. */
  readonly message: string;
}

/** Where a finding is: file, line and column of its field when known, else of its object. */
function findingLocation(f: Finding, sources: readonly ManifestSource[]): { file?: string; line?: number; column?: number } {
  const source = sources[f.objectIndex];
  if (!source) return {};
  const at = f.path && source.locate ? source.locate(f.path) : undefined;
  return at ? { file: source.file, line: at.line, column: at.column } : { file: source.file, line: source.line };
}

function displayFile(file: string): string {
  return file === '-' ? '<stdin>' : file;
}

function fileLineColumn(where: { file?: string; line?: number; column?: number }): string {
  if (where.file === undefined) return '';
  return `${displayFile(where.file)}${where.line ? `:${where.line}${where.column ? `:${where.column}` : ''}` : ''}`;
}

/** Options of {@link formatText}. */
export interface TextFormatOptions {
  /** Whether to use ANSI colours. */
  readonly color: boolean;
  /**
   * Whether to show error findings only (the summary still counts everything).
   *
   * @default false
   */
  readonly quiet?: boolean;
}

/** Options of {@link formatJson}. */
export interface JsonFormatOptions {
  /**
   * Whether to list error findings only (the summary still counts everything).
   *
   * @default false
   */
  readonly quiet?: boolean;
  /**
   * Inputs that could not be read.
   *
   * @default - none
   */
  readonly problems?: readonly InputProblem[];
}

/** Whether a finding is shown under `quiet`. */
function shown(f: Finding, quiet: boolean | undefined): boolean {
  return !quiet || (!f.suppressed && f.severity === Severity.ERROR);
}

const SUPPRESSION_REASON_WIDTH = 100;

const ANSI = { red: '\u001b[31m', yellow: '\u001b[33m', cyan: '\u001b[36m', gray: '\u001b[90m', bold: '\u001b[1m', reset: '\u001b[0m' };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function location(source: ManifestSource | undefined): string {
  if (!source) return '';
  const file = source.file === '-' ? '<stdin>' : source.file;
  return source.line ? `${file}:${source.line}` : file;
}

/** The one-line summary of a report, and the kinds the DaemonSets were checked as. */
function summaryLine(report: PolicyReport): string {
  const counts = new Map<string, number>();
  for (const o of report.objects ?? []) {
    const key = `${o.serviceKind}${o.kindSource === 'default' ? '' : ` (${o.kindSource})`}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const kinds = [...counts].map(([k, n]) => `${n} ${k}`).join(', ');
  return (
    `${plural(report.checkedObjects, 'DaemonSet')} checked, ${plural(report.skippedObjects, 'other object')} skipped: ` +
    `${plural(report.errorCount, 'error')}, ${plural(report.warningCount, 'warning')}, ${report.infoCount} info, ${report.suppressedCount} suppressed` +
    (kinds ? `\nkinds: ${kinds}` : '')
  );
}

/** Text output: findings grouped per object (errors first) with the kind each was checked as, then a summary line. */
export function formatText(report: PolicyReport, sources: readonly ManifestSource[], options: TextFormatOptions): string {
  const paint = (color: keyof typeof ANSI, text: string) => (options.color ? `${ANSI[color]}${text}${ANSI.reset}` : text);
  const severityColor: Record<Severity, keyof typeof ANSI> = { error: 'red', warning: 'yellow', info: 'cyan' };
  const groups = new Map<number, Finding[]>();
  for (const f of report.findings) {
    if (!shown(f, options.quiet)) continue;
    const list = groups.get(f.objectIndex);
    if (list) list.push(f);
    else groups.set(f.objectIndex, [f]);
  }
  const kinds = new Map<number, CheckedObject>((report.objects ?? []).map((o) => [o.objectIndex, o]));
  const lines: string[] = [];
  const rank = (f: Finding) => (f.suppressed ? 3 : f.severity === Severity.ERROR ? 0 : f.severity === Severity.WARNING ? 1 : 2);
  for (const [index, unsorted] of groups) {
    // Errors first, then warnings, info and suppressed findings; catalogue order within each (the sort is stable).
    const findings = [...unsorted].sort((a, b) => rank(a) - rank(b));
    const where = location(sources[index]);
    const checked = kinds.get(index);
    lines.push(paint('bold', `${describeObject(findings[0].object)}${where ? `  (${where})` : ''}`));
    if (checked) lines.push(paint('gray', `  kind: ${describeKind(checked)}`));
    const suppressed = new Map<string, { count: number; reason: string }>();
    for (const f of findings) {
      if (f.suppressed) {
        const entry = suppressed.get(f.ruleId);
        if (entry) entry.count++;
        else suppressed.set(f.ruleId, { count: 1, reason: f.suppressionReason ?? '' });
        continue;
      }
      const at = fileLineColumn(findingLocation(f, sources));
      lines.push(`  ${paint(severityColor[f.severity], f.severity.padEnd(8))} ${f.ruleId}  ${f.path}`);
      lines.push(`           ${at ? `${at}: ` : ''}${f.message}`);
      lines.push(paint('gray', `           fix: ${f.fix}`));
    }
    for (const [ruleId, { count, reason }] of suppressed) {
      const short = reason.length > SUPPRESSION_REASON_WIDTH ? `${reason.slice(0, SUPPRESSION_REASON_WIDTH - 1)}…` : reason;
      lines.push(paint('gray', `  suppressed ${ruleId}${count > 1 ? ` (${count} findings)` : ''}: ${short}`));
    }
    lines.push('');
  }
  lines.push(summaryLine(report));
  return `${lines.join('\n')}\n`;
}

/**
 * JSON output: a summary, every checked object with its kind, every finding with the file, line and column of its
 * field (and the line of its object), and the inputs that could not be read.
 */
export function formatJson(report: PolicyReport, sources: readonly ManifestSource[], options: JsonFormatOptions = {}): string {
  const findings = report.findings
    .filter((f) => shown(f, options.quiet))
    .map((f) => {
      const at = findingLocation(f, sources);
      return {
        ruleId: f.ruleId,
        severity: f.severity,
        category: f.category,
        title: f.title,
        object: f.object,
        serviceKind: f.serviceKind,
        kindSource: f.kindSource,
        file: at.file,
        line: at.line,
        column: at.column,
        objectLine: sources[f.objectIndex]?.line,
        path: f.path,
        message: f.message,
        fix: f.fix,
        suppressed: f.suppressed,
        suppressionReason: f.suppressionReason,
      };
    });
  const summary = {
    checkedObjects: report.checkedObjects,
    skippedObjects: report.skippedObjects,
    errors: report.errorCount,
    warnings: report.warningCount,
    info: report.infoCount,
    suppressed: report.suppressedCount,
    inputProblems: options.problems?.length ?? 0,
  };
  const objects = (report.objects ?? []).map((o) => ({
    object: o.object,
    file: sources[o.objectIndex]?.file,
    line: sources[o.objectIndex]?.line,
    serviceKind: o.serviceKind,
    kindSource: o.kindSource,
    kindEvidence: o.kindEvidence || undefined,
  }));
  return `${JSON.stringify({ summary, objects, findings, problems: options.problems ?? [] }, null, 2)}\n`;
}

const SARIF_LEVEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'note' };

/** Options of {@link formatSarif}. */
export interface SarifOptions {
  /** The tool version recorded in the log. */
  readonly toolVersion: string;
  /**
   * Whether to list error findings only.
   *
   * @default false
   */
  readonly quiet?: boolean;
  /**
   * Inputs that could not be read (reported as tool execution notifications).
   *
   * @default - none
   */
  readonly problems?: readonly InputProblem[];
}

/** SARIF 2.1.0 output for code scanning: the catalogue as `tool.driver.rules`, one result per finding. */
export function formatSarif(report: PolicyReport, sources: readonly ManifestSource[], options: SarifOptions): string {
  // Loaded here: only SARIF output needs hashing, and the CLI's start-up time matters.
  const { createHash } = require('crypto') as typeof import('crypto');
  const ruleIndex = new Map<string, number>(RULES.map((r, i) => [r.id, i]));
  const rules = RULES.map((r) => ({
    id: r.id,
    name: r.id
      .split('-')
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(''),
    shortDescription: { text: r.title },
    fullDescription: { text: r.rationale },
    help: { text: `${r.fix}\n\nExample:\n${r.example}` },
    defaultConfiguration: { level: SARIF_LEVEL[r.severity] },
    properties: { category: r.category, suppressible: r.suppressible, tags: ['kubernetes', 'daemonset', r.category] },
  }));
  const results = report.findings
    .filter((f) => shown(f, options.quiet))
    .map((f) => {
      const source = sources[f.objectIndex];
      const at = findingLocation(f, sources);
      const physicalLocation = sarifPhysicalLocation(source?.file ?? '-', at.line, at.column);
      const objectName = `${f.object.kind}/${f.object.namespace ? `${f.object.namespace}/` : ''}${f.object.name}`;
      const result: Record<string, unknown> = {
        ruleId: f.ruleId,
        ruleIndex: ruleIndex.get(f.ruleId),
        level: SARIF_LEVEL[f.severity],
        message: { text: `${describeObject(f.object)}: ${f.message} (at ${f.path}). Fix: ${f.fix}` },
        locations: [
          {
            physicalLocation,
            logicalLocations: [{ name: f.path, fullyQualifiedName: `${objectName}:${f.path}`, kind: 'member' }],
          },
        ],
        partialFingerprints: {
          'nodeServicesFinding/v1': createHash('sha256').update(`${f.ruleId}\u0000${objectName}\u0000${f.path}`).digest('hex').slice(0, 32),
        },
      };
      if (f.suppressed) result.suppressions = [{ kind: 'inSource', justification: f.suppressionReason }];
      result.properties = { nodeServiceKind: f.serviceKind, kindSource: f.kindSource };
      return result;
    });
  const problems = options.problems ?? [];
  const invocation: Record<string, unknown> = { executionSuccessful: problems.length === 0 };
  if (problems.length > 0) {
    invocation.toolExecutionNotifications = problems.map((p) => {
      const n: Record<string, unknown> = { level: 'error', message: { text: p.message } };
      if (p.file) {
        n.locations = [{ physicalLocation: sarifPhysicalLocation(p.file, p.line, p.column) }];
      }
      return n;
    });
  }
  return sarifLog({ name: 'node-services', version: options.toolVersion, rules }, results, [invocation]);
}
