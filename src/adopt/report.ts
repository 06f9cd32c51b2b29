/**
 * The import report: per DaemonSet the construct chosen and why, the fields stripped from a live dump, the values
 * carried through the escape hatch, the input's findings accepted with a reason, every difference of the synthesized
 * app classified, and the access added or removed. As JSON (for CI) and as Markdown (`IMPORT-REPORT.md`).
 */

import { shortJson } from '../day2/objects';
import { Widening } from '../day2/widening';
import { CheckResult } from './check';
import { ClassifiedChange, DifferenceClass } from './classify';
import { FixedService } from './fixpoint';
import { StrippedField } from './input';
import { LintError, LintResult } from './lint';
import { ProposedPool } from './pools';
import { missingProblem, TargetVersion } from './target';

/** The report of one imported DaemonSet. */
export interface ServiceReport {
  /** `namespace/name`. */
  readonly daemonSet: string;
  /** The input file. */
  readonly file: string;
  /** The generated module. */
  readonly module: string;
  /** The construct and kind used. */
  readonly construct: string;
  /** The kind. */
  readonly kind: string;
  /** Why this kind. */
  readonly reason: string;
  /** Why this construct (a preset, or NodeService and what the preset would change). */
  readonly constructReason: string;
  /** How its node selection is expressed with `--nodes` (as pools, or kept and why); absent without nodes. */
  readonly placement?: string;
  /** How its ServiceAccount's permissions are built (as `apiAccess`, or kept as they are and why); absent without RBAC. */
  readonly apiAccess?: string;
  /** Objects kept with it, by `Kind name`. */
  readonly objects: string[];
  /** Values carried through the escape hatch. */
  readonly escapeHatch: Array<{ op: string; path: string; why: string }>;
  /** The input's rule findings accepted with a reason. */
  readonly carried: Array<{ ruleId: string; message: string }>;
  /** Every difference, classified (absent without `--check`). */
  readonly differences?: ClassifiedChange[];
  /** Access added. */
  readonly accessAdded?: Widening[];
  /** Access removed. */
  readonly accessRemoved?: Widening[];
}

/** The whole report. */
export interface ImportReport {
  /** One entry per DaemonSet. */
  readonly services: ServiceReport[];
  /** Objects kept as they are in `main.ts`. */
  readonly others: string[];
  /** Fields stripped because the server set them. */
  readonly stripped: StrippedField[];
  /** Whether the check ran. */
  readonly checked: boolean;
  /** Unexplained differences (the check fails when > 0). */
  readonly unexplained: number;
  /** Problems of the check that are not field differences. */
  readonly problems: string[];
  /** Objects the generated app adds. */
  readonly objectsAdded: string[];
  /** ServiceAccounts whose RBAC objects the library creates, with the same grants as the input's. */
  readonly accessReplaced: string[];
  /** The node pools proposed from `--nodes` (absent without nodes). */
  readonly pools?: ReadonlyArray<{ name: string; labels: Readonly<Record<string, string>>; taints: string[]; nodes: number }>;
  /** `lint` at error level over the synthesized app (absent without `--check`, or when it does not synthesize). */
  readonly lint?: LintResult;
  /** The Kubernetes version the generated app targets, why, and the input's fields it does not have (absent when not known). */
  readonly target?: TargetVersion;
}

/** What the check found: the comparison with the input, and the lint of the output. */
export interface ReportChecks {
  /** The comparison. */
  readonly check?: CheckResult;
  /** The lint at error level. */
  readonly lint?: LintResult;
  /** The pools proposed from `--nodes`. */
  readonly pools?: readonly ProposedPool[];
  /** The target version; each input field it does not have is a problem, with or without `--check`. */
  readonly target?: TargetVersion;
}

/** A lint error of the output as a problem line. */
function lintProblem(e: LintError): string {
  return `lint: ${e.ruleId} (error) on ${e.object} at ${e.path}: ${e.message}`;
}

