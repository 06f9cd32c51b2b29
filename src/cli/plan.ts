/**
 * `node-services plan NEW --nodes NODES [--pods PODS] [--old OLD]`: how the rollout of every changed DaemonSet will go,
 * simulated as the Kubernetes 1.28 DaemonSet controller runs it: budgets, waves, nodes that block it, surge pods that
 * cannot fit, OnDelete, a duration estimate, and the `kubectl label` commands of a canary.
 * Exit codes: 0, 1 with `--fail-on-stuck` when a rollout cannot complete, 2 on usage errors or unreadable input.
 */

import * as path from 'path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { checkStdin, refusalsHelp, requireDaemonSet } from './refusals';
import '../policy/api-validity';
import { CliIo, InputError, progressOf, readClusterManifests, readList, SourcedObject, ExitCode } from './io';
import { nothingToCheck, OneClusterInput } from '../manifests/contract';
import { FOLDER_OF_CLUSTERS, clusterDataFiles, clusterFolders, stdinProblems, throwProblems } from '../manifests/cluster-folders';
import { formatPlanJson, formatPlanText } from '../day2/format';
import { formatPlanHtml } from '../report/plan-html';
import { ClusterPlan, formatPlanClusters } from '../report/plan-clusters';
import { DEFAULT_CANARY_WAVE_SIZE, DEFAULT_PULL_SECONDS, DEFAULT_READY_SECONDS, PlanOptions, PlanReport, planRollouts } from '../day2/plan';

/** The formats of the plan report. */
type PlanFormat = 'text' | 'json' | 'html';

interface PlanFlags {
  readonly nodes: string;
  readonly pods?: string;
  readonly old?: string;
  readonly format: PlanFormat;
  readonly output?: PlanFormat;
  readonly pullSeconds: number;
  readonly readySeconds: number;
  readonly canaryWaveSize: number;
  readonly failOnStuck?: boolean;
  readonly clusters?: boolean;
}

function integer(min: number): (value: string) => number {
  return (value) => {
    if (!/^[0-9]+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`must be an integer of at least ${min}`);
    return Number(value);
  };
}

/** How `plan` names its manifests inputs, and the command that reads a fleet's folders cluster by cluster. */
function manifestsOf(flag: string): OneClusterInput {
  return {
    flag,
    nodesFlag: '--nodes',
    refuseWrongTypes: true,
    clustersCommand: (root) =>
      `plan --clusters ${root} --nodes <folder with one nodes file per cluster>${flag === '--old' ? ' --old <old>/clusters' : ''}`,
  };
}

/** `--fail-on-stuck` over zero nodes or zero DaemonSets is refused: nothing to check. */
function checkGate(nodes: readonly any[], objects: readonly SourcedObject[], of: string): void {
  if (nodes.length === 0) throw nothingToCheck(`${of}no nodes in --nodes (an empty list)`, '--fail-on-stuck');
  requireDaemonSet(
    objects.map((o) => o.object),
    '<new>',
    '--fail-on-stuck',
    of,
  );
}

function stuck(report: PlanReport): boolean {
  return report.daemonSets.some((p) => p.outcome === 'stuck' || p.outcome === 'invalid');
}

/** The rollout simulation's inputs: what was read, and the timings of the flags. */
function planOptions(flags: PlanFlags, nodes: any[], pods: any[] | undefined, old: SourcedObject[] | undefined): PlanOptions {
  return {
    nodes,
    pods,
    old,
    pullSeconds: flags.pullSeconds,
    readySeconds: flags.readySeconds,
    canaryWaveSize: flags.canaryWaveSize,
  };
}

/**
 * `plan --clusters`: the clusters of `<new>` (a folder of cluster folders), each planned with its nodes and pods files
 * and, with `--old`, the same cluster's folder of the old version (a cluster new in the fleet has everything to roll
 * out). Returns the exit code.
 */
async function planClusters(newRoot: string, flags: PlanFlags, format: PlanFormat, io: CliIo): Promise<number> {
  const problems: string[] = [];
  if (format === 'html') {
    problems.push('--format html shows one cluster per page; with --clusters use text or json (or plan each cluster folder on its own)');
  }
  const inputs = [
    ['<new>', newRoot],
    ['--old', flags.old],
    ['--nodes', flags.nodes],
    ['--pods', flags.pods],
  ] as const;
  stdinProblems(inputs, FOLDER_OF_CLUSTERS, problems);
  const clusters = newRoot === '-' ? [] : clusterFolders(newRoot, '<new>', problems);
  const oldClusters = flags.old !== undefined && flags.old !== '-' ? clusterFolders(flags.old, '--old', problems) : [];
  const { nodes, pods } = clusterDataFiles(flags.nodes, flags.pods, clusters, problems);
  throwProblems(problems);
  const progress = progressOf(io);
  const reports: ClusterPlan[] = [];
  for (const name of clusters) {
    progress(`planning cluster ${name}`);
    const objects = await readClusterManifests([path.join(newRoot, name)], io, manifestsOf('<new>'));
    const old =
      flags.old !== undefined
        ? oldClusters.includes(name)
          ? await readClusterManifests([path.join(flags.old, name)], io, manifestsOf('--old'))
          : []
        : undefined;
    const clusterNodes = await readList(nodes.get(name)!, 'Node', '--nodes', io);
    if (flags.failOnStuck) checkGate(clusterNodes, objects, `cluster ${name}: `);
    const clusterPods = pods !== undefined ? await readList(pods.get(name)!, 'Pod', '--pods', io) : undefined;
    reports.push({ name, report: planRollouts(objects, planOptions(flags, clusterNodes, clusterPods, old)) });
  }
  const added = flags.old !== undefined ? clusters.filter((c) => !oldClusters.includes(c)) : [];
  io.out(formatPlanClusters(reports, format === 'json' ? 'json' : 'text', added));
  for (const { name, report } of reports) {
    if (report.daemonSets.length === 0) io.err(`node-services: cluster ${name}: no DaemonSet found in the given manifests\n`);
  }
  return flags.failOnStuck && reports.some(({ report }) => stuck(report)) ? 1 : 0;
}

