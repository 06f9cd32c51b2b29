/**
 * Reading Kubernetes objects from files, folders and stdin the way kubectl does: multi-document YAML (1.1) and JSON,
 * `List` kinds expanded, folders searched for `*.yaml`, `*.yml` and `*.json`. A file that cannot be read is a
 * problem with `file:line:col`, and every other file is still read.
 */

import * as fs from 'fs';
import * as path from 'path';
import { binaryAt, describeProblem, DocumentSource, ReadDocument, readDocuments, ReadProblem, ReadProblemKind } from './documents';
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
function pushValue(
  value: unknown,
  file: string,
  line: number,
  source: DocumentSource | undefined,
  at: PathSegment[],
  out: { objects: SourcedObject[]; problems: ReadProblem[]; reported: boolean },
): void {
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
  out.objects.push({ object: obj, file, line, source, pathInDocument: at.length > 0 ? at : undefined });
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

/**
 * Parses the text of one input into objects and problems. JSON is parsed with `JSON.parse` (fast path for large
 * node lists); anything else as multi-document YAML 1.1, one document at a time. `List` kinds are expanded into their
 * items; empty documents are skipped; a document that is not an object (a string, a list of scalars) is a problem.
 */
export function parseManifests(text: string, file: string): { objects: SourcedObject[]; problems: ReadProblem[]; documents: number } {
  const objects: SourcedObject[] = [];
  const problems: ReadProblem[] = [];
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const table = kubectlTableAt(body);
  if (table !== undefined) {
    const message = `${describeTable(table)}, not Kubernetes objects (kubectl prints objects only with -o yaml or -o json); write them with ${table.command.replace(' -o json', ' -o yaml')}`;
    return { objects, problems: [{ kind: ReadProblemKind.KUBECTL_TABLE, file, line: table.line, message }], documents: 1 };
  }
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const value = JSON.parse(body);
      const source: DocumentSource = { file, text: body, startLine: 1 };
      const line = body.slice(0, body.length - trimmed.length).split('\n').length;
      pushValue(value, file, line, source, [], { objects, problems, reported: false });
      return { objects, problems, documents: 1 };
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      // Not strict JSON (e.g. a YAML flow mapping): read as YAML for a positioned error.
    }
  }
  let documents = 0;
  for (const doc of readDocuments(body, file)) {
    documents++;
    if (doc.problem) {
      problems.push(doc.problem);
      continue;
    }
    if (doc.value === undefined || doc.value === null) {
      documents--;
      continue;
    }
    if (typeof doc.value !== 'object') problems.push(notAnObject(doc));
    else pushValue(doc.value, file, doc.line, doc.source, [], { objects, problems, reported: false });
  }
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
  const { files, problems } = expandPaths(inputs);
  const named = new Set(inputs.filter((i) => i === '-' || isFile(i)));
  const objects: SourcedObject[] = [];
  let documents = 0;
  for (const file of files) {
    const read = file === '-' ? checkText(await readStdin(), file) : readFileText(file);
    if (read.problem) {
      problems.push(read.problem);
      continue;
    }
    const parsed = parseManifests(read.text as string, file);
    // Loops, not spreads: a file may hold more objects than a call can take arguments.
    for (const o of parsed.objects) objects.push(o);
    for (const p of parsed.problems) problems.push(p);
    documents += parsed.documents;
    // A file named as an input must hold something; one found in a folder may be empty (cdk8s writes an empty file
    // for a chart without objects).
    if (parsed.documents === 0 && named.has(file)) problems.push(emptyProblem(file, read.text as string));
    // A named file of YAML objects none of which has a kind is not manifests (a values file, a shell's error text).
    if (named.has(file) && parsed.objects.length > 0 && !parsed.objects.some((o) => typeof o.object?.kind === 'string')) {
      problems.push({
        kind: ReadProblemKind.NOT_AN_OBJECT,
        file,
        line: parsed.objects[0].line,
        message: `not Kubernetes objects: no object in it has a kind (${JSON.stringify(Object.keys(parsed.objects[0].object).slice(0, 3))}…); expected Kubernetes manifests (YAML or JSON)`,
      });
    }
  }
  if (documents === 0 && problems.length === 0) {
    problems.push({
      kind: ReadProblemKind.NO_MANIFESTS,
      file: '',
      message: `no Kubernetes objects in ${inputs.map((i) => (i === '-' ? '<stdin>' : i)).join(', ')}`,
    });
  }
  return { objects, problems, files: files.length };
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
