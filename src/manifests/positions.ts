/**
 * Field positions, built lazily: the fast read keeps only each document's text, and when a finding needs the line
 * and column of a field, that one document is read again with position events and the field's path is looked up.
 * Only documents with findings pay for positions, and only one document's positions are kept at a time.
 */

import { load } from 'js-yaml';
import type { DocumentSource } from './documents';
import { YAML_11_SCHEMA } from './yaml11';

/** A line and column in a file (both 1-based; columns count UTF-16 code units, as SARIF's `utf16CodeUnits`). */
export interface FieldPosition {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/** A node of the position tree: where it starts, what it holds, and its child nodes in document order. */
interface PositionNode {
  start: number;
  result: unknown;
  kind: string | null;
  children: PositionNode[];
}

/** One path segment: a key of a mapping or an index of a sequence. */
export type PathSegment = string | number;

/**
 * Parses a JSON path as the rules write it (`spec.template.spec.containers[0]`, `metadata.labels['a.b/c']`) into
 * segments. Returns `undefined` for text that is not such a path.
 */
export function parsePath(path: string): PathSegment[] | undefined {
  const out: PathSegment[] = [];
  let i = 0;
  const n = path.length;
  while (i < n) {
    const c = path[i];
    if (c === '.') {
      i++;
      continue;
    }
    if (c === '[') {
      if (path[i + 1] === "'") {
        let j = i + 2;
        let key = '';
        while (j < n && path[j] !== "'") {
          if (path[j] === '\\' && j + 1 < n) j++;
          key += path[j];
          j++;
        }
        if (path[j + 1] !== ']') return undefined;
        out.push(key);
        i = j + 2;
      } else {
        const close = path.indexOf(']', i);
        if (close < 0) return undefined;
        const index = Number(path.slice(i + 1, close));
        if (!Number.isInteger(index) || index < 0) return undefined;
        out.push(index);
        i = close + 1;
      }
      continue;
    }
    let j = i;
    while (j < n && path[j] !== '.' && path[j] !== '[') j++;
    out.push(path.slice(i, j));
    i = j;
  }
  return out;
}

function buildTree(text: string): PositionNode | undefined {
  const root: PositionNode = { start: 0, result: undefined, kind: null, children: [] };
  const stack: PositionNode[] = [root];
  try {
    load(text, {
      schema: YAML_11_SCHEMA,
      onWarning: () => undefined,
      listener(event: string, state: any) {
        if (event === 'open') {
          stack.push({ start: state.position, result: undefined, kind: null, children: [] });
        } else {
          const node = stack.pop() as PositionNode;
          node.result = state.result;
          node.kind = state.kind;
          stack[stack.length - 1].children.push(node);
        }
      },
    } as any);
  } catch {
    return undefined;
  }
  return root.children[0];
}

/** The child node holding `key` of a mapping node (the key node and the value node). */
function mappingEntry(node: PositionNode, key: string): { key: PositionNode; value?: PositionNode } | undefined {
  const map = node.result as Record<string, unknown>;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) return undefined;
  if (!Object.prototype.hasOwnProperty.call(map, key)) return undefined;
  const children = node.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (String(child.result) === '<<') return undefined; // merged keys: positions are not this mapping's
    const k = String(child.result);
    const next = children[i + 1];
    const hasValue = next !== undefined && Object.is(next.result, map[k]);
    if (k === key) return { key: child, value: hasValue ? next : undefined };
    if (hasValue) i++;
  }
  return undefined;
}

/** The node itself, or the node it wraps (js-yaml reports a flow collection once more inside its own node). */
function unwrap(node: PositionNode): PositionNode {
  let n = node;
  while (n.children.length === 1 && n.children[0].result === n.result && typeof n.result === 'object' && n.result !== null)
    n = n.children[0];
  return n;
}

/** Skips blanks, line ends and comments from `i`, returning the offset of the next content character. */
function skipToContent(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) i++;
    else if (c === 35) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
    } else break;
  }
  return i;
}

/** The positions of one document, looked up by path. */
export class DocumentPositions {
  private readonly tree: PositionNode | undefined;
  private lineStarts: number[] | undefined;

  constructor(private readonly source: DocumentSource) {
    this.tree = buildTree(source.text);
  }

  /**
   * The position of the field at `segments` (after `prefix`), or of its nearest ancestor that exists in the
   * document; `undefined` when not even the document's root can be placed.
   */
  public locate(segments: readonly PathSegment[]): FieldPosition | undefined {
    let node = this.tree;
    if (!node) return undefined;
    let at = node.start;
    for (const seg of segments) {
      node = unwrap(node);
      if (typeof seg === 'number') {
        if (!Array.isArray(node.result) || node.children.length !== node.result.length) break;
        const item: PositionNode | undefined = node.children[seg];
        if (!item) break;
        at = item.start;
        node = item;
      } else {
        const entry = mappingEntry(node, seg);
        if (!entry) break;
        at = entry.key.start;
        if (!entry.value) break;
        node = entry.value;
      }
    }
    return this.position(skipToContent(this.source.text, at));
  }

  private position(offset: number): FieldPosition {
    if (!this.lineStarts) {
      const starts = [0];
      const text = this.source.text;
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.lineStarts = starts;
    }
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: this.source.startLine + lo, column: offset - starts[lo] + 1 };
  }
}

let cached: { source: DocumentSource; positions: DocumentPositions } | undefined;

/**
 * The position of a field of a document, by JSON path (with `prefix` segments for objects inside a `List`).
 * Keeps the positions of the last document asked about, so that the findings of one object share one parse.
 */
export function locateField(source: DocumentSource, path: string, prefix: readonly PathSegment[] = []): FieldPosition | undefined {
  const segments = parsePath(path);
  if (!segments) return undefined;
  if (!cached || cached.source !== source) cached = { source, positions: new DocumentPositions(source) };
  return cached.positions.locate([...prefix, ...segments]);
}
