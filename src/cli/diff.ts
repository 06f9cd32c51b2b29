/**
 * `node-services diff OLD NEW`: what a manifest change does to the fleet, per DaemonSet: added, removed, rolled out
 * (the pod template changed) or only changed, which nodes restart per pool, selector changes and security widening.
 * Exit codes: 0, 1 when `--fail-on` matches, 2 on usage errors or unreadable input.
 */

import { Command, InvalidArgumentError, Option } from 'commander';
import type { ExitCode } from './main';
import { readKind } from './coverage';
import { CliIo, InputError, SourcedObject, readObjects } from './io';
import { ChangeKind, diffManifests, diffMatches } from '../day2/diff';
import { formatDiffJson, formatDiffMarkdown, formatDiffSarif, formatDiffText } from '../day2/format';
import { WIDENING_CATEGORIES } from '../day2/widening';

interface DiffFlags {
  readonly nodes?: string;
  readonly pods?: string;
  readonly format: 'text' | 'json' | 'markdown' | 'sarif';
  readonly failOn?: string[];
  readonly groupBy?: string;
}

/** Everything `--fail-on` accepts. */
const FAIL_ON_VALUES: readonly string[] = ['selector', 'widening', ...Object.values(ChangeKind), ...WIDENING_CATEGORIES];

function where(o: SourcedObject): string {
  return o.line !== undefined ? `${o.file}:${o.line}` : o.file;
}

/** The Node or Pod objects of `file` (the streamed reader of `coverage`). */
export async function readNodesOrPods(file: string, kind: 'Node' | 'Pod', flag: string, io: CliIo): Promise<any[]> {
  return readKind(file, kind, flag, io);
}

/** Refuses two inputs that both read standard input. */
export function checkStdin(uses: ReadonlyArray<[string, string | undefined]>): void {
  const users = uses.filter(([, value]) => value === '-').map(([name]) => name);
  if (users.length > 1) {
    throw new InputError(`standard input (-) can be read only once, but ${users.join(' and ')} both use it; save one of them to a file`);
  }
}

/** Checks that every DaemonSet has a pod template with containers (else the input is not something the API takes). */
export function checkDaemonSets(objects: readonly SourcedObject[]): void {
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

/** Registers `node-services diff`. */
export function registerDiffCommand(program: Command, io: CliIo, exit: ExitCode): void {
  program
    .command('diff')
    .description(
      'Show what a manifest change does to the fleet, per DaemonSet: added, removed, rolled out (pod template changed) or ' +
        'changed without a rollout; with --nodes, which nodes restart per pool; selector changes (refused by the API ' +
        'server) and security widening (host paths, capabilities, privilege, host namespaces and ports, seccomp, ' +
        'AppArmor, RBAC, Pod Security level).',
    )
    .argument('<old>', 'the old manifests: a file or folder (*.yaml, *.yml, *.json), or - for standard input')
    .argument('<new>', 'the new manifests: a file or folder, or - for standard input')
    .option('--nodes <file>', 'the nodes (kubectl get nodes -o json): list the nodes each change restarts, starts and stops, per pool')
    .option('--pods <file>', 'pods already running (kubectl get pods -A -o json): their requests and host ports count on their nodes')
    .option(
      '--group-by <label>',
      "node label that names a node's pool (default: the first of eks.amazonaws.com/nodegroup, cloud.google.com/gke-nodepool, " +
        'kubernetes.azure.com/agentpool, karpenter.sh/nodepool, node.kubernetes.io/pool, node-pool, nodepool, pool; else the node role)',
    )
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
      checkStdin([
        ['<old>', oldPath],
        ['<new>', newPath],
        ['--nodes', flags.nodes],
        ['--pods', flags.pods],
      ]);
      const before = await readObjects([oldPath], io);
      const after = await readObjects([newPath], io);
      checkDaemonSets(before);
      checkDaemonSets(after);
      const nodes = flags.nodes !== undefined ? await readNodesOrPods(flags.nodes, 'Node', '--nodes', io) : undefined;
      const pods = flags.pods !== undefined ? await readNodesOrPods(flags.pods, 'Pod', '--pods', io) : undefined;
      if (pods !== undefined && nodes === undefined) io.err('warning: --pods is used only with --nodes\n');
      const report = diffManifests(before, after, { nodes, pods, groupBy: flags.groupBy });
      if (flags.format === 'json') io.out(formatDiffJson(report));
      else if (flags.format === 'markdown') io.out(formatDiffMarkdown(report));
      else if (flags.format === 'sarif') io.out(formatDiffSarif(report, require('../../package.json').version));
      else io.out(formatDiffText(report));
      if (flags.failOn !== undefined && diffMatches(report, flags.failOn)) exit.code = 1;
    });
}
