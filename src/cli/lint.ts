/**
 * `node-services lint [paths… | -]`: checks DaemonSets in YAML/JSON files, folders or stdin against the rule
 * catalogue. Exit codes: 0 clean or warnings only, 1 error findings, 2 usage errors or input that could not be read
 * (every readable file is still checked and reported). Loads the rules only when the command runs, and never cdk8s
 * or cdk8s-plus.
 */

import { Command, Option } from 'commander';
import { KUBERNETES_VERSION_RANGE, KubernetesVersion } from '../k8s/api-fields/versions';
import type { ReadProblem, SourcedObject } from '../manifests';
import type { RuleConfig } from '../policy/config';
import type { PolicyReport } from '../policy/engine';
import type { ClusterVersionProblem } from './lint-clusters';
import { kubernetesVersionFlag } from './flags';
import { KIND_ANNOTATION } from '../policy/kinds';
import { refusalsHelp } from './refusals';
import { CliIo, InputError, parseObjects, readText, ExitCode } from './io';

/** Options of `node-services lint`. */
interface LintOptions {
  readonly format?: 'text' | 'json' | 'sarif';
  readonly output?: 'text' | 'json' | 'sarif';
  readonly config?: string;
  readonly kubernetesVersion?: string;
  readonly quiet?: boolean;
}

/** Why lint gives no verdict over inputs without a DaemonSet (holding objects of `kinds`, as `kindsOf` says). */
function nothingToCheck(paths: readonly string[], kinds: string): string {
  const inputs = paths.map((p) => (p === '-' ? '<stdin>' : p)).join(', ');
  return `nothing to check: no DaemonSet in ${inputs} (${kinds}); lint checks DaemonSets and gives no verdict over none`;
}

/** The report formats of `lint`. */
const FORMATS = ['text', 'json', 'sarif'];

/** What a lint run is asked for: the report format, the Kubernetes version of the flag and the rule configuration. */
interface LintSettings {
  readonly format: 'text' | 'json' | 'sarif';
  readonly version: KubernetesVersion | undefined;
  readonly config: RuleConfig | undefined;
}

/** The settings of a lint run, or the usage problem with them (a message). */
async function lintSettings(paths: readonly string[], options: LintOptions, io: CliIo): Promise<LintSettings | string> {
  const { mergeConfigs, PolicyConfigError, ruleConfigFromValue } = require('../policy/config') as typeof import('../policy/config');
  if (paths.length === 0) return 'no input; give files or folders (*.yaml, *.yml, *.json), or - to read stdin';
  if (options.format && options.output && options.format !== options.output) {
    return `--format ${options.format} and --output ${options.output} disagree; give one`;
  }
  const format = options.output ?? options.format ?? 'text';
  let version: KubernetesVersion | undefined;
  try {
    version = kubernetesVersionFlag(options.kubernetesVersion)?.version;
  } catch (e) {
    if (e instanceof InputError) return e.message;
    throw e;
  }
  let config: RuleConfig | undefined;
  try {
    if (options.config) {
      const text = await readText(options.config, io);
      const docs = parseObjects(text, options.config);
      config = ruleConfigFromValue(docs.length === 0 ? {} : docs[0].object, options.config);
    }
  } catch (e) {
    if (e instanceof PolicyConfigError || e instanceof InputError) return `config ${e.message}`;
    throw e;
  }
  // The flag overrides the configuration file.
  if (version !== undefined) config = mergeConfigs(config, { kubernetesVersion: version });
  return { format, version, config };
}

/** What a lint run read and found: the report, the problems, and where each object came from (not the objects). */
interface LintRun {
  readonly report: PolicyReport;
  /** The problems of the input, as `readManifests` and the input contract report them. */
  readonly problems: ReadProblem[];
  readonly versionProblems: ClusterVersionProblem[];
  /** Where each object read came from, by its index (the object itself is not kept). */
  readonly sources: SourcedObject[];
  /** The kinds of the objects read, for the message over inputs without a DaemonSet. */
  readonly kinds: { toString(): string };
}

/**
 * Reads and checks the inputs one object at a time, keeping no object once checked: without --kubernetes-version,
 * each folder that records a cluster's version (a fleet's cluster folder) is checked as that cluster, at its version;
 * the flag checks everything at one version (see `lint-clusters.ts`).
 */
async function readAndCheck(paths: readonly string[], settings: LintSettings, io: CliIo): Promise<LintRun> {
  const { mergeConfigs } = require('../policy/config') as typeof import('../policy/config');
  const { mayHoldCrossObject } = require('../policy/rbac') as typeof import('../policy/rbac');
  const { ClusterChecks } = require('./lint-clusters') as typeof import('./lint-clusters');
  const { KindTally, nodeObjectsProblem } = require('../manifests/contract') as typeof import('../manifests/contract');
  const { streamManifests } = require('../manifests') as typeof import('../manifests');
  const { version, config } = settings;
  const checks = new ClusterChecks(config, version === undefined ? (c, v) => mergeConfigs(c, { kubernetesVersion: v }) : undefined);
  const sources: SourcedObject[] = [];
  const kinds = new KindTally();
  let nodes: { count: number; first: SourcedObject } | undefined;
  const read = await streamManifests(paths, io.readStdin, {
    keep: false,
    ahead: { mayHold: mayHoldCrossObject, add: (o) => checks.ahead(o) },
    onObject: (o) => {
      kinds.add(o.object);
      if (o.object?.kind === 'Node') {
        if (nodes) nodes.count++;
        else nodes = { count: 1, first: o };
      }
      checks.check(o, sources.length);
      sources.push({ object: undefined, file: o.file, line: o.line, source: o.source, pathInDocument: o.pathInDocument });
    },
  });
  const problems = nodes ? [...read.problems, nodeObjectsProblem(nodes.count, nodes.first, undefined)] : read.problems;
  const { report, problems: versionProblems } = checks.report();
  return { report, problems, versionProblems, sources, kinds };
}

