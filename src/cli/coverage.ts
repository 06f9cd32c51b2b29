import { Command } from 'commander';
import type { ExitCode } from './main';
import { CliIo } from './io';

/** Registers `node-services coverage` (implemented in the coverage work). */
export function registerCoverageCommand(program: Command, io: CliIo, exit: ExitCode): void {
  void program;
  void io;
  void exit;
}
