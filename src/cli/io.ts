/**
 * Input and output for the `node-services` CLI: the process's streams, and the manifest reader of `manifests/`
 * bound to them (files, folders and stdin, with `file:line:col` errors instead of stack traces). Imports neither
 * cdk8s nor cdk8s-plus so that the CLI starts fast.
 */

import { InputError, readFileText, SourcedObject } from '../manifests';
import { OneClusterInput, readOneCluster } from '../manifests/contract';
import { ListKind, readObjectList } from '../manifests/node-input';
import type { ChunkSource } from '../manifests/node-stream';

export { InputError, parseObjects, SourcedObject } from '../manifests';

/** Exit code holder shared by subcommands. */
export interface ExitCode {
  /** The exit code to finish with. */
  code: number;
}

/** Where the CLI writes and reads; injected so that commands can be tested in-process. */
export interface CliIo {
  /** Writes to standard output. */
  readonly out: (text: string) => void;
  /** Writes to standard error. */
  readonly err: (text: string) => void;
  /** Reads all of standard input. */
  readonly readStdin: () => Promise<string>;
  /**
   * Standard input as a stream of chunks, for inputs of any size (the `--nodes -` and `--pods -` lists are read
   * through it, never held as one string). @default one chunk, `readStdin()`'s text
   */
  readonly stdinChunks?: () => ChunkSource;
  /** Whether standard output is a terminal (colours are used only then). */
  readonly isTTY: boolean;
  /** Whether standard error is a terminal (progress of long runs is shown only then). @default false */
  readonly errIsTTY?: boolean;
}

/**
 * A progress reporter: `node-services: <step>…` lines on standard error when it is a terminal, nothing otherwise (so
 * CI logs and redirected output stay clean).
 */
export function progressOf(io: CliIo): (step: string) => void {
  if (io.errIsTTY !== true) return () => undefined;
  return (step) => io.err(`node-services: ${step}…\n`);
}

/** Standard input in chunks: `io.stdinChunks`, else `io.readStdin()` as one chunk. */
export function stdinChunks(io: CliIo): ChunkSource {
  if (io.stdinChunks !== undefined) return io.stdinChunks();
  return (async function* () {
    yield await io.readStdin();
  })();
}

/** Reads a file's text (`-` reads stdin); throws an {@link InputError} when it cannot be read. */
export async function readText(file: string, io: CliIo): Promise<string> {
  if (file === '-') return io.readStdin();
  const read = readFileText(file);
  if (read.problem) throw new InputError(`${file}: ${read.problem.message}`);
  return read.text as string;
}

/**
 * Reads one cluster's manifests from the given paths (files, folders, `-`) under the input contract of
 * `manifests/contract.ts`, throwing one {@link InputError} listing every problem.
 */
export async function readClusterManifests(inputs: readonly string[], io: CliIo, options: OneClusterInput): Promise<SourcedObject[]> {
  return readOneCluster(inputs, io.readStdin, options);
}

/**
 * Reads the Node or Pod objects of `input` (a file, a folder, or `-`) under the input contract of
 * `manifests/node-input.ts`; `keep` maps each object to what the caller holds (or `undefined` to drop it).
 */
export async function readList(input: string, kind: ListKind, flag: string, io: CliIo, keep?: (o: any) => any): Promise<any[]> {
  return readObjectList(input, kind, flag, () => stdinChunks(io), keep);
}

/** The default I/O: the process's streams. */
export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    readStdin: () =>
      new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        process.stdin.on('data', (c: Buffer) => chunks.push(c));
        process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        process.stdin.on('error', reject);
      }),
    stdinChunks: () => process.stdin,
    isTTY: Boolean(process.stdout.isTTY),
    errIsTTY: Boolean(process.stderr.isTTY),
  };
}
