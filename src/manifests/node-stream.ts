/**
 * Streaming reader for node and pod lists of any size: `kubectl get nodes -o json` (a `List` with `items`), a JSON
 * array, JSON lines (one object per line, or any sequence of top-level values), YAML documents and YAML lists
 * (`kind: NodeList` with `items:`, or a top-level sequence). The input is read in chunks and each list item is parsed
 * on its own, so no string ever holds the whole input (V8 strings end at about 512 MiB, a 100k-node
 * `kubectl get nodes -o json` is about 600 MB) and only one item's text is alive at a time.
 *
 * JSON is split by a byte scanner that tracks strings and nesting and hands each item to `JSON.parse`. YAML is split by
 * lines: a document's top-level `items:` block sequence (or a top-level sequence) is cut at its `- ` entries, and each
 * entry is parsed alone with YAML 1.1 semantics (as kubectl reads it); other documents are parsed whole. An entry that
 * uses an anchor defined in another entry cannot be read this way (kubectl output has none).
 */

import { StringDecoder } from 'string_decoder';
import { NodeServicesError, NodeServicesErrorCode } from '../k8s/node-services-error';
import { yamlPackage } from './yaml-package';

/** An input that could not be parsed; the message starts with `file:line` (`:col` when known); code `MALFORMED_STREAM`. */
export class NodeStreamError extends NodeServicesError {
  constructor(message: string) {
    super(NodeServicesErrorCode.MALFORMED_STREAM, message, [{ problem: message }]);
    this.name = 'NodeStreamError';
  }
}

/** Receives each object read, with the 1-based line where it starts. */
export type ObjectSink = (object: any, line: number) => void;

/** Chunks of an input: a file stream, standard input, or text already in memory. */
export type ChunkSource = AsyncIterable<Buffer | string> | Iterable<Buffer | string>;

export { fileChunks } from './file-chunks';

/** How {@link readObjectStream} reads. */
export interface ObjectStreamOptions {
  /**
   * Whether every object's line is counted. Without, the lines of JSON items cut by the learnt kubectl layout are not
   * counted (counting is a good part of the reading time): the sink gets no true line for them, and neither do the
   * errors that follow. A caller that reads a file this way reads it again with lines to report an error.
   * @default true
   */
  readonly lines?: boolean;
  /** Called for each `*List` object read (its `kind` and line), so that a caller can check it. @default - not called */
  readonly onList?: (kind: string, line: number) => void;
  /**
   * Called for each value that is not an object where one is expected (a top-level scalar or `null`, an element of a
   * list), described (see {@link describeValue}), with its line. @default - such values are skipped
   */
  readonly onNonObject?: (description: string, line: number) => void;
}

type Hooks = Pick<ObjectStreamOptions, 'onList' | 'onNonObject'>;

/**
 * Reads every object from `source` and hands each to `sink` in input order: the items of a `*List` object (its
 * `items`), the elements of an array, every other object as it is. Empty documents are skipped; `null`s and scalars
 * are skipped too, or reported to `onNonObject`.
 * `file` names the input in errors. Throws a {@link NodeStreamError} on malformed input.
 */
export async function readObjectStream(
  source: ChunkSource,
  file: string,
  sink: ObjectSink,
  options: ObjectStreamOptions = {},
): Promise<void> {
  let reader: JsonSplitter | YamlSplitter | undefined;
  const pendingWhitespace: Buffer[] = [];
  for await (const raw of source as AsyncIterable<Buffer | string>) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    if (chunk.length === 0) continue;
    if (reader === undefined) {
      const first = firstContentByte(chunk);
      if (first === -1) {
        // Whitespace only so far: keep it for the line numbers of what follows.
        pendingWhitespace.push(chunk);
        continue;
      }
      reader =
        first === 0x7b || first === 0x5b
          ? new JsonSplitter(file, sink, options.lines !== false, options)
          : new YamlSplitter(file, sink, options);
      for (const ws of pendingWhitespace.splice(0)) reader.push(ws);
    }
    reader.push(chunk);
  }
  reader?.end();
}