/** An input problem as the JSON and SARIF reports list it. */
type InputProblem = { file: string; line?: number; column?: number; message: string };

/** Writes the report in the chosen format. */
function writeReport(
  report: PolicyReport,
  objects: readonly SourcedObject[],
  problems: InputProblem[],
  settings: LintSettings,
  quiet: boolean | undefined,
  io: CliIo,
): void {
  const { formatJson, formatSarif, formatText } = require('../policy/format') as typeof import('../policy/format');
  const { fieldPosition } = require('../manifests') as typeof import('../manifests');
  const sources = objects.map((o) => ({ file: o.file, line: o.line, locate: (path: string) => fieldPosition(o, path) }));
  if (settings.format === 'json') io.out(formatJson(report, sources, { quiet, problems }));
  else if (settings.format === 'sarif') {
    io.out(formatSarif(report, sources, { toolVersion: require('../../package.json').version, quiet, problems }));
  } else io.out(formatText(report, sources, { color: io.isTTY, quiet }));
}

async function lint(paths: readonly string[], options: LintOptions, io: CliIo, exit: ExitCode): Promise<void> {
  // The rule catalogue is loaded in the functions that use it (synchronously, so that every loader resolves it), so
  // that other subcommands do not pay for it.
  const { describeProblem } = require('../manifests') as typeof import('../manifests');
  const settings = await lintSettings(paths, options, io);
  if (typeof settings === 'string') {
    io.err(`node-services lint: ${settings}\n`);
    exit.code = 2;
    return;
  }
  const { report, problems, versionProblems, sources, kinds } = await readAndCheck(paths, settings, io);
  for (const p of problems) io.err(`node-services: ${describeProblem(p)}\n`);
  if (sources.length === 0) {
    // Problems were written; an input that holds only empty lists is a gate over nothing.
    if (problems.length === 0) io.err(`node-services: ${nothingToCheck(paths, 'no objects')}\n`);
    exit.code = 2;
    return;
  }
  for (const p of versionProblems) io.err(`node-services: ${p.file}: ${p.message}\n`);
  const inputProblems: InputProblem[] = [
    ...problems.map((p) => ({ file: p.file, line: p.line, column: p.column, message: p.message })),
    ...versionProblems.map((p) => ({ file: p.file, message: p.message })),
  ];
  if (report.checkedObjects === 0 && inputProblems.length === 0) {
    // No DaemonSet at all: exit 0 would be a verdict over nothing.
    const message = nothingToCheck(paths, kinds.toString());
    io.err(`node-services: ${message}\n`);
    inputProblems.push({ file: '', message });
  }
  writeReport(report, sources, inputProblems, settings, options.quiet, io);
  exit.code = inputProblems.length > 0 ? 2 : report.errorCount > 0 ? 1 : 0;
}

const HELP_AFTER = `
Exit codes:
  0  no error findings (warnings and info do not fail)
  1  at least one unsuppressed error finding
  2  usage error, an input that could not be read or is refused (see above), or nothing to check; every readable
     file is still checked and reported

Kinds: each DaemonSet is checked as the node-service kind its ${KIND_ANNOTATION} annotation names, else
as the kind its shape shows (CNI, CSI node plugin, kube-proxy, device plugin, GPU, log, metrics, security agent).
Only a declared kind gets its allowances (the writes, capabilities and host namespaces it needs). An inferred kind
hides nothing: such findings stay warnings (an error stays one unless an image shows the kind) and say how to
declare it, so adding a mount never changes the exit code from 1 to 0 (docs/kinds.md).

Guardrails: when the input holds the ValidatingAdmissionPolicies NodeServiceGuardrails renders and the Namespaces of
the DaemonSets, each DaemonSet those policies would deny is an error (guardrails-deny, docs/self-checks.md).

Examples:
  node-services lint manifests/                         # every *.yaml, *.yml, *.json below manifests/
  node-services lint dist/                              # a fleet: each clusters/<name>/ at its kubernetes-version
  helm template cilium cilium/cilium | node-services lint -
  node-services lint -o sarif dist/ > lint.sarif        # code scanning, with the line and column of each field
  node-services lint --quiet -c lint-config.yaml dist/  # errors only, with a rule configuration
`;

/** Registers `node-services lint`. */
export function registerLintCommand(program: Command, io: CliIo, exit: ExitCode): void {
  program
    .command('lint')
    .description('Check DaemonSet manifests against the node-services rule catalogue (docs/rules.md).')
    .argument('[paths...]', 'YAML/JSON files or folders (searched for *.yaml, *.yml, *.json), or - for stdin')
    .addOption(new Option('-o, --output <format>', 'report format (as in `coverage --output`)').choices(FORMATS))
    .addOption(new Option('-f, --format <format>', 'report format (same as --output)').choices(FORMATS))
    .option('-q, --quiet', 'show error findings only (the summary still counts everything)')
    .option(
      '-c, --config <file>',
      "rule configuration, YAML or JSON: {rules: {<rule-id>: off|warning|error}, imageRegistries: [<prefix>...], kubernetesVersion: '1.30'}",
    )
    .option(
      '--kubernetes-version <version>',
      `the Kubernetes version the manifests are meant for, ${KUBERNETES_VERSION_RANGE} (default: 1.28, or the config file)`,
    )
    .addHelpText('after', refusalsHelp('lint') + HELP_AFTER)
    .action(async (paths: string[], options: LintOptions) => lint(paths, options, io, exit));
}
