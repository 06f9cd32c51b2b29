/**
 * Reading Kubernetes objects from files, folders and stdin the way kubectl does: multi-document YAML (1.1) and JSON,
 * `List` kinds expanded, folders searched for `*.yaml`, `*.yml` and `*.json`. A file that cannot be read is a
 * problem with `file:line:col`, and every other file is still read.
 */

import * as fs from 'fs';
import * as path from 'path';
import {
  binaryAt,
  describeProblem,
  DocumentChunk,
  documentChunks,
  DocumentSource,
  ReadDocument,
  readChunk,
  ReadProblem,
  ReadProblemKind,
} from './documents';
import { describeTable, kubectlTableAt } from './kubectl-table';
import { FieldPosition, locateField, PathSegment } from './positions';
import { InputError } from './input-error';

export { InputError } from './input-error';

/** A Kubernetes object read from an input, with where it came from. */
export interface SourcedObject {
  /** The object (plain JSON). */
  readonly object: any;
  /** The file it came from (`-` for stdin). */
  readonly file: string;
  /** 1-based line of the document (or list item) in the file, when known. */
  readonly line?: number;
  /** The document it came from, for field positions. */
  readonly source?: DocumentSource;
  /** Path of the object inside its document (`['items', 3]` for an item of a `List`). */
  readonly pathInDocument?: readonly PathSegment[];
}

/** The objects and the problems of a read. */
export interface ReadResult {
  /** Every object read, in input order. */
  readonly objects: SourcedObject[];
  /** Every input (or document) that could not be read. */
  readonly problems: ReadProblem[];
  /** How many files were read (stdin counts as one). */
  readonly files: number;
}

/** The extensions a folder is searched for. */
export const MANIFEST_EXTENSIONS: readonly string[] = ['.yaml', '.yml', '.json'];

/** The position of a field of a read object, by the JSON path a rule reported. */
export function fieldPosition(object: SourcedObject, fieldPath: string): FieldPosition | undefined {
  if (!object.source) return undefined;
  return locateField(object.source, fieldPath, object.pathInDocument ?? []);
}

/** Expands files and folders (recursing into manifest files) into a sorted list of files; `-` is kept. */
export function expandPaths(inputs: readonly string[]): { files: string[]; problems: ReadProblem[] } {
  const files: string[] = [];
  const problems: ReadProblem[] = [];
  for (const input of inputs) {
    if (input === '-') {
      files.push(input);
      continue;
    }
    let stat: fs.Stats;
    try {
      stat = fs.statSync(input);
    } catch {
      problems.push({ kind: ReadProblemKind.NOT_FOUND, file: input, message: 'no such file or directory' });
      continue;
    }
    if (stat.isDirectory()) {
      const found = walk(input, problems);
      if (found.length === 0) {
        problems.push({
          kind: ReadProblemKind.NO_MANIFESTS,
          file: input,
          message: `no ${MANIFEST_EXTENSIONS.map((e) => `*${e}`).join(', ')} files in this folder`,
        });
      }
      for (const f of found) files.push(f);
    } else {
      files.push(input);
    }
  }
  return { files, problems };
}

function walk(dir: string, problems: ReadProblem[]): string[] {
  const out: string[] = [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    problems.push({ kind: ReadProblemKind.UNREADABLE, file: dir, message: `cannot read folder (${errorCode(e)})` });
    return out;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      for (const f of walk(full, problems)) out.push(f);
    } else if (MANIFEST_EXTENSIONS.includes(path.extname(entry.name).toLowerCase())) {
      out.push(full);
    }
  }
  return out;
}

function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}

/** Reads a file's text; a problem when it cannot be read or is binary. */
export function readFileText(file: string): { text?: string; problem?: ReadProblem } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return { problem: { kind: ReadProblemKind.UNREADABLE, file, message: `cannot read (${errorCode(e)})` } };
  }
  return checkText(text, file);
}

function checkText(text: string, file: string): { text?: string; problem?: ReadProblem } {
  const binary = binaryAt(text);
  if (binary) {
    return {
      problem: { kind: ReadProblemKind.BINARY, file, message: 'binary data, not YAML or JSON', line: binary.line, column: binary.column },
    };
  }
  return { text };
}