/** The first byte that is not JSON whitespace (or a UTF-8 byte order mark), or -1. */
function firstContentByte(chunk: Buffer): number {
  for (let i = 0; i < chunk.length; i++) {
    const b = chunk[i];
    if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue;
    if (b === 0xef && chunk[i + 1] === 0xbb && chunk[i + 2] === 0xbf) {
      i += 2;
      continue;
    }
    return b;
  }
  return -1;
}

/** Hands a parsed value to the sink: arrays element by element, `*List` objects item by item. */
function emitValue(value: unknown, line: number, sink: ObjectSink, hooks: Hooks): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) emitValue(value[i], line, sink, hooks);
    return;
  }
  if (value === null || typeof value !== 'object') {
    hooks.onNonObject?.(describeValue(value), line);
    return;
  }
  const obj = value as any;
  if (typeof obj.kind === 'string' && obj.kind.endsWith('List') && Array.isArray(obj.items)) {
    hooks.onList?.(obj.kind, line);
    for (let i = 0; i < obj.items.length; i++) emitValue(obj.items[i], line, sink, hooks);
    return;
  }
  sink(obj, line);
}

/** A value that is not an object, as messages show it: `a string ("…")`, `a number (42)`, `null`. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value)})`;
  return `a ${typeof value} (${String(value)})`;
}

/** Reports the kind of a list whose items were split out (its skeleton, read at its end). */
function emitSplitList(value: unknown, line: number, hooks: Hooks): void {
  const kind = value !== null && typeof value === 'object' ? (value as any).kind : undefined;
  if (typeof kind === 'string') hooks.onList?.(kind, line);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const ITEMS = Buffer.from('items');
const NONE = 0;
const ITEM = 1;
const SKELETON = 2;

/**
 * Splits a stream of JSON values. Top-level arrays yield their elements; a top-level object's `items` array yields its
 * elements and the rest of the object (its "skeleton") is parsed at its end: an object without `items` is emitted
 * whole. Each piece is parsed with `JSON.parse`.
 */
class JsonSplitter {
  private depth = 0;
  private inString = false;
  /** Whether the previous chunk ended inside a string right after a backslash. */
  private escaped = false;
  private line = 1;
  /** Depth at which the values being split out start (1 in a top-level array, 2 in a top-level `items`), or 0. */
  private itemDepth = 0;
  /** What the bytes being read belong to: nothing kept, an item, or the skeleton of a top-level object. */
  private collecting = NONE;
  /** Parts of the item being read. */
  private item: Buffer[] = [];
  private itemLine = 0;
  /** Parts of the current top-level object outside its `items` array. */
  private skeleton: Buffer[] = [];
  private skeletonLine = 0;
  private topIsObject = false;
  /** Bytes of the depth-1 string being read (keys are short; longer ones are cut). */
  private key: number[] = [];
  private lastKeyIsItems = false;
  /** The whitespace before the current item's `{` on its line (`undefined` when not on a fresh line). */
  private itemIndent: Buffer | undefined;
  /** `\n` + indentation + `}`: how items close in a layout learnt from the first item. */
  private fastClose: Buffer | undefined;
  private fastTried = false;
  private expectItemsValue = false;
  private sawItems = false;
  /** Where the piece being collected (item or skeleton) starts in the chunk being read, or -1. */
  private pieceStart = -1;
  /** Where the depth-1 string being read (a possible `items` key) starts in the chunk being read, or -1. */
  private keyFrom = -1;

  constructor(
    private readonly file: string,
    private readonly sink: ObjectSink,
    /** Whether the lines of items cut by the layout are counted. */
    private readonly countLines: boolean,
    private readonly hooks: Hooks,
  ) {}

  public push(chunk: Buffer): void {
    const n = chunk.length;
    this.pieceStart = this.collecting !== NONE ? 0 : -1;
    this.keyFrom = this.inString && this.depth === 1 && this.topIsObject ? 0 : -1;
    let i = 0;
    if (this.escaped) {
      this.escaped = false;
      i = 1;
    }
    // A string is read to its end where it opens (`token`), so only one continued from the last chunk is open here.
    if (this.inString && i < n) i = this.stringEnd(chunk, i, n);
    while (i < n) {
      const b = chunk[i];
      if (b === 0x20 || b === 0x2c) i++;
      else if (b === NEWLINE) {
        this.line++;
        i++;
      } else i = this.token(chunk, i, b);
    }
    this.keepPiece(chunk);
  }

  /** Reads a string from `i` to its closing quote (a backslash escapes the next byte; JSON strings hold no raw newlines). */
  private stringEnd(chunk: Buffer, from: number, n: number): number {
    let i = from;
    while (i < n) {
      const c = chunk[i];
      if (c === BACKSLASH) i += 2;
      else if (c === QUOTE) break;
      else i++;
    }
    if (i >= n) {
      this.escaped = i > n;
      if (this.keyFrom !== -1) this.collectKey(chunk, this.keyFrom, n);
      return i;
    }
    if (this.keyFrom !== -1) {
      this.collectKey(chunk, this.keyFrom, i);
      this.lastKeyIsItems = this.key.length === ITEMS.length && ITEMS.every((c, k) => this.key[k] === c);
      this.keyFrom = -1;
    }
    this.inString = false;
    return i + 1;
  }

  /** Reads the structural byte or scalar byte `b` at `i`; returns the index after what it read. */
  private token(chunk: Buffer, i: number, b: number): number {
    switch (b) {
      case QUOTE:
        this.openString(i);
        return this.stringEnd(chunk, i + 1, chunk.length);
      case COLON:
        if (this.depth === 1 && this.topIsObject) this.expectItemsValue = this.lastKeyIsItems;
        break;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        return this.open(chunk, i, b);
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        this.close(chunk, i, b);
        break;
      default:
        // A number, true, false or null where list elements are: not an object (tabs and CRs are whitespace).
        if (this.depth === this.itemDepth && this.depth > 0 && this.collecting !== ITEM && b !== 0x09 && b !== 0x0d) {
          this.hooks.onNonObject?.('a number, true, false or null', this.line);
        }
        break;
    }
    return i + 1;
  }

  private openString(i: number): void {
    if (this.depth === 0) this.fail('a string at the top level; expected an object or an array');
    this.inString = true;
    if (this.depth === this.itemDepth && this.collecting !== ITEM) this.hooks.onNonObject?.('a string', this.line);
    if (this.depth === 1 && this.topIsObject) {
      this.key.length = 0;
      this.expectItemsValue = false;
      this.keyFrom = i + 1;
    }
  }

  /** An opening brace or bracket: a top-level value, an item, or a top-level `items` array starts. */
  private open(chunk: Buffer, i: number, b: number): number {
    const depth = this.depth;
    if (depth === 0) this.openTop(i, b);
    else if (depth === this.itemDepth && this.collecting !== ITEM) {
      if (b === OPEN_BRACE && this.fastClose !== undefined) {
        const end = this.fastItem(chunk, i, this.line);
        if (end !== -1) return end;
      }
      this.itemIndent = indentBefore(chunk, i);
      this.item = [];
      this.itemLine = this.line;
      this.collecting = ITEM;
      this.pieceStart = i;
    } else if (depth === 1 && this.topIsObject && b === OPEN_BRACKET && this.expectItemsValue) {
      // `"items": [` — the bracket stays in the skeleton; the elements are split out.
      this.skeleton.push(chunk.subarray(this.pieceStart, i + 1));
      this.collecting = NONE;
      this.pieceStart = -1;
      this.itemDepth = 2;
      this.sawItems = true;
    }
    this.expectItemsValue = false;
    this.depth++;
    return i + 1;
  }

  private openTop(i: number, b: number): void {
    this.topIsObject = b === OPEN_BRACE;
    this.itemDepth = this.topIsObject ? 0 : 1;
    this.sawItems = false;
    if (this.topIsObject) {
      this.skeleton = [];
      this.skeletonLine = this.line;
      this.collecting = SKELETON;
      this.pieceStart = i;
    }
  }

  /** A closing brace or bracket: an item, the `items` array or a top-level value ends. */
  private close(chunk: Buffer, i: number, b: number): void {
    if (this.depth === 0) this.fail(`an unmatched ${String.fromCharCode(b)}`);
    const depth = --this.depth;
    if (this.collecting === ITEM && depth === this.itemDepth) {
      this.item.push(chunk.subarray(this.pieceStart, i + 1));
      if (b === CLOSE_BRACE && this.fastClose === undefined && !this.fastTried) this.learnLayout(chunk, i);
      this.emitItem();
      this.collecting = NONE;
      this.pieceStart = -1;
    } else if (this.itemDepth === 2 && depth === 1) {
      // The end of `items`: back to the skeleton, which gets the closing bracket.
      this.itemDepth = 0;
      this.collecting = SKELETON;
      this.pieceStart = i;
    } else if (depth === 0 && this.topIsObject) {
      this.skeleton.push(chunk.subarray(this.pieceStart, i + 1));
      this.collecting = NONE;
      this.pieceStart = -1;
      this.emitSkeleton();
    } else if (depth === 0) {
      this.itemDepth = 0;
    }
  }

  /** Keeps the rest of the chunk that belongs to the piece being collected (item or skeleton). */
  private keepPiece(chunk: Buffer): void {
    if (this.pieceStart === -1) return;
    const rest = chunk.subarray(this.pieceStart);
    if (this.collecting === ITEM) this.item.push(rest);
    else if (this.collecting === SKELETON) this.skeleton.push(rest);
  }

  public end(): void {
    if (this.depth !== 0 || this.inString) this.fail('the input ends inside a value (is the file complete?)');
  }

  /**
   * kubectl's pretty-printed layout: an item that opens after the whitespace W on its line closes with a line of W and
   * `}`. As JSON strings hold no raw newline, `\n` W `}` is always structural; when both ends of the first item show
   * the same W, later items are cut by searching that text and each cut is proven by `JSON.parse` (a piece from an
   * item's `{` that parses whole ends at that `{`'s own `}`). A piece that does not parse turns this off.
   */
  private learnLayout(chunk: Buffer, close: number): void {
    this.fastTried = true;
    const closeIndent = indentBefore(chunk, close);
    if (closeIndent === undefined || closeIndent.length === 0 || this.itemIndent === undefined || !closeIndent.equals(this.itemIndent))
      return;
    this.fastClose = Buffer.concat([Buffer.from('\n'), closeIndent, Buffer.from('}')]);
  }

  /** Cuts the item opening at `open` by the learnt layout; returns the index after it, or -1 (scan it instead). */
  private fastItem(chunk: Buffer, open: number, line: number): number {
    const end = closeAfter(chunk, this.fastClose!, open);
    if (end === -1) return -1;
    const text = chunk.toString('utf8', open, end);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.fastClose = undefined;
      return -1;
    }
    emitValue(value, line, this.sink, this.hooks);
    this.line = this.countLines ? line + countNewlines(text, text.length) : line;
    return end;
  }

  private collectKey(chunk: Buffer, from: number, to: number): void {
    for (let k = from; k < to && this.key.length <= ITEMS.length; k++) this.key.push(chunk[k]);
  }

  private emitItem(): void {
    const parts = this.item;
    this.item = [];
    const text = (parts.length === 1 ? parts[0] : Buffer.concat(parts)).toString('utf8');
    emitValue(this.parse(text, this.itemLine), this.itemLine, this.sink, this.hooks);
  }

  private emitSkeleton(): void {
    const parts = this.skeleton;
    this.skeleton = [];
    const text = (parts.length === 1 ? parts[0] : Buffer.concat(parts)).toString('utf8');
    const value = this.parse(text, this.skeletonLine);
    // A List whose items were split out has nothing left to emit; any other object is emitted whole.
    if (!this.sawItems) emitValue(value, this.skeletonLine, this.sink, this.hooks);
    else emitSplitList(value, this.skeletonLine, this.hooks);
  }

  private parse(text: string, line: number): unknown {
    try {
      return JSON.parse(text);
    } catch (e) {
      const message = (e as Error).message;
      const at = /position (\d+)/.exec(message);
      const offset = at ? Number(at[1]) : -1;
      const errorLine = offset >= 0 ? line + countNewlines(text, offset) : line;
      throw new NodeStreamError(`${this.file}:${errorLine}: invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`);
    }
  }

  private fail(what: string): never {
    throw new NodeStreamError(`${this.file}:${this.line}: invalid JSON: ${what}`);
  }
}

