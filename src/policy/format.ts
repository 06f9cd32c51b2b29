/**
 * Report formats for the CLI: text grouped per object (colours only on a terminal), JSON, and SARIF 2.1.0 for code
 * scanning. Pure functions over a {@link PolicyReport} and the source location of each checked manifest.
 */

import { describeObject, Finding, PolicyReport } from './engine';
import { RULES } from './rules';
import { Severity } from './types';

/** Where a manifest came from. */
export interface ManifestSource {
  /** The file (`-` for stdin). */
  readonly file: string;
  /** 1-based line of the object's document, when known. */
  readonly line?: number;
}

/** Options of {@link formatText}. */
export interface TextFormatOptions {
  /** Whether to use ANSI colours. */
  readonly color: boolean;
}

const ANSI = { red: '\u001b[31m', yellow: '\u001b[33m', cyan: '\u001b[36m', gray: '\u001b[90m', bold: '\u001b[1m', reset: '\u001b[0m' };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function location(source: ManifestSource | undefined): string {
  if (!source) return '';
  const file = source.file === '-' ? '<stdin>' : source.file;
  return source.line ? `${file}:${source.line}` : file;
}

/** The one-line summary of a report. */
function summaryLine(report: PolicyReport): string {
  return (
    `${plural(report.checkedObjects, 'DaemonSet')} checked, ${plural(report.skippedObjects, 'other object')} skipped: ` +
    `${plural(report.errorCount, 'error')}, ${plural(report.warningCount, 'warning')}, ${report.infoCount} info, ${report.suppressedCount} suppressed`
  );
}

/** Text output: findings grouped per object (errors first), then a summary line. */
export function formatText(report: PolicyReport, sources: readonly ManifestSource[], options: TextFormatOptions): string {
  const paint = (color: keyof typeof ANSI, text: string) => (options.color ? `${ANSI[color]}${text}${ANSI.reset}` : text);
  const severityColor: Record<Severity, keyof typeof ANSI> = { error: 'red', warning: 'yellow', info: 'cyan' };
  const groups = new Map<number, Finding[]>();
  for (const f of report.findings) {
    const list = groups.get(f.objectIndex);
    if (list) list.push(f);
    else groups.set(f.objectIndex, [f]);
  }
  const lines: string[] = [];
  const rank = (f: Finding) => (f.suppressed ? 3 : f.severity === Severity.ERROR ? 0 : f.severity === Severity.WARNING ? 1 : 2);
  for (const [index, unsorted] of groups) {
    // Errors first, then warnings, info and suppressed findings; catalogue order within each (the sort is stable).
    const findings = [...unsorted].sort((a, b) => rank(a) - rank(b));
    const where = location(sources[index]);
    lines.push(paint('bold', `${describeObject(findings[0].object)}${where ? `  (${where})` : ''}`));
    for (const f of findings) {
      if (f.suppressed) {
        lines.push(paint('gray', `  suppressed ${f.ruleId} at ${f.path}: ${f.suppressionReason}`));
        continue;
      }
      lines.push(`  ${paint(severityColor[f.severity], f.severity.padEnd(8))} ${f.ruleId}  ${f.path}`);
      lines.push(`           ${f.message}`);
      lines.push(paint('gray', `           fix: ${f.fix}`));
    }
    lines.push('');
  }
  lines.push(summaryLine(report));
  return `${lines.join('\n')}\n`;
}

/** JSON output: a summary and every finding with its file and line. */
export function formatJson(report: PolicyReport, sources: readonly ManifestSource[]): string {
  const findings = report.findings.map((f) => ({
    ruleId: f.ruleId,
    severity: f.severity,
    category: f.category,
    title: f.title,
    object: f.object,
    file: sources[f.objectIndex]?.file,
    line: sources[f.objectIndex]?.line,
    path: f.path,
    message: f.message,
    fix: f.fix,
    suppressed: f.suppressed,
    suppressionReason: f.suppressionReason,
  }));
  const summary = {
    checkedObjects: report.checkedObjects,
    skippedObjects: report.skippedObjects,
    errors: report.errorCount,
    warnings: report.warningCount,
    info: report.infoCount,
    suppressed: report.suppressedCount,
  };
  return `${JSON.stringify({ summary, findings }, null, 2)}\n`;
}

const SARIF_LEVEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'note' };

function artifactUri(file: string): string {
  if (file === '-') return 'stdin';
  return encodeURI(file.replace(/\\/g, '/')).replace(/#/g, '%23').replace(/\?/g, '%3F');
}

/** Options of {@link formatSarif}. */
export interface SarifOptions {
  /** The tool version recorded in the log. */
  readonly toolVersion: string;
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
  const results = report.findings.map((f) => {
    const source = sources[f.objectIndex];
    const physicalLocation: any = { artifactLocation: { uri: artifactUri(source?.file ?? '-') } };
    if (source?.line && source.line >= 1) physicalLocation.region = { startLine: source.line };
    const objectName = `${f.object.kind}/${f.object.namespace ? `${f.object.namespace}/` : ''}${f.object.name}`;
    const result: any = {
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
    return result;
  });
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'node-services',
            semanticVersion: options.toolVersion,
            version: options.toolVersion,
            rules,
          },
        },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
