import { CliIo } from '../../src/cli/io';
import { main } from '../../src/cli/main';

/** What one in-process CLI run produced. */
export interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs `node-services <args>` in-process with a fake terminal, returning the exit code and both streams. */
export async function runCli(
  args: string[],
  options: {
    stdin?: string;
    /** Standard input as these chunks (streamed, as the process's stdin is); `readStdin` then joins them. */
    stdinChunks?: ReadonlyArray<string | Buffer>;
    isTTY?: boolean;
    errIsTTY?: boolean;
  } = {},
): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (t) => void out.push(t),
    err: (t) => void err.push(t),
    readStdin: async () =>
      options.stdinChunks !== undefined
        ? Buffer.concat(options.stdinChunks.map((c) => Buffer.from(c))).toString('utf8')
        : (options.stdin ?? ''),
    ...(options.stdinChunks !== undefined
      ? {
          stdinChunks: () =>
            (async function* () {
              for (const chunk of options.stdinChunks!) yield chunk;
            })(),
        }
      : {}),
    isTTY: options.isTTY ?? false,
    errIsTTY: options.errIsTTY ?? false,
  };
  const code = await main(args, io);
  return { code, out: out.join(''), err: err.join('') };
}