/**
 * The index after the first occurrence of `pattern` (`\n`, indentation, `}`) in `chunk` from `from`, or -1. Found by
 * looking for its last byte with a byte search (memchr) and comparing the rest backwards: several times faster than
 * `Buffer.indexOf` of the whole pattern, which mostly consists of spaces as the text does.
 */
function closeAfter(chunk: Buffer, pattern: Buffer, from: number): number {
  const last = pattern.length - 1;
  for (let at = chunk.indexOf(CLOSE_BRACE, from + last); at !== -1; at = chunk.indexOf(CLOSE_BRACE, at + 1)) {
    let k = 1;
    while (k <= last && chunk[at - k] === pattern[last - k]) k++;
    if (k > last) return at + 1;
  }
  return -1;
}

/** The spaces and tabs between the last newline before `at` and `at`, or `undefined` when other bytes come between. */
function indentBefore(chunk: Buffer, at: number): Buffer | undefined {
  let k = at - 1;
  while (k >= 0 && (chunk[k] === 0x20 || chunk[k] === 0x09)) k--;
  if (k < 0 || chunk[k] !== NEWLINE) return undefined;
  return Buffer.from(chunk.subarray(k + 1, at));
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/**
 * Splits YAML by lines. Inside a document, a top-level `items:` key followed by a block sequence, or a document that
 * is a block sequence, is cut at its entries (`- ` at the sequence's column); each entry is parsed alone. Everything
 * else in the document is parsed at the document's end.
 */
class YamlSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private carry = '';
  private line = 0;
  /** Lines of the current document outside split sequences. */
  private doc: string[] = [];
  private docLine = 1;
  /** Column of the `-` of the sequence being split, or -1 when not in one. */
  private seqColumn = -1;
  /** Whether a sequence is expected after a top-level `items:` line. */
  private afterItems = false;
  private entry: string[] | undefined;
  private entryLine = 0;
  private split = false;
  private docHasContent = false;

  constructor(
    private readonly file: string,
    private readonly sink: ObjectSink,
    private readonly hooks: Hooks,
  ) {}

  public push(chunk: Buffer): void {
    const text = this.carry + this.decoder.write(chunk);
    let start = 0;
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      this.onLine(text.slice(start, nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl));
      start = nl + 1;
    }
    this.carry = text.slice(start);
  }

  public end(): void {
    const rest = this.carry + this.decoder.end();
    this.carry = '';
    if (rest.length > 0) this.onLine(rest);
    this.endDocument();
  }

  private onLine(text: string): void {
    this.line++;
    if (/^(---|\.\.\.)(\s|$)/.test(text)) {
      this.endDocument();
      this.docLine = this.line;
      // `--- {…}` or `--- value` starts the next document on the same line.
      const rest = text.slice(3);
      if (text.startsWith('---') && rest.trim().length > 0 && !rest.trim().startsWith('#')) {
        this.doc.push(`   ${rest}`);
        this.docHasContent = true;
      } else {
        this.doc.push('');
      }
      return;
    }
    const content = text.trimStart();
    const column = text.length - content.length;
    const blank = content.length === 0 || content.startsWith('#');
    if (this.seqColumn === -1 && !blank) {
      const isEntry = content === '-' || content.startsWith('- ');
      if (isEntry && (this.afterItems || (column === 0 && !this.docHasContent))) {
        this.seqColumn = column;
        this.split = true;
      }
      this.afterItems = false;
    }
    if (this.seqColumn !== -1) {
      if (blank) {
        this.entry?.push('');
        return;
      }
      const isEntry = column === this.seqColumn && (content === '-' || content.startsWith('- '));
      if (isEntry) {
        this.endEntry();
        this.entry = [text.slice(this.seqColumn)];
        this.entryLine = this.line;
        return;
      }
      if (column > this.seqColumn) {
        this.entry?.push(text.slice(this.seqColumn));
        return;
      }
      // Back at or left of the sequence's column: the sequence is over.
      this.endEntry();
      this.seqColumn = -1;
    }
    this.doc.push(text);
    if (!blank) this.docHasContent = true;
    if (column === 0 && /^items:\s*(#.*)?$/.test(text)) this.afterItems = true;
  }

  private endEntry(): void {
    const entry = this.entry;
    if (entry === undefined) return;
    this.entry = undefined;
    const value = this.parse(entry.join('\n'), this.entryLine);
    emitValue(value, this.entryLine, this.sink, this.hooks);
  }

  private endDocument(): void {
    this.endEntry();
    this.seqColumn = -1;
    this.afterItems = false;
    const doc = this.doc;
    this.doc = [];
    const split = this.split;
    this.split = false;
    const hasContent = this.docHasContent;
    this.docHasContent = false;
    if (!hasContent) return;
    const value = this.parse(doc.join('\n'), this.docLine);
    // A List whose items were split out has nothing left; `items:` read as null then.
    if (split && value !== null && typeof value === 'object' && !Array.isArray(value) && (value as any).items == null) {
      emitSplitList(value, this.docLine, this.hooks);
      return;
    }
    emitValue(value, this.docLine, this.sink, this.hooks);
  }

  /** Parses one piece of YAML (an entry or a document), with positions relative to `firstLine`. */
  private parse(text: string, firstLine: number): unknown {
    const lineCounter = new (yamlPackage().LineCounter)();
    const docs = yamlPackage().parseAllDocuments(text, { lineCounter, prettyErrors: false, merge: true, version: '1.1' });
    if (!Array.isArray(docs)) return null;
    const values: unknown[] = [];
    for (const doc of docs) {
      if (doc.errors.length > 0) {
        const err = doc.errors[0];
        const pos = lineCounter.linePos(err.pos[0]);
        throw new NodeStreamError(`${this.file}:${firstLine + pos.line - 1}:${pos.col}: ${err.message.split('\n')[0]}`);
      }
      try {
        values.push(doc.toJS({ maxAliasCount: 1000 }));
      } catch (e) {
        // An alias whose anchor is in another list entry (each entry is parsed alone), or too many aliases.
        const message = (e as Error).message.split('\n')[0];
        const alias = /alias[^:]*: (\S+)$/.exec(message);
        throw new NodeStreamError(
          alias
            ? `${this.file}:${firstLine}: the alias *${alias[1]} refers to an anchor outside this list entry; list entries are read one at a time, so each must be whole (expand the aliases, e.g. with yq 'explode(.)')`
            : `${this.file}:${firstLine}: ${message}`,
        );
      }
    }
    return values.length === 1 ? values[0] : values;
  }
}
