/**
 * `node-services diff OLD NEW`: what a manifest change does to the fleet, per DaemonSet: added, removed, rolled out
 * (the pod template changed) or only changed, which nodes restart per pool, selector changes and security widening.
 * Exit codes: 0, 1 when `--fail-on` matches, 2 on usage errors or unreadable input.
 */

import * as path from 'path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { checkStdin, refusalsHelp, requireDaemonSet } from './refusals';
import '../policy/api-validity';
import { CliIo, readClusterManifests, readList, SourcedObject, ExitCode } from './io';
import { FOLDER_OF_CLUSTERS, clusterFiles, clusterFolders, stdinProblems, throwProblems } from '../manifests/cluster-folders';
import { ChangeKind, diffManifests, diffMatches } from '../day2/diff';
import { formatDiffJson, formatDiffMarkdown, formatDiffSarif, formatDiffText } from '../day2/format';
import { ClusterDiff, DiffFormat, formatDiffClusters } from '../report/diff-clusters';
import { WIDENING_CATEGORIES } from '../day2/widening';
import { poolLabelsHelp } from '../k8s/node-pools';
import { OneClusterInput } from '../manifests/contract';

interface DiffFlags {
  readonly nodes?: string;
  readonly pods?: string;
  readonly format: DiffFormat;
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
function failOnGate(read: readonly SourcedObject[], failOn: readonly string[], of: string): void {
  requireDaemonSet(
    read.map((o) => o.object),
    '<old> or <new>',
    `--fail-on ${failOn.join(',')}`,
    of,
  );
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

/** Pairs the cluster folders of `oldRoot` and `newRoot` by name and diffs each pair (a missing side diffs as empty). */
async function diffClusters(oldRoot: string, newRoot: string, flags: DiffFlags, io: CliIo): Promise<ClusterDiff[]> {
  const problems: string[] = [];
  const inputs = [
    ['<old>', oldRoot],
    ['<new>', newRoot],
    ['--nodes', flags.nodes],
    ['--pods', flags.pods],
  ] as const;
  stdinProblems(inputs, FOLDER_OF_CLUSTERS, problems);
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
    if (flags.failOn !== undefined) failOnGate([...old, ...next], flags.failOn, `cluster ${name}: `);
    out.push({
      name,
      status: inOld && inNew ? 'kept' : inNew ? 'added' : 'removed',
      report: diffManifests(old, next, { nodes: clusterNodes, pods: clusterPods, groupBy: flags.groupBy }),
    });
  }
  return out;
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
        io.out(formatDiffClusters(clusters, flags.format, require('../../package.json').version));
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
      if (flags.failOn !== undefined) failOnGate([...before, ...after], flags.failOn, '');
      const report = diffManifests(before, after, { nodes, pods, groupBy: flags.groupBy });
      if (flags.format === 'json') io.out(formatDiffJson(report));
      else if (flags.format === 'markdown') io.out(formatDiffMarkdown(report));
      else if (flags.format === 'sarif') io.out(formatDiffSarif(report, require('../../package.json').version));
      else io.out(formatDiffText(report));
      if (flags.failOn !== undefined && diffMatches(report, flags.failOn)) exit.code = 1;
    });
}
