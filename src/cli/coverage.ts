/**
 * `node-services coverage`: which nodes get each DaemonSet's pod, for every node that does not why, and what the node
 * services together cost each node pool (the node tax).
 *
 * Built for fleets: the nodes and pods inputs are streamed (`manifests/node-stream.ts`) and only the fields the
 * analysis reads are kept of each object; the report is written in chunks as it is formatted, never as one string
 * (`report/coverage-report.ts`).
 */

import { Command, Option } from 'commander';
import { checkStdin, refusalsHelp, requireDaemonSet } from './refusals';
import '../policy/api-validity';
import { CliIo, progressOf, readClusterManifests, readList, ExitCode } from './io';
import { nothingToCheck } from '../manifests/contract';
import { slimNode, slimPod } from '../manifests/slim';
import { analyzeCoverage } from '../coverage/analyze';
import { TaxBudget } from '../coverage/node-tax';
import { coverageVerdicts, poolTaxes } from '../coverage/pool-tax';
import { KUBERNETES_VERSION_RANGE } from '../k8s/api-fields/versions';
import { poolLabelsHelp } from '../k8s/node-pools';
import { ChunkedOut } from '../report/chunked-out';
import { ClustersCoverageWriter, CoverageOutput, CoverageRun, writeCoverage } from '../report/coverage-report';
import { ClusterInput, clusterInputs, stdinProblems, throwProblems } from '../manifests/cluster-folders';
import { budgetFlag, kubernetesVersionFlag } from './flags';

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

/** What the command was asked, parsed once: the flags, the Kubernetes minor and the node-tax budget. */
interface CoverageRequest {
  readonly flags: CoverageFlags;
  readonly minor: number | undefined;
  readonly budget: TaxBudget | undefined;
}

async function readManifests(inputs: readonly string[], io: CliIo): Promise<any[]> {
  const objects = await readClusterManifests(inputs, io, {
    nodesFlag: '--nodes',
    refuseWrongTypes: true,
    clustersCommand: (root) => `coverage --clusters ${root} --nodes <folder with one nodes file per cluster>`,
  });
  return objects.map((o) => o.object);
}

/** Reads one cluster's nodes, pods and manifests, and analyses them. */
async function runCoverage(
  inputs: readonly string[],
  nodesPath: string,
  podsPath: string | undefined,
  request: CoverageRequest,
  io: CliIo,
  cluster?: { name: string; minor?: number },
): Promise<CoverageRun> {
  const { flags } = request;
  const minor = request.minor ?? cluster?.minor;
  const progress = progressOf(io);
  const of = cluster !== undefined ? ` of cluster ${cluster.name}` : '';
  progress(`reading nodes${of} (${nodesPath === '-' ? 'standard input' : nodesPath})`);
  const nodes = await readList(nodesPath, 'Node', '--nodes', io, slimNode);
  if (podsPath !== undefined) progress(`reading pods${of} (${podsPath === '-' ? 'standard input' : podsPath})`);
  const pods = podsPath !== undefined ? await readList(podsPath, 'Pod', '--pods', io, slimPod) : undefined;
  progress(`reading manifests${of}`);
  const workloads = await readManifests(inputs, io);
  checkGates(flags, nodes.length, nodesPath, workloads, cluster !== undefined ? `cluster ${cluster.name}: ` : '');
  progress(`analyzing ${nodes.length} node${nodes.length === 1 ? '' : 's'}${of}`);
  const report = analyzeCoverage(workloads, nodes, pods, minor !== undefined ? { kubernetesMinor: minor } : undefined);
  const { pools, labels: poolLabels, poolOf } = poolTaxes(report, workloads, nodes, flags.poolLabel, request.budget, minor);
  const names = nodes.map((n) => n.metadata.name as string);
  return { report, workloads, names, pools, poolLabels, poolOf };
}

/** A gate (`--fail-on-missing`, `--fail-on-budget`) over zero nodes or zero DaemonSets is refused: nothing to check. */
function checkGates(flags: CoverageFlags, nodes: number, nodesPath: string, workloads: readonly any[], of: string): void {
  const gate = flags.failOnMissing ? '--fail-on-missing' : flags.failOnBudget ? '--fail-on-budget' : undefined;
  if (gate === undefined) return;
  if (nodes === 0) throw nothingToCheck(`${of}no nodes in --nodes ${nodesPath} (an empty list)`, gate);
  requireDaemonSet(workloads, 'the manifests', gate, of);
}

