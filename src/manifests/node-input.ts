/**
 * The input contract of node and pod lists (`--nodes`, `--pods` of `coverage`, `diff` and `plan`): a file, a folder
 * of such files, or standard input, streamed (`node-stream.ts`). What is not one cluster's list of Node (or Pod)
 * objects is refused with one {@link InputError} naming the input, what was expected and the fix: an empty input,
 * a `kubectl get` table, values that are not objects, objects or lists of another kind, a node without a name, a
 * node or pod listed twice. An empty list (`{"kind": "List", "items": []}`) is a valid, empty answer.
 */

import * as fs from 'fs';
import { describeProblem } from './documents';
import { describeTable, kubectlTableAt } from './kubectl-table';
import { ChunkSource, NodeStreamError, fileChunks, readObjectStream } from './node-stream';
import { InputError, expandPaths } from './read';

/** The kinds of object lists the CLI reads. */
export type ListKind = 'Node' | 'Pod';

/** What each list is, and how to write one. */
const EXPECTED: Record<ListKind, { readonly what: string; readonly command: string }> = {
  Node: { what: 'Node objects (a NodeList or List, JSON lines or YAML)', command: 'kubectl get nodes -o json > nodes.json' },
  Pod: { what: 'Pod objects (a PodList or List, JSON lines or YAML)', command: 'kubectl get pods -A -o json > pods.json' },
};

/** `; <flag> expects …: write it with …`, the end of every message about a list input. */
function expectedList(kind: ListKind, flag: string): string {
  return `; ${flag} expects ${EXPECTED[kind].what}: ${EXPECTED[kind].command}`;
}

function describeObject(object: any): string {
  const kind = typeof object?.kind === 'string' ? object.kind : 'object';
  const name = object?.metadata?.name;
  return typeof name === 'string' ? `${kind} ${JSON.stringify(name)}` : `a ${kind} without metadata.name`;
}

function isRegularFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first bytes of an input, kept to recognise a `kubectl get` table, and whether the input had any byte. */
class Head {
  public text = '';
  public bytes = 0;
  public push(raw: Buffer | string): void {
    this.bytes += raw.length;
    if (this.text.length < 4096) this.text += typeof raw === 'string' ? raw.slice(0, 4096) : raw.toString('utf8', 0, 4096);
  }
}

/** `source`, with its first bytes noted in `head`. */
async function* noting(source: ChunkSource, head: Head): AsyncGenerator<Buffer | string> {
  for await (const raw of source as AsyncIterable<Buffer | string>) {
    head.push(raw);
    yield raw;
  }
}

/** What names an object of the list: a node's name; a pod's namespace and name (`kube-system/kube-proxy-x2x4l`). */
function identityOf(kind: ListKind, object: any, name: string): string {
  if (kind === 'Node') return name;
  const namespace = object?.metadata?.namespace;
  return `${typeof namespace === 'string' && namespace.length > 0 ? namespace : 'default'}/${name}`;
}

/** The nodes (or pods) read so far, by identity, with where. */
type NodeNames = Map<string, { readonly file: string; readonly line: number }>;

/** The checks on each object of one read of one file (fresh for each read: a file may be read twice). */
function objectChecks(file: string, kind: ListKind, flag: string, keep: (o: any) => any, into: any[], names: NodeNames) {
  const fix = expectedList(kind, flag);
  let values = 0;
  const fail = (line: number, what: string): never => {
    throw new InputError(`${file}:${line}: ${what}${fix}`);
  };
  return {
    get values() {
      return values;
    },
    sink: (object: any, line: number) => {
      values++;
      if (object?.kind !== undefined && object.kind !== kind) fail(line, `${describeObject(object)}, not a ${kind}`);
      const name = object?.metadata?.name;
      if (typeof name !== 'string' || name.length === 0)
        fail(line, `a ${kind} has no metadata.name; every ${kind.toLowerCase()} needs its name`);
      const key = identityOf(kind, object, name);
      const first = names.get(key);
      if (first !== undefined) {
        const at = first.file === file ? `line ${first.line}` : `${first.file}:${first.line}`;
        const list = kind === 'Node' ? "a node list is one cluster's nodes, each once" : "a pod list is one cluster's pods, each once";
        fail(line, `${kind.toLowerCase()} ${JSON.stringify(key)} is listed twice (first at ${at}); ${list}`);
      }
      names.set(key, { file, line });
      const kept = keep(object);
      if (kept !== undefined) into.push(kept);
    },
    onList: (listKind: string, line: number) => {
      values++;
      if (listKind !== 'List' && listKind !== `${kind}List`) fail(line, `a ${listKind}, not a list of ${kind}s`);
    },
    onNonObject: (description: string, line: number) => {
      values++;
      fail(line, `not a Kubernetes object: ${description}`);
    },
  };
}

