/**
 * Input and output for the `node-services` CLI: reading Kubernetes objects from files, folders and stdin
 * (multi-document YAML, JSON, `List` kinds), with `file:line:col` errors instead of stack traces.
 * Imports neither cdk8s nor cdk8s-plus so that the CLI starts fast.
 */

import * as fs from 'fs';
import * as path from 'path';
import { LineCounter, parseAllDocuments } from 'yaml';

/** Where the CLI writes and reads; injected so that commands can be tested in-process. */
export interface CliIo {
  /** Writes to standard output. */
  readonly out: (text: string) => void;
  /** Writes to standard error. */
  readonly err: (text: string) => void;
  /** Reads all of standard input. */
  readonly readStdin: () => Promise<string>;
  /** Whether standard output is a terminal (colours are used only then). */
  readonly isTTY: boolean;
}

/** A Kubernetes object read from an input, with where it came from. */
export interface SourcedObject {
  /** The object (plain JSON). */
  readonly object: any;
  /** The file it came from (`-` for stdin). */
  readonly file: string;
  /** 1-based line of the document (or list item) in the file, when known. */
  readonly line?: number;
}

/** An input that could not be read or parsed. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** Expands files and folders (recursing into `*.yaml`, `*.yml`, `*.json`) into a sorted list of files; `-` is kept. */
function expandPaths(inputs: readonly string[], extensions: readonly string[] = ['.yaml', '.yml', '.json']): string[] {
  const files: string[] = [];
  for (const input of inputs) {
    if (input === '-') {
      files.push(input);
      continue;
    }
    let stat: fs.Stats;
    try {
      stat = fs.statSync(input);
    } catch {
      throw new InputError(`${input}: no such file or directory`);
    }
    if (stat.isDirectory()) {
      files.push(...walk(input, extensions));
    } else {
      files.push(input);
    }
  }
  return files;
}

function walk(dir: string, extensions: readonly string[]): string[] {
  const out: string[] = [];
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      out.push(...walk(full, extensions));
    } else if (extensions.includes(path.extname(entry.name).toLowerCase())) {
      out.push(full);
    }
  }
  return out;
}

/** Reads a file's text (`-` reads stdin). */
export async function readText(file: string, io: CliIo): Promise<string> {
  if (file === '-') return io.readStdin();
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/**
 * Parses the text of one input into objects. JSON is parsed with `JSON.parse` (fast path for large node lists);
 * anything else as multi-document YAML. `List` kinds (`v1/List`, `NodeList`, `PodList`…) are expanded into their
 * items. Empty documents are skipped. Throws an {@link InputError} naming `file:line:col` on malformed input.
 */
export function parseObjects(text: string, file: string): SourcedObject[] {
  const trimmed = text.trimStart();
  const out: SourcedObject[] = [];
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
      pushValue(value, file, undefined, out);
      return out;
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      // Not strict JSON (e.g. a YAML flow mapping): fall through to the YAML parser for a positioned error.
    }
  }
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: false, merge: true });
  if (!Array.isArray(docs)) {
    // An empty stream parses to an EmptyStream with no documents.
    return out;
  }
  for (const doc of docs) {
    if (doc.errors.length > 0) {
      const err = doc.errors[0];
      const pos = lineCounter.linePos(err.pos[0]);
      const message = err.message.split('\n')[0];
      throw new InputError(`${file}:${pos.line}:${pos.col}: ${message}`);
    }
    const value = doc.toJS({ maxAliasCount: 1000 });
    if (value === null || value === undefined) continue;
    const line = doc.contents?.range ? lineCounter.linePos(doc.contents.range[0]).line : undefined;
    pushValue(value, file, line, out);
  }
  return out;
}

function pushValue(value: unknown, file: string, line: number | undefined, out: SourcedObject[]): void {
  if (Array.isArray(value)) {
    for (const item of value) pushValue(item, file, line, out);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const obj = value as any;
  if (typeof obj.kind === 'string' && obj.kind.endsWith('List') && Array.isArray(obj.items)) {
    for (const item of obj.items) pushValue(item, file, line, out);
    return;
  }
  out.push({ object: obj, file, line });
}

/** Reads every object from the given paths (files, folders, `-`). */
export async function readObjects(inputs: readonly string[], io: CliIo): Promise<SourcedObject[]> {
  const out: SourcedObject[] = [];
  for (const file of expandPaths(inputs)) {
    out.push(...parseObjects(await readText(file, io), file));
  }
  return out;
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
    isTTY: Boolean(process.stdout.isTTY),
  };
}
