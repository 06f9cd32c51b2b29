/**
 * `node-services diff OLD NEW`: what a manifest change does to the fleet, per DaemonSet: added, removed, rolled out
 * (the pod template changed) or only changed, which nodes restart per pool, selector changes and security widening.
 * Exit codes: 0, 1 when `--fail-on` matches, 2 on usage errors or unreadable input.
 */

import * as path from 'path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { refusalsHelp } from './refusals';
import '../policy/api-validity';
import { CliIo, InputError, readClusterManifests, readList, SourcedObject, ExitCode } from './io';
import { clusterFiles, clusterFolders, throwProblems } from './clusters';
import { ChangeKind, DiffReport, diffManifests, diffMatches } from '../day2/diff';
import { formatDiffJson, formatDiffMarkdown, formatDiffSarif, formatDiffText } from '../day2/format';
import { WIDENING_CATEGORIES } from '../day2/widening';
import { poolLabelsHelp } from '../k8s/node-pools';
import { kindsOf, nothingToCheck, OneClusterInput } from '../manifests/contract';

interface DiffFlags {
  readonly nodes?: string;
  readonly pods?: string;
  readonly format: 'text' | 'json' | 'markdown' | 'sarif';
  readonly failOn?: string[];
  readonly groupBy?: string;
  readonly clusters?: boolean;
}

/** Everything `--fail-on` accepts. */
const FAIL_ON_VALUES: readonly string[] = ['selector', 'widening', ...Object.values(ChangeKind), ...WIDENING_CATEGORIES];

/** How `diff` names its manifests inputs, and the command that reads a fleet's folders cluster by cluster. */
function manifestsOf(flag: string, oldPath: string, newPath: string): OneClusterInput {
  const below = (root: string, input: string) => path.relative(input, root) || '.';
  return {
    flag,
    nodesFlag: '--nodes',
    clustersCommand: (root, input) => `diff --clusters ${path.join(oldPath, below(root, input))} ${path.join(newPath, below(root, input))}`,
  };
}

/** `--fail-on` over two inputs without any DaemonSet is refused: nothing to check. */
function checkGate(read: readonly SourcedObject[], failOn: readonly string[], of: string): void {
  const objects = read.map((o) => o.object);
  if (objects.some((o) => o?.kind === 'DaemonSet')) return;
  throw nothingToCheck(`${of}no DaemonSet in <old> or <new> (${kindsOf(objects)})`, `--fail-on ${failOn.join(',')}`);
}

/** Refuses two inputs that both read standard input. */
export function checkStdin(uses: ReadonlyArray<[string, string | undefined]>): void {
  const users = uses.filter(([, value]) => value === '-').map(([name]) => name);
  if (users.length > 1) {
    throw new InputError(`standard input (-) can be read only once, but ${users.join(' and ')} both use it; save one of them to a file`);
  }
}

function parseFailOn(value: string): string[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const unknown = items.filter((i) => !FAIL_ON_VALUES.includes(i));
  if (items.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(
      `${unknown.length > 0 ? `unknown ${unknown.map((u) => JSON.stringify(u)).join(', ')}; ` : ''}choose from ${FAIL_ON_VALUES.join(', ')}`,
    );
  }
  return items;
}

/** How a cluster of `diff --clusters` changed: in both versions, only in the new one, only in the old one. */
type ClusterChange = 'kept' | 'added' | 'removed';

/** One cluster's diff in `diff --clusters`. */
interface ClusterDiff {
  readonly name: string;
  readonly status: ClusterChange;
  readonly report: DiffReport;
}