/** Why a file read as nothing is refused: it is empty, or holds only whitespace and comments. */
function emptyMessage(file: string, head: Head, kind: ListKind, flag: string): string {
  const what = head.bytes === 0 ? 'is empty (0 bytes)' : 'holds no objects (only whitespace or comments)';
  return `${file}: ${what}; did the command that wrote it fail?${expectedList(kind, flag)}`;
}

/**
 * Reads one file (or `-`) of a list input, counting lines or not; throws an {@link InputError} for anything the
 * contract refuses.
 */
async function readListFile(
  file: string,
  source: () => ChunkSource,
  kind: ListKind,
  flag: string,
  keep: (o: any) => any,
  lines: boolean,
  into: any[],
  names: NodeNames,
): Promise<void> {
  const head = new Head();
  const checks = objectChecks(file, kind, flag, keep, into, names);
  const table = () => {
    const found = kubectlTableAt(head.text);
    if (found !== undefined) {
      throw new InputError(
        `${file}:${found.line}: ${describeTable(found)}, not ${kind} objects (kubectl prints objects only with -o json)${expectedList(kind, flag)}`,
      );
    }
  };
  try {
    await readObjectStream(noting(source(), head), file, checks.sink, { lines, onList: checks.onList, onNonObject: checks.onNonObject });
  } catch (e) {
    table();
    if (e instanceof NodeStreamError) throw new InputError(`${e.message}${expectedList(kind, flag)}`);
    throw e;
  }
  table();
  if (checks.values === 0) throw new InputError(emptyMessage(file, head, kind, flag));
}

/**
 * Reads the Node or Pod objects of `input` (a file, a folder of such files, or `-` read from `stdin`), given as `flag`:
 * kubectl `-o json` lists, JSON lines or YAML, streamed; `keep` maps each object to what the caller holds (or
 * `undefined` to drop it). Throws one {@link InputError} for an input the contract refuses (see the file comment).
 */
export async function readObjectList(
  input: string,
  kind: ListKind,
  flag: string,
  stdin: () => ChunkSource,
  keep: (o: any) => any = (o) => o,
): Promise<any[]> {
  const out: any[] = [];
  const expanded = input === '-' ? { files: ['-'], problems: [] } : expandPaths([input]);
  if (expanded.problems.length > 0) throw new InputError(`${describeProblem(expanded.problems[0])}${expectedList(kind, flag)}`);
  const names: NodeNames = new Map();
  for (const file of expanded.files) {
    const source = () => (file === '-' ? stdin() : fileChunks(file));
    const before = new Map(names);
    try {
      // A regular file is read without counting lines; only an error reads it again, counting them, to say where it
      // is. Standard input and pipes (`--nodes <(kubectl …)`) cannot be read twice: their lines are always counted.
      const again = file !== '-' && isRegularFile(file);
      try {
        await readListFile(file, source, kind, flag, keep, !again, out, names);
      } catch (e) {
        if (!again || !(e instanceof InputError)) throw e;
        await readListFile(file, source, kind, flag, keep, true, [], before);
        throw e;
      }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== undefined && !(e instanceof InputError)) throw new InputError(`${file}: cannot read (${code})`);
      throw e;
    }
  }
  return out;
}
