/**
 * `node-services coverage`: which nodes get each DaemonSet's pod, and for every node that does not, why.
 */

import { Command, Option } from 'commander';
import type { ExitCode } from './main';
import { CliIo, InputError, SourcedObject, readObjects } from './io';
import { analyzeCoverage } from '../coverage/analyze';
import { CoverageReason, CoverageReport, WorkloadCoverage } from '../coverage/types';

interface CoverageFlags {
  readonly nodes: string;
  readonly pods?: string;
  readonly output: 'text' | 'json';
  readonly failOnMissing?: boolean;
}

function where(o: SourcedObject): string {
  return o.line !== undefined ? `${o.file}:${o.line}` : o.file;
}

function describe(o: SourcedObject): string {
  const kind = typeof o.object?.kind === 'string' ? o.object.kind : 'object';
  const name = o.object?.metadata?.name;
  return typeof name === 'string' ? `${kind} ${JSON.stringify(name)}` : `a ${kind} without metadata.name`;
}

/** Reads objects of one kind (objects without `kind` are accepted as that kind). */
async function readKind(file: string, kind: 'Node' | 'Pod', flag: string, io: CliIo): Promise<any[]> {
  const objects = await readObjects([file], io);
  return objects.map((o) => {
    if (o.object?.kind !== undefined && o.object.kind !== kind) {
      throw new InputError(`${where(o)}: ${flag} expects ${kind} objects (or a ${kind}List), found ${describe(o)}`);
    }
    if (kind === 'Node' && (typeof o.object?.metadata?.name !== 'string' || o.object.metadata.name.length === 0)) {
      throw new InputError(`${where(o)}: a Node has no metadata.name; every node needs its name`);
    }
    return o.object;
  });
}

async function readManifests(inputs: readonly string[], io: CliIo): Promise<any[]> {
  const objects = await readObjects(inputs, io);
  for (const o of objects) {
    if (o.object?.kind !== 'DaemonSet') continue;
    const spec = o.object?.spec?.template?.spec;
    if (spec == null || typeof spec !== 'object' || !Array.isArray(spec.containers)) {
      throw new InputError(
        `${where(o)}: DaemonSet ${JSON.stringify(o.object?.metadata?.name ?? '')} has no spec.template.spec.containers; ` +
          'a DaemonSet needs a pod template with at least one container',
      );
    }
  }
  return objects.map((o) => o.object);
}

const COLOURS = { bold: '\u001b[1m', red: '\u001b[31m', yellow: '\u001b[33m', green: '\u001b[32m', dim: '\u001b[2m', reset: '\u001b[0m' };

function table(rows: string[][], colour: (row: number, column: number, text: string) => string): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r, i) =>
    r
      .map((cell, c) => colour(i, c, c === r.length - 1 ? cell : cell.padEnd(widths[c])))
      .join('  ')
      .trimEnd(),
  );
}

function workloadText(w: WorkloadCoverage, total: number, tty: boolean): string {
  const paint = (code: string, text: string) => (tty ? `${code}${text}${COLOURS.reset}` : text);
  const lines = [
    paint(COLOURS.bold, `DaemonSet ${w.namespace}/${w.name}: desired ${w.desired}, schedulable ${w.schedulable}, nodes ${total}`),
  ];
  const missing = w.nodes.filter((n) => !n.runs);
  if (missing.length === 0) {
    lines.push(`  ${paint(COLOURS.green, 'runs on every node')}`);
    return lines.join('\n');
  }
  const rows = [['NODE', 'STATUS', 'REASON', 'DETAIL']];
  for (const n of missing) {
    const pending = n.reason === CoverageReason.HOST_PORT || n.reason === CoverageReason.RESOURCES;
    rows.push([n.node, pending ? 'pending' : 'excluded', n.reason, n.detail]);
  }
  const rendered = table(rows, (row, column, text) => {
    if (row === 0) return paint(COLOURS.dim, text);
    if (column === 1) return paint(rows[row][1] === 'pending' ? COLOURS.red : COLOURS.yellow, text);
    return text;
  });
  lines.push(...rendered.map((l) => `  ${l}`));
  return lines.join('\n');
}

/** The text report: per DaemonSet a header and a table of the nodes that lack its pod. */
function formatCoverageText(report: CoverageReport, tty: boolean): string {
  const blocks = report.workloads.map((w) => workloadText(w, report.nodes, tty));
  const count = report.workloads.length;
  const summary =
    `${count} DaemonSet${count === 1 ? '' : 's'} over ${report.nodes} node${report.nodes === 1 ? '' : 's'}` +
    (report.skipped > 0 ? `; ${report.skipped} other object${report.skipped === 1 ? '' : 's'} skipped` : '') +
    '. "excluded": the DaemonSet controller creates no pod there; "pending": a pod is created but cannot be scheduled.';
  return `${[...blocks, summary].join('\n\n')}\n`;
}

/** The JSON report: exactly `{nodes, workloads: [{kind, namespace, name, desired, schedulable, nodes: [...]}]}`. */
function formatCoverageJson(report: CoverageReport): string {
  return `${JSON.stringify({ nodes: report.nodes, workloads: report.workloads }, null, 2)}\n`;
}

/** Registers `node-services coverage`. */
export function registerCoverageCommand(program: Command, io: CliIo, exit: ExitCode): void {
  program
    .command('coverage')
    .description(
      "Explain which nodes get each DaemonSet's pod and, for every node that does not, why " +
        '(nodeSelector, nodeAffinity, taint, hostPort, resources).',
    )
    .argument('[manifests...]', 'manifest files or folders with DaemonSets (- or nothing: standard input)')
    .requiredOption(
      '--nodes <file>',
      'the nodes: a NodeList or Node objects as JSON or YAML (kubectl get nodes -o json); - for standard input',
    )
    .option('--pods <file>', 'pods already running (kubectl get pods -A -o json): their requests, host ports and count use up their node')
    .addOption(new Option('--output <format>', 'report format').choices(['text', 'json']).default('text'))
    .option('--fail-on-missing', 'exit with 1 when a node where the controller wants a pod cannot run it')
    .action(async (manifests: string[], flags: CoverageFlags) => {
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
      const nodes = await readKind(flags.nodes, 'Node', '--nodes', io);
      const pods = flags.pods !== undefined ? await readKind(flags.pods, 'Pod', '--pods', io) : undefined;
      const workloads = await readManifests(inputs, io);
      const report = analyzeCoverage(workloads, nodes, pods);
      io.out(flags.output === 'json' ? formatCoverageJson(report) : formatCoverageText(report, io.isTTY));
      for (const warning of report.warnings) io.err(`warning: ${warning}\n`);
      if (report.workloads.length === 0) io.err('node-services: no DaemonSet found in the given manifests\n');
      if (flags.failOnMissing && report.workloads.some((w) => w.schedulable < w.desired)) exit.code = 1;
    });
}
