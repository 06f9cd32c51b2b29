/**
 * Splits a YAML stream into its documents and reads them one at a time with YAML 1.1 semantics (kubectl's), so
 * that a broken document is reported on its own and the others are still read. Handles what Helm and other
 * generators write: a leading `---` after `# Source:` comments, empty documents, `--- # comment`, `...` ends, CRLF
 * line ends, a byte-order mark. Unrendered templates are reported as such. Nothing is written to stderr.
 */

import { load, YAMLException } from 'js-yaml';
import { ownString } from '../k8s/json';
import { YAML_11_SCHEMA } from './yaml11';

/** Where a document sits in its file. */
export interface DocumentSource {
  /** The file (`-` for stdin). */
  readonly file: string;
  /** The text of the document (from its `---` marker, when it has one, to its end). */
  readonly text: string;
  /** 1-based line of the document's first line in the file. */
  readonly startLine: number;
}

/** Why an input could not be read. */
export enum ReadProblemKind {
  /** The path does not exist. */
  NOT_FOUND = 'not-found',
  /** The file exists but could not be read (permissions, a directory loop…). */
  UNREADABLE = 'unreadable',
  /** The file holds binary data, not text. */
  BINARY = 'binary',
  /** The YAML or JSON is malformed. */
  SYNTAX = 'syntax',
  /** A Helm (Go) template that was not rendered. */
  TEMPLATE = 'template',
  /** The document is YAML but not an object (a string, a number, a list of strings…). */
  NOT_AN_OBJECT = 'not-an-object',
  /** The inputs hold no Kubernetes object at all. */
  NO_MANIFESTS = 'no-manifests',
  /** A file named as an input (or standard input) is empty: 0 bytes, or only whitespace, comments and empty documents. */
  EMPTY = 'empty',
  /** The text table `kubectl get` prints without `-o`, not objects. */
  KUBECTL_TABLE = 'kubectl-table',
  /** Objects of a kind the input cannot hold (Node objects given as manifests). */
  WRONG_KIND = 'wrong-kind',
  /** A fleet's folder (cluster folders inside) where one cluster's manifests are expected. */
  FLEET_FOLDER = 'fleet-folder',
  /** The same object twice in what should be one cluster's manifests. */
  DUPLICATE = 'duplicate',
  /** A DaemonSet without a pod template with containers. */
  NO_POD_TEMPLATE = 'no-pod-template',
  /** A value the API server cannot decode into its field's type (`hostNetwork: "true"`, a port `"80"`). */
  WRONG_TYPE = 'wrong-type',
}

/** An input (or a part of one) that could not be read, with where. */
export interface ReadProblem {
  /** What went wrong. */
  readonly kind: ReadProblemKind;
  /** The file (`-` for stdin, empty when the problem is about the inputs as a whole). */
  readonly file: string;
  /** 1-based line, when known. */
  readonly line?: number;
  /** 1-based column, when known. */
  readonly column?: number;
  /** What is wrong, in a sentence. */
  readonly message: string;
}

/** `file:line:col: message` (or as much of it as is known). */
export function describeProblem(problem: ReadProblem): string {
  const file = problem.file === '-' ? '<stdin>' : problem.file;
  const where = problem.line ? `${file}:${problem.line}${problem.column ? `:${problem.column}` : ''}` : file;
  return where ? `${where}: ${problem.message}` : problem.message;
}

/** One document of a stream: its value, or the problem that kept it from being read. */
export interface ReadDocument {
  /** Where the document is. */
  readonly source: DocumentSource;
  /** 1-based line of the document's content (after its marker and comments). */
  readonly line: number;
  /** The value (`undefined` for an empty document or when `problem` is set). */
  readonly value?: unknown;
  /** Why the document could not be read. */
  readonly problem?: ReadProblem;
}

