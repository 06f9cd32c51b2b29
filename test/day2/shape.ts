/**
 * The shape of a JSON value as a set of `path: type` entries (array items merged under `[]`), to check that a JSON
 * output has exactly the documented shape.
 */

import * as fs from 'fs';
import * as path from 'path';

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** `path: type` for every key; values under an `opaque` path (any JSON) are not descended into. */
export function shapeOf(
  value: unknown,
  opaque: readonly string[] = [],
  at = '$',
  out = new Map<string, Set<string>>(),
): Map<string, Set<string>> {
  const add = (type: string) => {
    let types = out.get(at);
    if (!types) out.set(at, (types = new Set()));
    types.add(type);
  };
  add(typeOf(value));
  if (opaque.includes(at)) return out;
  if (Array.isArray(value)) for (const item of value) shapeOf(item, opaque, `${at}[]`, out);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) shapeOf(v, opaque, `${at}.${k}`, out);
  return out;
}

/** Merges shapes (the union of paths and types). */
export function mergeShapes(shapes: ReadonlyArray<Map<string, Set<string>>>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const s of shapes) for (const [p, types] of s) out.set(p, new Set([...(out.get(p) ?? []), ...types]));
  return out;
}

/** The shape as sorted lines, for readable test failures. */
export function shapeLines(shape: Map<string, Set<string>>): string[] {
  return [...shape].map(([p, types]) => `${p}: ${[...types].sort().join('|')}`).sort();
}

/** The README and the guides in docs/, by file name. */
const DOCS = ['README.md', ...fs.readdirSync(path.join(__dirname, '..', '..', 'docs')).map((f) => `docs/${f}`)]
  .filter((f) => f.endsWith('.md'))
  .map((f) => ({ file: f, text: fs.readFileSync(path.join(__dirname, '..', '..', f), 'utf8') }));

/** The first fenced block of `lang` after `<!-- marker -->` in the README or a guide (the marker is in exactly one). */
export function readmeBlock(marker: string, lang: string): string {
  const holders = DOCS.filter((d) => d.text.includes(`<!-- ${marker}`));
  if (holders.length !== 1)
    throw new Error(`<!-- ${marker} --> is in ${holders.length} documents (${holders.map((d) => d.file).join(', ')}), expected 1`);
  const text = holders[0].text;
  const start = text.indexOf(`<!-- ${marker}`);
  const fence = `\`\`\`${lang}\n`;
  const open = text.indexOf(fence, start);
  const close = text.indexOf('\n```\n', open + fence.length);
  return text.slice(open + fence.length, close + 1);
}
