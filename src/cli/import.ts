/**
 * `node-services import <file|folder|-> --out DIR`: turns DaemonSets (and the objects that belong to them) into a
 * typed cdk8s app built with this library's constructs, for the Kubernetes version its input needs (or
 * `--kubernetes-version`); `--check` synthesizes it and classifies every difference from the input. Exit codes: 0, 1
 * when `--check` finds an unexplained difference or the target does not have a field of the input, 2 on usage errors
 * or unreadable input. Thin wiring of `src/adopt`; the library's constructs (and cdk8s) are loaded only when this command runs.
 */

import * as fs from 'fs';
import * as path from 'path';
import { Command, Option } from 'commander';
import { CliIo, InputError, readClusterManifests, readList, ExitCode } from './io';
import { slimNode } from '../manifests/slim';
import type { AdoptRuntime } from '../adopt';
import { formatReportJson, formatReportMarkdown, importManifests, ImportReport, REPORT_FILE } from '../adopt';
import { NodeServiceKind } from '../policy/kinds';
import { KUBERNETES_VERSION_RANGE } from '../k8s/api-fields/versions';
import { kubernetesVersionFlag } from './flags';

interface ImportFlags {
  readonly out: string;
  readonly kind?: NodeServiceKind;
  readonly check?: boolean;
  readonly nodes?: string;
  readonly format: 'text' | 'json' | 'markdown';
  readonly kubernetesVersion?: string;
}

/** The library, cdk8s and constructs, loaded on first use (the other commands never load them). */
function loadRuntime(): AdoptRuntime {
  const entry = path.join(__dirname, '..', 'index');
  try {
    return { library: require(entry), cdk8s: require('cdk8s'), constructs: require('constructs') };
  } catch (e) {
    throw new InputError(
      `import needs the peer dependencies cdk8s, cdk8s-plus-28 and constructs installed next to cdk8s-node-services (${(e as Error).message.split('\n')[0]})`,
    );
  }
}

function summary(report: ImportReport, out: string, files: readonly string[]): string {
  const lines = [`Wrote ${files.length} file(s) and ${REPORT_FILE} to ${out}:`];
  for (const s of report.services) {
    lines.push(
      `  ${s.module}: ${s.daemonSet} as ${s.construct} (kind ${s.kind}), ${s.escapeHatch.length} value(s) through the escape hatch`,
      `    chose ${s.construct}: ${s.constructReason}`,
      ...(s.placement !== undefined ? [`    placement ${s.placement}`] : []),
    );
  }
  if (report.target !== undefined) lines.push(`Target: ${report.target.reason}.`);
  for (const p of report.target?.missing ?? []) lines.push(`  ${p.object} in ${p.file}: ${p.message}`);
  if (report.checked) {
    lines.push(
      report.unexplained === 0
        ? 'Check: no unexplained difference between the generated app and the input.'
        : `Check: ${report.unexplained} unexplained difference(s); see ${path.join(out, REPORT_FILE)}.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Registers `import`. */
export function registerImportCommand(program: Command, io: CliIo, exit: ExitCode): void {
  program
    .command('import')
    .description(
      'Turn DaemonSets (apps/v1, OpenKruise) and the objects that belong to them (ServiceAccount, RBAC, mounted ConfigMaps ' +
        'and Secrets, node-local Service, monitors, PriorityClass) into a typed cdk8s app: DIR/main.ts and one module per ' +
        'node service, plus DIR/IMPORT-REPORT.md. Run it with `npx tsx main.ts` or `cdk8s synth` (app: npx tsx main.ts).',
    )
    .argument(
      '<input>',
      'the manifests: a file or folder (*.yaml, *.yml, *.json), or - for standard input (helm template, kubectl get -o yaml)',
    )
    .requiredOption('-o, --out <dir>', 'the folder to write the app to (created when missing)')
    .addOption(
      new Option('--kind <kind>', 'the kind of DaemonSets without a kind annotation (default: inferred from their shape)').choices(
        Object.values(NodeServiceKind),
      ),
    )
    .option(
      '--nodes <file>',
      "the cluster's nodes (kubectl get nodes -o json, a file or -): propose NodePools from their labels and taints, and express a DaemonSet's node selection as pools where that covers exactly the same nodes (--check proves it on these nodes)",
    )
    .option(
      '--kubernetes-version <version>',
      `the Kubernetes version the app targets, ${KUBERNETES_VERSION_RANGE} (default: the lowest whose API has every field of the input); a field of the input that version does not have is reported and fails the import`,
    )
    .option('--check', 'synthesize the generated app and compare it with the input: exit 1 on any unexplained difference')
    .addOption(
      new Option('-f, --format <format>', 'output format of the summary (the report)')
        .choices(['text', 'json', 'markdown'])
        .default('text'),
    )
    .action(async (input: string, flags: ImportFlags) => {
      const kubernetesVersion = kubernetesVersionFlag(flags.kubernetesVersion)?.version;
      const objects = await readClusterManifests([input], io, {
        flag: '<input>',
        clustersCommand: (root) => `import ${root}/<cluster> --out <dir>, once per cluster folder of ${root}`,
      });
      if (!objects.some((o) => o.object?.kind === 'DaemonSet')) throw new InputError(`${input}: no DaemonSet to import`);
      const nodes = flags.nodes !== undefined ? await readList(flags.nodes, 'Node', '--nodes', io, slimNode) : undefined;
      const result = await importManifests(objects, {
        kind: flags.kind,
        check: flags.check === true,
        runtime: loadRuntime(),
        nodes,
        kubernetesVersion,
      });
      fs.mkdirSync(flags.out, { recursive: true });
      for (const [name, text] of result.files) fs.writeFileSync(path.join(flags.out, name), text);
      const markdown = formatReportMarkdown(result.report);
      fs.writeFileSync(path.join(flags.out, REPORT_FILE), markdown);
      if (flags.format === 'json') io.out(formatReportJson(result.report));
      else if (flags.format === 'markdown') io.out(markdown);
      else io.out(summary(result.report, flags.out, [...result.files.keys()]));
      if (result.report.unexplained > 0) exit.code = 1;
    });
}