/** `items[3]`, `[1]`: where a value sits in its document, for messages. */
function pathText(at: readonly PathSegment[]): string {
  return at.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/**
 * Pushes the objects of a document's value (list items expanded); an element of a list that is not an object is a
 * problem (the first of each document is reported).
 */
function pushValue(value: unknown, file: string, line: number, source: DocumentSource | undefined, at: PathSegment[], out: ValueOut): void {
  if (value === null || typeof value !== 'object') {
    if (at.length === 0 || out.reported) return;
    out.reported = true;
    const what = value === null ? 'null' : `a ${typeof value}`;
    out.problems.push({ kind: ReadProblemKind.NOT_AN_OBJECT, file, line, message: `not a Kubernetes object: ${pathText(at)} is ${what}` });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => pushValue(item, file, line, source, [...at, i], out));
    return;
  }
  const obj = value as any;
  if (typeof obj.kind === 'string' && obj.kind.endsWith('List') && Array.isArray(obj.items)) {
    obj.items.forEach((item: unknown, i: number) => pushValue(item, file, line, source, [...at, 'items', i], out));
    return;
  }
  out.onObject({ object: obj, file, line, source, pathInDocument: at.length > 0 ? at : undefined });
}

/** Where {@link pushValue} puts the objects and problems of one document. */
interface ValueOut {
  readonly onObject: (object: SourcedObject) => void;
  readonly problems: ReadProblem[];
  reported: boolean;
}

function notAnObject(doc: ReadDocument): ReadProblem {
  const what = `a ${typeof doc.value}`;
  return {
    kind: ReadProblemKind.NOT_AN_OBJECT,
    file: doc.source.file,
    line: doc.line,
    message: `not a Kubernetes object: the document is ${what}`,
  };
}

/** One input's text ready to be read: a `kubectl get` table (a problem), a JSON value, or YAML documents. */
type PreparedInput =
  | { readonly problem: ReadProblem }
  | { readonly json: unknown; readonly line: number; readonly source: DocumentSource }
  | { readonly chunks: readonly DocumentChunk[] };

/**
 * One input's text, ready to be read: JSON is parsed with `JSON.parse` (fast path for large node lists); anything
 * else is split into its YAML documents, read one at a time.
 */
function prepareInput(text: string, file: string): PreparedInput {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const table = kubectlTableAt(body);
  if (table !== undefined) {
    const message = `${describeTable(table)}, not Kubernetes objects (kubectl prints objects only with -o yaml or -o json); write them with ${table.command.replace(' -o json', ' -o yaml')}`;
    return { problem: { kind: ReadProblemKind.KUBECTL_TABLE, file, line: table.line, message } };
  }
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const json = JSON.parse(body);
      const line = body.slice(0, body.length - trimmed.length).split('\n').length;
      return { json, line, source: { file, text: body, startLine: 1 } };
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      // Not strict JSON (e.g. a YAML flow mapping): read as YAML for a positioned error.
    }
  }
  return { chunks: documentChunks(body) };
}

/** How one input is read: whether values are kept past their document, and documents already read. */
interface ReadOptions {
  /** The strings of the input so far, when its values are kept (see `readChunk`); none for values dropped once checked. */
  readonly interned: Map<string, string> | undefined;
  /** Documents read before, by the index of their chunk. */
  readonly read?: ReadonlyMap<number, ReadDocument | undefined>;
}

/**
 * Reads one prepared input, giving each object to `onObject` in input order. `List` kinds are expanded into their
 * items; empty documents are skipped; a document that is not an object (a string, a list of scalars) is a problem.
 */
function readPrepared(
  prepared: PreparedInput,
  file: string,
  onObject: (object: SourcedObject) => void,
  options: ReadOptions,
): { problems: ReadProblem[]; documents: number } {
  const problems: ReadProblem[] = [];
  if ('problem' in prepared) return { problems: [prepared.problem], documents: 1 };
  if ('json' in prepared) {
    pushValue(prepared.json, file, prepared.line, prepared.source, [], { onObject, problems, reported: false });
    return { problems, documents: 1 };
  }
  let documents = 0;
  prepared.chunks.forEach((chunk, i) => {
    const doc = options.read?.has(i) ? options.read.get(i) : readChunk(chunk, file, options.interned);
    if (doc === undefined) return;
    if (doc.problem) {
      documents++;
      problems.push(doc.problem);
    } else if (doc.value !== undefined && doc.value !== null) {
      documents++;
      if (typeof doc.value !== 'object') problems.push(notAnObject(doc));
      else pushValue(doc.value, file, doc.line, doc.source, [], { onObject, problems, reported: false });
    }
  });
  return { problems, documents };
}