/** Writes a run's warnings to standard error (prefixed with the cluster in a fleet report). */
function writeWarnings(run: CoverageRun, io: CliIo, cluster?: string): void {
  const of = cluster !== undefined ? `cluster ${cluster}: ` : '';
  for (const warning of run.report.warnings) io.err(`warning: ${of}${warning}\n`);
  if (run.report.workloads.length === 0) io.err(`node-services: ${of}no DaemonSet found in the given manifests\n`);
}

function exitCodeOf(verdicts: { missing: boolean; overBudget: boolean }, flags: CoverageFlags): number {
  return (flags.failOnMissing && verdicts.missing) || (flags.failOnBudget && verdicts.overBudget) ? 1 : 0;
}

function outputOf(request: CoverageRequest, io: CliIo): CoverageOutput {
  const { flags, budget } = request;
  const jsonPools = flags.poolLabel !== undefined || budget !== undefined || Boolean(flags.failOnBudget);
  return { format: flags.output, budget, jsonPools, tty: io.isTTY };
}

/** The clusters of `--clusters` with their manifests folder, nodes file and pods file; every layout problem at once. */
function resolveClusters(root: string, flags: CoverageFlags, manifests: readonly string[]): ClusterInput[] {
  const problems: string[] = [];
  if (manifests.length > 0) {
    problems.push(
      `give the manifests either as arguments (${manifests.join(' ')}) or as --clusters ${root}, not both; with --clusters each cluster's manifests are its folder`,
    );
  }
  stdinProblems(
    [
      ['--nodes', flags.nodes],
      ['--pods', flags.pods],
    ],
    'a folder with one file per cluster',
    problems,
  );
  // --kubernetes-version overrides the version a cluster folder records.
  const clusters = clusterInputs(root, '--clusters', flags.nodes, flags.pods, problems);
  throwProblems(problems);
  return clusters;
}

/** `coverage --clusters`: each cluster read, analysed and reported in turn (only one cluster's data is held at a time). */
async function coverageOfClusters(root: string, manifests: readonly string[], request: CoverageRequest, io: CliIo): Promise<number> {
  const { flags } = request;
  const clusters = resolveClusters(root, flags, manifests);
  const out = new ChunkedOut((text) => io.out(text));
  const writer = new ClustersCoverageWriter(
    out,
    outputOf(request, io),
    clusters.map((c) => c.name),
  );
  let code = 0;
  for (const c of clusters) {
    const run = await runCoverage([c.folder], c.nodes, c.pods, request, io, { name: c.name, minor: c.version?.minor });
    const verdicts = coverageVerdicts(run.report, run.pools);
    code = Math.max(code, exitCodeOf(verdicts, flags));
    const heading = { name: c.name, folder: c.folder, nodes: c.nodes, versionRecorded: c.version?.text };
    writer.cluster({ ...heading, versionGiven: flags.kubernetesVersion }, run, verdicts);
    out.flush();
    writeWarnings(run, io, c.name);
  }
  writer.end();
  out.flush();
  return code;
}

/** `coverage` of one cluster: its manifests (or standard input), nodes and pods. */
async function coverageOfCluster(manifests: readonly string[], request: CoverageRequest, io: CliIo): Promise<number> {
  const { flags } = request;
  const inputs = manifests.length > 0 ? manifests : ['-'];
  const reader = manifests.length > 0 ? 'the manifests' : 'the manifests (none given, so read from standard input)';
  checkStdin([
    ['--nodes', flags.nodes],
    ['--pods', flags.pods],
    [reader, inputs.includes('-') ? '-' : undefined],
  ]);
  const run = await runCoverage(inputs, flags.nodes, flags.pods, request, io);
  progressOf(io)(`writing the ${flags.output} report`);
  const out = new ChunkedOut((text) => io.out(text));
  writeCoverage(out, run, outputOf(request, io));
  out.flush();
  writeWarnings(run, io);
  return exitCodeOf(coverageVerdicts(run.report, run.pools), flags);
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
      const request = { flags, minor: kubernetesVersionFlag(flags.kubernetesVersion)?.minor, budget: budgetFlag(flags.budget) };
      exit.code =
        flags.clusters !== undefined
          ? await coverageOfClusters(flags.clusters, manifests, request, io)
          : await coverageOfCluster(manifests, request, io);
    });
}
