/**
 * The `node-services` command line: `lint` checks any DaemonSet YAML against the rule catalogue, `coverage`
 * explains which nodes get (or miss) each DaemonSet's pod. Exit codes: 0 fine, 1 findings (errors, or missing
 * coverage with `--fail-on-missing`), 2 usage errors or unreadable input.
 */

import { Command, CommanderError } from 'commander';
import { registerCoverageCommand } from './coverage';
import { registerDiffCommand } from './diff';
import { registerImportCommand } from './import';
import { CliIo, ExitCode, InputError, processIo } from './io';
import { registerLintCommand } from './lint';
import { registerPlanCommand } from './plan';

/** Runs the CLI with `argv` (without the `node` and script entries) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const exit: ExitCode = { code: 0 };
  const program = new Command();
  program
    .name('node-services')
    .description(
      'Check node-service DaemonSets (lint), explain their node coverage (coverage) and what a change does (diff, plan); ' +
        'coverage, diff and plan also take a fleet, one folder per cluster (--clusters).',
    )
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError(false);
  program.version(require('../../package.json').version, '-V, --version');
  registerLintCommand(program, io, exit);
  registerCoverageCommand(program, io, exit);
  registerDiffCommand(program, io, exit);
  registerPlanCommand(program, io, exit);
  registerImportCommand(program, io, exit);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version requests exit 0; every other commander error is a usage error.
      return e.exitCode === 0 ? 0 : 2;
    }
    if (e instanceof InputError) {
      io.err(`node-services: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  return exit.code;
}