/**
 * Parses the text of one input into objects and problems. JSON is parsed with `JSON.parse` (fast path for large
 * node lists); anything else as multi-document YAML 1.1, one document at a time. `List` kinds are expanded into their
 * items; empty documents are skipped; a document that is not an object (a string, a list of scalars) is a problem.
 */
export function parseManifests(text: string, file: string): { objects: SourcedObject[]; problems: ReadProblem[]; documents: number } {
  const objects: SourcedObject[] = [];
  const { problems, documents } = readPrepared(prepareInput(text, file), file, (o) => objects.push(o), { interned: new Map() });
  return { objects, problems, documents };
}

/**
 * Parses the text of one input into objects, throwing an {@link InputError} naming `file:line:col` at the first
 * problem (for inputs that must be whole, such as a node list or a configuration file).
 */
export function parseObjects(text: string, file: string): SourcedObject[] {
  const { objects, problems } = parseManifests(text, file);
  if (problems.length > 0) throw new InputError(describeProblem(problems[0]));
  return objects;
}

/**
 * Reads every object from the given paths (files, folders, `-` for stdin, read by `readStdin`). Problems are
 * collected, never thrown: an unreadable file does not keep the others from being read. No object at all is a
 * problem too ({@link ReadProblemKind.NO_MANIFESTS}), so that a wrong path never passes for a clean input.
 */
export async function readManifests(inputs: readonly string[], readStdin: () => Promise<string>): Promise<ReadResult> {
  const objects: SourcedObject[] = [];
  const { problems, files } = await streamManifests(inputs, readStdin, { onObject: (o) => objects.push(o), keep: true });
  return { objects, problems, files };
}

/** What {@link streamManifests} does with what it reads. */
export interface ManifestVisitor {
  /** Takes each object read, in input order. */
  readonly onObject: (object: SourcedObject) => void;
  /** Whether the objects are kept past the call of `onObject` (their strings are then detached from the parser's copies). */
  readonly keep: boolean;
  /**
   * Objects some of which must be known before the first call of `onObject` (the objects cross-object rules look up):
   * `mayHold` says whether a document's text may hold one (a document that may not is not read ahead), `add` takes
   * each object of those documents (every object of a JSON input) and says whether it kept it.
   *
   * @default none
   */
  readonly ahead?: { readonly mayHold: (text: string) => boolean; readonly add: (object: SourcedObject) => boolean };
}

/** One input as read for {@link streamManifests}: its text's problem, or the input ready to be read. */
interface InputText {
  readonly file: string;
  readonly text?: string;
  readonly problem?: ReadProblem;
  readonly prepared?: PreparedInput;
  /** Documents read ahead whose objects were kept (read once, they are the same objects). */
  readonly read: Map<number, ReadDocument | undefined>;
}

/** Reads ahead, for `ahead`, the documents of an input that may hold what it asks for. */
function readAhead(input: InputText, ahead: NonNullable<ManifestVisitor['ahead']>, interned: Map<string, string>): void {
  const prepared = input.prepared;
  if (prepared === undefined || 'problem' in prepared) return;
  const add = (o: SourcedObject) => void ahead.add(o);
  if ('json' in prepared) {
    readPrepared(prepared, input.file, add, { interned: undefined });
    return;
  }
  prepared.chunks.forEach((chunk, i) => {
    if (!ahead.mayHold(chunk.text)) return;
    const doc = readChunk(chunk, input.file, interned);
    if (doc === undefined || doc.value === null || typeof doc.value !== 'object') return;
    let kept = false;
    pushValue(doc.value, input.file, doc.line, doc.source, [], {
      onObject: (o) => (kept = ahead.add(o) || kept),
      problems: [],
      reported: false,
    });
    if (kept) input.read.set(i, doc);
  });
}

