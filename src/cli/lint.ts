import { Command } from 'commander';
import type { ExitCode } from './main';
import { CliIo } from './io';

/** Registers `node-services lint` (implemented in the policy work). */
export function registerLintCommand(program: Command, io: CliIo, exit: ExitCode): void {
  void program;
  void io;
  void exit;
}