/** Pairs the cluster folders of `oldRoot` and `newRoot` by name and diffs each pair (a missing side diffs as empty). */
async function diffClusters(oldRoot: string, newRoot: string, flags: DiffFlags, io: CliIo): Promise<ClusterDiff[]> {
  const problems: string[] = [];
  for (const [what, value] of [
    ['<old>', oldRoot],
    ['<new>', newRoot],
    ['--nodes', flags.nodes],
    ['--pods', flags.pods],
  ] as const) {
    if (value === '-')
      problems.push(`${what} -: with --clusters, ${what} is a folder of cluster folders (or files per cluster), not standard input`);
  }
  const before = oldRoot === '-' ? [] : clusterFolders(oldRoot, '<old>', problems);
  const after = newRoot === '-' ? [] : clusterFolders(newRoot, '<new>', problems);
  const all = [...new Set([...before, ...after])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // Nodes are needed for the clusters of the new version; a removed cluster's nodes file may be gone.
  const removed = new Set(before.filter((c) => !after.includes(c)));
  const files = (flag: string, dir: string | undefined) =>
    dir !== undefined && dir !== '-' && all.length > 0 ? clusterFiles(dir, flag, all, problems, removed) : undefined;
  const nodes = files('--nodes', flags.nodes);
  const pods = files('--pods', flags.pods);
  throwProblems(problems);
  if (pods !== undefined && nodes === undefined) io.err('warning: --pods is used only with --nodes\n');
  const out: ClusterDiff[] = [];
  for (const name of all) {
    const inOld = before.includes(name);
    const inNew = after.includes(name);
    const old = inOld ? await readClusterManifests([path.join(oldRoot, name)], io, manifestsOf('<old>', oldRoot, newRoot)) : [];
    const next = inNew ? await readClusterManifests([path.join(newRoot, name)], io, manifestsOf('<new>', oldRoot, newRoot)) : [];
    const nodesFile = nodes?.get(name);
    const podsFile = pods?.get(name);
    const clusterNodes = nodesFile !== undefined ? await readList(nodesFile, 'Node', '--nodes', io) : undefined;
    const clusterPods = podsFile !== undefined && nodesFile !== undefined ? await readList(podsFile, 'Pod', '--pods', io) : undefined;
    if (flags.failOn !== undefined) checkGate([...old, ...next], flags.failOn, `cluster ${name}: `);
    out.push({
      name,
      status: inOld && inNew ? 'kept' : inNew ? 'added' : 'removed',
      report: diffManifests(old, next, { nodes: clusterNodes, pods: clusterPods, groupBy: flags.groupBy }),
    });
  }
  return out;
}

const CLUSTER_WORDS: Record<ClusterChange, string> = {
  kept: 'in both versions',
  added: 'added (only in the new version)',
  removed: 'removed (only in the old version)',
};

function clusterSummary(clusters: readonly ClusterDiff[]): string {
  const of = (status: ClusterChange) => clusters.filter((c) => c.status === status).map((c) => c.name);
  const part = (names: string[], word: string) => `${names.length} ${word}${names.length > 0 ? ` (${names.join(', ')})` : ''}`;
  return `Clusters: ${part(of('added'), 'added')}, ${part(of('removed'), 'removed')}, ${part(of('kept'), 'in both versions')}.`;
}

/** The per-cluster diff in the chosen format: each cluster's report as the single diff renders it, under its heading. */
function formatClusters(clusters: readonly ClusterDiff[], format: DiffFlags['format']): string {
  if (format === 'json') {
    const json = clusters.map((c) => ({ name: c.name, status: c.status, daemonSets: c.report.daemonSets, unchanged: c.report.unchanged }));
    return `${JSON.stringify({ clusters: json }, null, 2)}\n`;
  }
  if (format === 'sarif') {
    // One run: every cluster's results, each message naming its cluster (the locations are the cluster's files).
    const version = require('../../package.json').version;
    const logs = clusters.map((c) => ({ name: c.name, log: JSON.parse(formatDiffSarif(c.report, version)) }));
    const merged = logs.length > 0 ? logs[0].log : JSON.parse(formatDiffSarif({ daemonSets: [], unchanged: 0 }, version));
    merged.runs[0].results = logs.flatMap(({ name, log }) =>
      log.runs[0].results.map((r: any) => ({ ...r, message: { ...r.message, text: `cluster ${name}: ${r.message.text}` } })),
    );
    return `${JSON.stringify(merged, null, 2)}\n`;
  }
  if (format === 'markdown') {
    const parts = [
      `## node-services diff of ${clusters.length} cluster${clusters.length === 1 ? '' : 's'}`,
      '',
      clusterSummary(clusters),
      '',
    ];
    for (const c of clusters) {
      const body = formatDiffMarkdown(c.report)
        .replace(/^## node-services diff\n/, '')
        .replace(/^### /gm, '#### ');
      parts.push(`### Cluster \`${c.name}\`: ${CLUSTER_WORDS[c.status]}`, body);
    }
    return `${parts
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd()}\n`;
  }
  const blocks = clusters.map((c) => `Cluster ${c.name}: ${CLUSTER_WORDS[c.status]}\n\n${formatDiffText(c.report)}`);
  return `${[...blocks, `${clusterSummary(clusters)}\n`].join('\n')}`;
}

/** Registers `node-services diff`. */
export function registerDiffCommand(program: Command, io: CliIo, exit: ExitCode): void {
  program
    .command('diff')
    .description(
      'Show what a manifest change does to the fleet, per DaemonSet: added, removed, rolled out (pod template changed) or ' +
        'changed without a rollout; with --nodes, which nodes restart per pool; selector changes (refused by the API ' +
        'server) and security widening (host paths, capabilities, privilege, host namespaces and ports, seccomp, ' +
        'AppArmor, RBAC, Pod Security level). Lists with keys are compared by key (tolerations by key, operator, value ' +
        'and effect; containers, env and volumes by name; volumeMounts by mount path; ports by port and protocol): ' +
        '"+" an added field or item, "-" a removed one, "~" a changed value or a reorder (docs/reading-reports.md).',
    )
    .addHelpText('after', refusalsHelp('diff'))
    .argument('<old>', 'the old manifests: a file or folder (*.yaml, *.yml, *.json), or - for standard input')
    .argument('<new>', 'the new manifests: a file or folder, or - for standard input')
    .option(
      '--clusters',
      '<old> and <new> are folders of cluster folders (dist/clusters of two versions of a fleet): clusters are paired by ' +
        'folder name and reported one by one, with the added and removed ones; --nodes and --pods are then folders with ' +
        'one file per cluster (<cluster-name>.json, .yaml or .yml)',
    )
    .option('--nodes <file>', 'the nodes (kubectl get nodes -o json): list the nodes each change restarts, starts and stops, per pool')
    .option('--pods <file>', 'pods already running (kubectl get pods -A -o json): their requests and host ports count on their nodes')
    .option('--group-by <label>', `node label that names a node's pool (default: ${poolLabelsHelp()})`)
    .addOption(
      new Option('-f, --format <format>', 'output format (markdown: for a pull-request comment)')
        .choices(['text', 'json', 'markdown', 'sarif'])
        .default('text'),
    )
    .addOption(
      new Option(
        '--fail-on <kinds>',
        `exit with 1 when a DaemonSet matches one of these (comma-separated): ${FAIL_ON_VALUES.join(', ')}`,
      ).argParser(parseFailOn),
    )
    .action(async (oldPath: string, newPath: string, flags: DiffFlags) => {
      if (flags.clusters) {
        const clusters = await diffClusters(oldPath, newPath, flags, io);
        io.out(formatClusters(clusters, flags.format));
        if (flags.failOn !== undefined && clusters.some((c) => diffMatches(c.report, flags.failOn!))) exit.code = 1;
        return;
      }
      checkStdin([
        ['<old>', oldPath],
        ['<new>', newPath],
        ['--nodes', flags.nodes],
        ['--pods', flags.pods],
      ]);
      const before = await readClusterManifests([oldPath], io, manifestsOf('<old>', oldPath, newPath));
      const after = await readClusterManifests([newPath], io, manifestsOf('<new>', oldPath, newPath));
      const nodes = flags.nodes !== undefined ? await readList(flags.nodes, 'Node', '--nodes', io) : undefined;
      const pods = flags.pods !== undefined ? await readList(flags.pods, 'Pod', '--pods', io) : undefined;
      if (pods !== undefined && nodes === undefined) io.err('warning: --pods is used only with --nodes\n');
      if (flags.failOn !== undefined) checkGate([...before, ...after], flags.failOn, '');
      const report = diffManifests(before, after, { nodes, pods, groupBy: flags.groupBy });
      if (flags.format === 'json') io.out(formatDiffJson(report));
      else if (flags.format === 'markdown') io.out(formatDiffMarkdown(report));
      else if (flags.format === 'sarif') io.out(formatDiffSarif(report, require('../../package.json').version));
      else io.out(formatDiffText(report));
      if (flags.failOn !== undefined && diffMatches(report, flags.failOn)) exit.code = 1;
    });
}