/** A Go template action as Helm charts write them. */
const TEMPLATE_ACTION =
  /\{\{-?\s*(?:\.Values|\.Release|\.Chart|\.Capabilities|\.Files|\$\.|include\s|template\s|toYaml|tpl\s|if\s|else|end\b|range\s|with\s|define\s|-?\s*\/\*)/;

/** Whether `line` is a document marker (`---` or `...` at column 0 followed by a space or the line end). */
function markerAt(text: string, i: number, char: number): boolean {
  if (text.charCodeAt(i) !== char || text.charCodeAt(i + 1) !== char || text.charCodeAt(i + 2) !== char) return false;
  const next = text.charCodeAt(i + 3);
  return Number.isNaN(next) || next === 32 || next === 9 || next === 10 || next === 13;
}

const DASH = 45;
const DOT = 46;

/** The chunks of a stream, one per document, with their first line (1-based). */
function splitDocuments(text: string): Array<{ text: string; startLine: number }> {
  const chunks: Array<{ text: string; startLine: number }> = [];
  let chunkStart = 0;
  let chunkLine = 1;
  let line = 1;
  let i = 0;
  let pendingDirectives = true; // only comments, blank lines and `%` directives so far in this chunk
  const n = text.length;
  while (i < n) {
    if (markerAt(text, i, DASH)) {
      if (!pendingDirectives || i === chunkStart) {
        if (i > chunkStart) chunks.push({ text: text.slice(chunkStart, i), startLine: chunkLine });
        chunkStart = i;
        chunkLine = line;
      }
      pendingDirectives = false;
    } else if (markerAt(text, i, DOT)) {
      let end = text.indexOf('\n', i);
      end = end < 0 ? n : end + 1;
      chunks.push({ text: text.slice(chunkStart, end), startLine: chunkLine });
      chunkStart = end;
      chunkLine = line + 1;
      pendingDirectives = true;
      i = end;
      line++;
      continue;
    } else if (pendingDirectives) {
      const c = text.charCodeAt(i);
      // a line with content other than a comment or a directive starts a document without a marker
      if (c !== 35 && c !== 37 && c !== 10 && c !== 13) {
        let j = i;
        while (j < n && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
        const d = text.charCodeAt(j);
        if (j < n && d !== 35 && d !== 10 && d !== 13) pendingDirectives = false;
      }
    }
    const nl = text.indexOf('\n', i);
    if (nl < 0) break;
    i = nl + 1;
    line++;
  }
  if (chunkStart < n) chunks.push({ text: text.slice(chunkStart), startLine: chunkLine });
  return chunks;
}

/** Whether a trimmed line carries no content: blank, a comment, a directive, or a bare marker. */
function isContentless(line: string): boolean {
  return (
    line === '' ||
    line.startsWith('#') ||
    line.startsWith('%') ||
    line === '---' ||
    line === '...' ||
    line.startsWith('--- #') ||
    line.startsWith('... #')
  );
}

/**
 * The 1-based line of the first content of a chunk (not blank, comment, directive or bare marker), or `undefined`
 * when the chunk is an empty document. Scans line by line without splitting the chunk.
 */
function firstContentLine(text: string, startLine: number): number | undefined {
  let at = 0;
  let line = startLine;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    if (!isContentless(text.slice(at, end).trim())) return line;
    if (nl < 0) break;
    at = nl + 1;
    line++;
  }
  return undefined;
}

/** The line and column (1-based) of the first template action of a chunk, if any. */
function templateAt(text: string, startLine: number): { line: number; column: number } | undefined {
  if (!text.includes('{{')) return undefined;
  const lines = text.split('\n');
  for (let k = 0; k < lines.length; k++) {
    if (lines[k].trimStart().startsWith('#')) continue;
    const m = TEMPLATE_ACTION.exec(lines[k]);
    if (m) return { line: startLine + k, column: m.index + 1 };
  }
  return undefined;
}

function problem(kind: ReadProblemKind, file: string, message: string, line?: number, column?: number): ReadProblem {
  return { kind, file, message, line, column };
}

/** The first NUL character of a text, as line and column, when the text is binary. */
export function binaryAt(text: string): { line: number; column: number } | undefined {
  const at = text.indexOf('\u0000');
  if (at < 0) return undefined;
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return { line, column: at - before.lastIndexOf('\n') };
}

/**
 * The strings of one stream's values, each held once: Kubernetes objects repeat most of their values (labels, the
 * namespace, pull policies, paths), and every copy would stay alive with its object.
 */
type Interned = Map<string, string>;

/**
 * `s` as a string that shares no memory with the text it was read from, and the same string for equal values of
 * one stream. js-yaml returns scalars as slices of its own copy of the document's text, so a value kept alive would
 * keep that whole copy alive (one more copy of the input per document). V8 slices only strings of 13 characters or
 * more; shorter ones are copies already.
 */
function detachString(s: string, interned: Interned): string {
  const known = interned.get(s);
  if (known !== undefined) return known;
  const copy = ownString(s);
  interned.set(copy, copy);
  return copy;
}

/**
 * `value` with every string value detached from the parsed text (keys need not be: V8 keeps property names as
 * copies of their own). With `seen` (for documents that may hold aliases), objects an alias shares are visited once,
 * so that aliases cannot make the walk longer than the document.
 */
function detach(value: unknown, interned: Interned, seen: Set<object> | undefined): unknown {
  if (typeof value === 'string') return detachString(value, interned);
  if (typeof value !== 'object' || value === null) return value;
  if (seen !== undefined) {
    if (seen.has(value)) return value;
    seen.add(value);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = detach(value[i], interned, seen);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const v = record[key];
    if (typeof v === 'string') record[key] = detachString(v, interned);
    else if (typeof v === 'object' && v !== null) detach(v, interned, seen);
  }
  return value;
}

/** One document of a stream as split from it, not yet read: its text and the line it starts on (1-based). */
export interface DocumentChunk {
  readonly text: string;
  readonly startLine: number;
}

/** The documents of a YAML stream (without its byte-order mark), not yet read. */
export function documentChunks(input: string): DocumentChunk[] {
  return splitDocuments(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input);
}

/**
 * Reads one document of a stream (YAML 1.1, as kubectl reads it): `undefined` for an empty document, its problem when
 * it is malformed or templated. With `interned` (the strings of the stream so far), the value's strings are detached
 * from the parser's copy of the text, for values kept after the document (see `detachString`); without, they are
 * not, for values dropped once checked.
 */
export function readChunk(chunk: DocumentChunk, file: string, interned: Map<string, string> | undefined): ReadDocument | undefined {
  const source: DocumentSource = { file, text: chunk.text, startLine: chunk.startLine };
  const line = firstContentLine(chunk.text, chunk.startLine);
  if (line === undefined) return undefined;
  const template = templateAt(chunk.text, chunk.startLine);
  if (template) {
    return {
      source,
      line,
      problem: problem(
        ReadProblemKind.TEMPLATE,
        file,
        'unrendered Helm template ({{ … }}); render it first (helm template …) and lint the output',
        template.line,
        template.column,
      ),
    };
  }
  let value: unknown;
  try {
    value = load(chunk.text, { schema: YAML_11_SCHEMA, filename: file, onWarning: () => undefined });
  } catch (e) {
    if (!(e instanceof YAMLException)) throw e;
    const mark = e.mark;
    const inTemplate = chunk.text.includes('{{');
    return {
      source,
      line,
      problem: problem(
        inTemplate ? ReadProblemKind.TEMPLATE : ReadProblemKind.SYNTAX,
        file,
        inTemplate ? `not YAML, probably an unrendered template ({{ … }}): ${e.reason}; render it first (helm template …)` : e.reason,
        mark ? chunk.startLine + mark.line : line,
        mark ? mark.column + 1 : undefined,
      ),
    };
  }
  // An alias is written `*name`: without a `*` the document shares no object between two places.
  if (interned !== undefined) value = detach(value, interned, chunk.text.includes('*') ? new Set() : undefined);
  return { source, line, value };
}

/**
 * Reads the documents of a YAML stream one at a time (YAML 1.1, as kubectl reads it). Empty documents yield a
 * document without value; a malformed or templated document yields its problem and reading goes on.
 */
export function* readDocuments(input: string, file: string): Generator<ReadDocument> {
  const interned: Interned = new Map();
  for (const chunk of documentChunks(input)) {
    const doc = readChunk(chunk, file, interned);
    if (doc !== undefined) yield doc;
  }
}