/** Builds the report. */
export function buildReport(
  services: readonly FixedService[],
  others: string[],
  stripped: StrippedField[],
  checks: ReportChecks = {},
  problems: string[] = [],
): ImportReport {
  const { check, lint } = checks;
  const all = [...(checks.target?.missing ?? []).map(missingProblem), ...problems, ...(lint?.errors ?? []).map(lintProblem)];
  const out = services.map((s): ServiceReport => {
    const ds = s.input.daemonSet.object;
    const key = `${ds?.metadata?.namespace ?? 'default'}/${ds?.metadata?.name}`;
    const checked = check?.daemonSets.find((d) => d.daemonSet === key);
    return {
      daemonSet: key,
      file: s.input.daemonSet.file ?? '-',
      module: s.module.fileName,
      construct: s.module.construct,
      kind: s.choice.kind,
      reason: s.choice.reason,
      constructReason: s.construct?.reason ?? 'the generated app does not synthesize, so no preset was tried',
      apiAccess: s.access,
      placement: s.placement,
      objects: s.module.objects.map((o) => `${String(o.body.kind)} ${String((o.body.metadata as { name?: string } | undefined)?.name)}`),
      escapeHatch: s.module.patches.map((p) => ({ op: p.op, path: p.path, why: p.comment })),
      carried: s.carried.map((c) => ({ ruleId: c.ruleId, message: c.message })),
      differences: checked?.changes,
      accessAdded: checked?.accessAdded,
      accessRemoved: checked?.accessRemoved,
    };
  });
  return {
    services: out,
    others,
    stripped,
    checked: check !== undefined,
    unexplained: (check?.unexplained ?? 0) + all.length,
    problems: [...(check?.objectProblems ?? []), ...all],
    objectsAdded: check?.objectsAdded ?? [],
    accessReplaced: check?.accessReplaced ?? [],
    pools: checks.pools?.map((p) => ({
      name: p.name,
      labels: p.labels,
      taints: p.taints.map((t) => `${t.key}${t.value !== undefined ? `=${t.value}` : ''}:${t.effect}`),
      nodes: p.nodes.length,
    })),
    lint,
    target: checks.target,
  };
}

/** The report as JSON. */
export function formatReportJson(report: ImportReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

function differenceLine(c: ClassifiedChange): string {
  const rule = c.rule !== undefined ? ` (\`${c.rule}\`)` : '';
  return `- \`${c.path}\`: ${shortJson(c.input)} → ${shortJson(c.output)} — ${c.class}${rule}: ${c.why}`;
}

function serviceMarkdown(s: ServiceReport): string[] {
  const lines = [
    `## ${s.daemonSet}`,
    '',
    `From \`${s.file}\`, in \`${s.module}\`: \`${s.construct}\` (kind \`${s.kind}\`) because ${s.reason}.`,
    '',
    `Chose \`${s.construct}\`: ${s.constructReason}.`,
    '',
    ...(s.apiAccess !== undefined ? [`ServiceAccount permissions: ${s.apiAccess}.`, ''] : []),
    ...(s.placement !== undefined ? [`Placement: ${s.placement}.`, ''] : []),
  ];
  if (s.objects.length > 0) lines.push(`Kept with it: ${s.objects.map((o) => `\`${o}\``).join(', ')}.`, '');
  if (s.escapeHatch.length > 0) {
    lines.push(
      'Carried through the escape hatch (`service.daemonSet.addJsonPatch`):',
      '',
      ...s.escapeHatch.map((p) => `- ${p.op} \`${p.path}\`: ${p.why}`),
      '',
    );
  }
  if (s.carried.length > 0)
    lines.push(
      'Findings the input already had, accepted with a reason:',
      '',
      ...s.carried.map((c) => `- \`${c.ruleId}\`: ${c.message}`),
      '',
    );
  if (s.differences !== undefined) {
    const by = (k: DifferenceClass) => s.differences!.filter((c) => c.class === k);
    for (const k of [
      DifferenceClass.UNEXPLAINED,
      DifferenceClass.PLACEMENT,
      DifferenceClass.HARDENING,
      DifferenceClass.DEFAULT,
      DifferenceClass.METADATA,
    ]) {
      const list = by(k);
      if (list.length > 0) lines.push(`Differences — ${k} (${list.length}):`, '', ...list.map(differenceLine), '');
    }
    const access = (title: string, w: Widening[] | undefined) =>
      w !== undefined && w.length > 0 ? [title, '', ...w.map((x) => `- ${x.category} at \`${x.path}\`: ${x.detail}`), ''] : [];
    lines.push(
      ...access('Access the generated app adds:', s.accessAdded),
      ...access(
        'Access the input had that the generated app takes away (each line reads the input as a change from the generated app):',
        s.accessRemoved,
      ),
    );
  }
  return lines;
}