/**
 * Reads every object from the given paths like {@link readManifests}, one document at a time, giving each object to
 * the visitor instead of keeping it (for inputs of any size). Every input's text is read first; with
 * `visitor.ahead`, the documents that may hold the objects it asks for are read before any object is given.
 */
export async function streamManifests(
  inputs: readonly string[],
  readStdin: () => Promise<string>,
  visitor: ManifestVisitor,
): Promise<{ problems: ReadProblem[]; files: number }> {
  const { files, problems } = expandPaths(inputs);
  const named = new Set(inputs.filter((i) => i === '-' || isFile(i)));
  const texts: InputText[] = [];
  for (const file of files) {
    const read = file === '-' ? checkText(await readStdin(), file) : readFileText(file);
    const prepared = read.text === undefined ? undefined : prepareInput(read.text, file);
    texts.push({ file, text: read.text, problem: read.problem, prepared, read: new Map() });
  }
  const interned = new Map<string, string>();
  if (visitor.ahead) for (const input of texts) readAhead(input, visitor.ahead, interned);
  let documents = 0;
  for (const input of texts) {
    if (input.problem || input.prepared === undefined) {
      if (input.problem) problems.push(input.problem);
      continue;
    }
    const file = input.file;
    let first: SourcedObject | undefined;
    let anyKind = false;
    const onObject = (o: SourcedObject): void => {
      first ??= o;
      if (typeof o.object?.kind === 'string') anyKind = true;
      visitor.onObject(o);
    };
    const parsed = readPrepared(input.prepared, file, onObject, { interned: visitor.keep ? new Map() : undefined, read: input.read });
    for (const p of parsed.problems) problems.push(p);
    documents += parsed.documents;
    // A file named as an input must hold something; one found in a folder may be empty (cdk8s writes an empty file
    // for a chart without objects).
    if (parsed.documents === 0 && named.has(file)) problems.push(emptyProblem(file, input.text as string));
    // A named file of YAML objects none of which has a kind is not manifests (a values file, a shell's error text).
    if (named.has(file) && first !== undefined && !anyKind) problems.push(notManifests(file, first));
  }
  if (documents === 0 && problems.length === 0) {
    problems.push({
      kind: ReadProblemKind.NO_MANIFESTS,
      file: '',
      message: `no Kubernetes objects in ${inputs.map((i) => (i === '-' ? '<stdin>' : i)).join(', ')}`,
    });
  }
  return { problems, files: files.length };
}

/** A named file of YAML objects none of which has a kind (`first` is its first object). */
function notManifests(file: string, first: SourcedObject): ReadProblem {
  return {
    kind: ReadProblemKind.NOT_AN_OBJECT,
    file,
    line: first.line,
    message: `not Kubernetes objects: no object in it has a kind (${JSON.stringify(Object.keys(first.object).slice(0, 3))}…); expected Kubernetes manifests (YAML or JSON)`,
  };
}

function isFile(input: string): boolean {
  try {
    return fs.statSync(input).isFile();
  } catch {
    return false;
  }
}

/** A named input that holds nothing: 0 bytes, or only whitespace, comments and empty documents. */
function emptyProblem(file: string, text: string): ReadProblem {
  const what = text.length === 0 ? 'is empty (0 bytes)' : 'holds no objects (only whitespace, comments or empty documents)';
  return {
    kind: ReadProblemKind.EMPTY,
    file,
    message: `${what}; expected Kubernetes manifests (YAML or JSON): did the command that wrote it fail?`,
  };
}

/** Reads every object from the given paths, throwing an {@link InputError} at the first problem. */
export async function readObjects(inputs: readonly string[], readStdin: () => Promise<string>): Promise<SourcedObject[]> {
  const { files, problems } = expandPaths(inputs);
  if (problems.length > 0) throw new InputError(describeProblem(problems[0]));
  const out: SourcedObject[] = [];
  for (const file of files) {
    const read = file === '-' ? checkText(await readStdin(), file) : readFileText(file);
    if (read.problem) throw new InputError(describeProblem(read.problem));
    for (const o of parseObjects(read.text as string, file)) out.push(o);
  }
  return out;
}