/** The report format: `--output` or `--format` (refused when both are given and disagree). */
function formatOf(flags: PlanFlags, formatGiven: boolean): PlanFormat {
  if (flags.output !== undefined && formatGiven && flags.output !== flags.format) {
    throw new InputError(`--output ${flags.output} and --format ${flags.format} disagree; give one of them`);
  }
  return flags.output ?? flags.format;
}

/** `node-services plan`: checks the inputs, then plans one cluster (or each of `--clusters`); returns the exit code. */
async function plan(newPath: string, flags: PlanFlags, formatGiven: boolean, io: CliIo): Promise<number> {
  if (flags.old === undefined && flags.pods === undefined) {
    throw new InputError('plan needs --old (the previous manifests) or --pods (the running pods) to know which DaemonSets change');
  }
  checkStdin([
    ['<new>', newPath],
    ['--nodes', flags.nodes],
    ['--pods', flags.pods],
    ['--old', flags.old],
  ]);
  const format = formatOf(flags, formatGiven);
  if (flags.clusters) return planClusters(newPath, flags, format, io);
  const progress = progressOf(io);
  progress('reading manifests');
  const objects = await readClusterManifests([newPath], io, manifestsOf('<new>'));
  const old = flags.old !== undefined ? await readClusterManifests([flags.old], io, manifestsOf('--old')) : undefined;
  progress('reading nodes');
  const nodes = await readList(flags.nodes, 'Node', '--nodes', io);
  if (flags.pods !== undefined) progress('reading pods');
  const pods = flags.pods !== undefined ? await readList(flags.pods, 'Pod', '--pods', io) : undefined;
  if (flags.failOnStuck) checkGate(nodes, objects, '');
  progress(`planning the rollouts over ${nodes.length} node${nodes.length === 1 ? '' : 's'}`);
  const report = planRollouts(objects, planOptions(flags, nodes, pods, old));
  progress(`writing the ${format} plan`);
  io.out(format === 'json' ? formatPlanJson(report) : format === 'html' ? formatPlanHtml(report) : formatPlanText(report));
  if (report.daemonSets.length === 0) io.err('node-services: no DaemonSet found in the given manifests\n');
  return flags.failOnStuck && stuck(report) ? 1 : 0;
}

/** Registers `node-services plan`. */
export function registerPlanCommand(program: Command, io: CliIo, exit: ExitCode): void {
  program
    .command('plan')
    .description(
      'Simulate the rollout of every DaemonSet whose pod template changes, as the Kubernetes 1.28 DaemonSet controller ' +
        'does it: maxUnavailable/maxSurge budgets (rounded up over the desired nodes), waves, unavailable pods and ' +
        'NotReady nodes using the budget (deadlocks, with the nodes that cause them), surge pods that cannot fit, ' +
        'OnDelete, a duration estimate, and kubectl label commands for canaries. A DaemonSet changes when its template ' +
        'differs from --old; without --old, when a pod of it in --pods does not run the new template.',
    )
    .addHelpText('after', refusalsHelp('plan'))
    .argument('<new>', 'the new manifests: a file or folder (*.yaml, *.yml, *.json), or - for standard input')
    .requiredOption('--nodes <file>', 'the nodes (kubectl get nodes -o json)')
    .option(
      '--pods <file>',
      "the pods (kubectl get pods -A -o json): the DaemonSets' current pods and readiness, and what else uses each node",
    )
    .option('--old <path>', 'the old manifests (file or folder): a DaemonSet changes when its pod template differs')
    .addOption(
      new Option('-f, --format <format>', 'output format (html: one self-contained page with the waves on a timeline)')
        .choices(['text', 'json', 'html'])
        .default('text'),
    )
    .addOption(new Option('--output <format>', 'the same as --format (as in coverage)').choices(['text', 'json', 'html']))
    .addOption(
      new Option('--pull-seconds <n>', 'seconds to pull the new image, per pod').argParser(integer(0)).default(DEFAULT_PULL_SECONDS),
    )
    .addOption(
      new Option('--ready-seconds <n>', 'seconds from container start to Ready, per pod')
        .argParser(integer(0))
        .default(DEFAULT_READY_SECONDS),
    )
    .addOption(
      new Option('--canary-wave-size <n>', 'nodes to label per canary wave').argParser(integer(1)).default(DEFAULT_CANARY_WAVE_SIZE),
    )
    .option(
      '--clusters',
      '<new> (and --old) are folders of cluster folders (dist/clusters): each cluster is planned with its own nodes and ' +
        'pods; --nodes and --pods are then folders with one file per cluster (<cluster-name>.json, .yaml or .yml)',
    )
    .option('--fail-on-stuck', 'exit with 1 when a rollout cannot complete (deadlock) or a strategy is invalid')
    .action(async (newPath: string, flags: PlanFlags) => {
      const formatGiven = program.commands.find((c) => c.name() === 'plan')?.getOptionValueSource('format') === 'cli';
      exit.code = await plan(newPath, flags, formatGiven, io);
    });
}