/** The lint section: passes, or the errors left; the errors carried from the input with their reason. */
function lintMarkdown(lint: LintResult | undefined): string[] {
  if (lint === undefined) return [];
  const verdict =
    lint.errors.length === 0
      ? 'The synthesized app passes `lint` at error level.'
      : `The synthesized app has **${lint.errors.length} lint error(s)** (listed above).`;
  const carried = lint.carried.map((c) => `- \`${c.ruleId}\` on ${c.object} at \`${c.path}\`: ${c.reason}`);
  return [
    '## Lint at error level',
    '',
    verdict,
    '',
    ...(carried.length > 0 ? ['Errors carried from the input, suppressed with a reason:', '', ...carried, ''] : []),
  ];
}

/** The report as Markdown. */
export function formatReportMarkdown(report: ImportReport): string {
  const lines = ['# Import report', ''];
  lines.push(
    report.checked
      ? report.unexplained === 0
        ? 'Check: the generated app synthesizes every input DaemonSet with no unexplained difference.'
        : `Check: **${report.unexplained} unexplained difference(s)**.`
      : 'Not checked (run `node-services import --check`).',
    '',
    ...(report.target !== undefined ? [`Target: ${report.target.reason}.`, ''] : []),
  );
  if (report.problems.length > 0) lines.push(...report.problems.map((p) => `- ${p}`), '');
  if (report.stripped.length > 0) {
    lines.push(
      'Fields the API server set, stripped from the input:',
      '',
      ...report.stripped.map((s) => `- ${s.object}: \`${s.field}\``),
      '',
    );
  }
  if (report.pools !== undefined) {
    const pool = (p: NonNullable<ImportReport['pools']>[number]) =>
      `- \`${p.name}\`: ${Object.entries(p.labels)
        .map(([k, v]) => `\`${k}=${v}\``)
        .join(', ')}${p.taints.length > 0 ? `, taints ${p.taints.map((t) => `\`${t}\``).join(', ')}` : ''} (${p.nodes} node(s))`;
    lines.push(
      'Node pools proposed from the node list:',
      '',
      ...(report.pools.length > 0 ? report.pools.map(pool) : ['- none (no node has a pool label)']),
      '',
    );
  }
  for (const s of report.services) lines.push(...serviceMarkdown(s));
  if (report.others.length > 0)
    lines.push('## Other objects', '', 'Kept as they are in `main.ts`:', '', ...report.others.map((o) => `- ${o}`), '');
  if (report.accessReplaced.length > 0) lines.push('## RBAC the library creates', '', ...report.accessReplaced.map((o) => `- ${o}`), '');
  if (report.objectsAdded.length > 0) lines.push('## Objects the generated app adds', '', ...report.objectsAdded.map((o) => `- ${o}`), '');
  lines.push(...lintMarkdown(report.lint));
  return `${lines.join('\n').trimEnd()}\n`;
}
