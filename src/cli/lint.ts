/**
 * `node-services lint [paths… | -]`: checks DaemonSets in YAML/JSON files, folders or stdin against the rule
 * catalogue. Exit codes: 0 clean or warnings only, 1 error findings, 2 usage errors or unreadable input. Loads the
 * rules only when the command runs, and never cdk8s or cdk8s-plus.
 */

import { Command, Option } from 'commander';
import { KubernetesVersion, kubernetesVersionError } from '../k8s/api-fields/versions';
import type { ExitCode } from './main';
import { CliIo, InputError, parseObjects, readObjects, readText } from './io';

/** Options of `node-services lint`. */
interface LintOptions {
  readonly format: 'text' | 'json' | 'sarif';
  readonly config?: string;
  readonly kubernetesVersion?: string;
}

async function lint(paths: readonly string[], options: LintOptions, io: CliIo, exit: ExitCode): Promise<void> {
  // Loaded here (synchronously, so that every loader resolves them) so that other subcommands do not pay for the
  // rule catalogue.
  const { mergeConfigs, PolicyConfigError, ruleConfigFromValue } = require('../policy/config') as typeof import('../policy/config');
  const { checkManifests } = require('../policy/engine') as typeof import('../policy/engine');
  const { formatJson, formatSarif, formatText } = require('../policy/format') as typeof import('../policy/format');

  if (paths.length === 0) {
    io.err('node-services lint: no input; give files or folders (*.yaml, *.yml, *.json), or - to read stdin\n');
    exit.code = 2;
    return;
  }
  const version = options.kubernetesVersion;
  const versionError = version === undefined ? undefined : kubernetesVersionError(version);
  if (versionError !== undefined) {
    io.err(`node-services lint: --kubernetes-version ${JSON.stringify(version)} ${versionError}\n`);
    exit.code = 2;
    return;
  }
  let config;
  try {
    if (options.config) {
      const text = await readText(options.config, io);
      const docs = parseObjects(text, options.config);
      config = ruleConfigFromValue(docs.length === 0 ? {} : docs[0].object, options.config);
    }
  } catch (e) {
    if (e instanceof PolicyConfigError || e instanceof InputError) {
      io.err(`node-services lint: config ${e.message}\n`);
      exit.code = 2;
      return;
    }
    throw e;
  }
  // The flag overrides the configuration file.
  if (version !== undefined) config = mergeConfigs(config, { kubernetesVersion: version as KubernetesVersion });
  const objects = await readObjects(paths, io);
  const report = checkManifests(
    objects.map((o) => o.object),
    config,
  );
  const sources = objects.map((o) => ({ file: o.file, line: o.line }));
  if (options.format === 'json') io.out(formatJson(report, sources));
  else if (options.format === 'sarif') io.out(formatSarif(report, sources, { toolVersion: require('../../package.json').version }));
  else io.out(formatText(report, sources, { color: io.isTTY }));
  exit.code = report.errorCount > 0 ? 1 : 0;
}

/** Registers `node-services lint`. */
export function registerLintCommand(program: Command, io: CliIo, exit: ExitCode): void {
  program
    .command('lint')
    .description('Check DaemonSet manifests against the node-services rule catalogue (docs/rules.md).')
    .argument('[paths...]', 'YAML/JSON files or folders (searched for *.yaml, *.yml, *.json), or - for stdin')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json', 'sarif']).default('text'))
    .option(
      '-c, --config <file>',
      "rule configuration, YAML or JSON: {rules: {<rule-id>: off|warning|error}, imageRegistries: [<prefix>...], kubernetesVersion: '1.30'}",
    )
    .option(
      '--kubernetes-version <version>',
      'the Kubernetes version the manifests are meant for, 1.28 to 1.33 (default: 1.28, or the config file)',
    )
    .action(async (paths: string[], options: LintOptions) => lint(paths, options, io, exit));
}
