import { CliIo } from '../../src/cli/io';
import { main } from '../../src/cli/main';

/** What one in-process CLI run produced. */
export interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs `node-services <args>` in-process with a fake terminal, returning the exit code and both streams. */
export async function runCli(args: string[], options: { stdin?: string; isTTY?: boolean; errIsTTY?: boolean } = {}): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (t) => void out.push(t),
    err: (t) => void err.push(t),
    readStdin: async () => options.stdin ?? '',
    isTTY: options.isTTY ?? false,
    errIsTTY: options.errIsTTY ?? false,
  };
  const code = await main(args, io);
  return { code, out: out.join(''), err: err.join('') };
}
