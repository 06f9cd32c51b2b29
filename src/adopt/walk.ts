/**
 * Leaf differences between an input object and the object the generated app synthesizes, with both the report path
 * (containers and other named lists keyed by name, as `diff` reports them) and the JSON pointer into the synthesized
 * object that a patch carrying the input's value would use. Pure.
 */

import { jsonEqual } from '../day2/objects';

/** One leaf difference. */
export interface LeafChange {
  /** Report path, e.g. `spec.template.spec.containers[agent].image`. */
  readonly path: string;
  /** JSON pointer into the synthesized object (`/-` appends to a list). */
  readonly pointer: string;
  /** The input's value (`undefined`: the input has none). */
  readonly input: unknown;
  /** The synthesized value (`undefined`: the output has none). */
  readonly output: unknown;
}

function pathKey(path: string, key: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key);
  if (path.length === 0) return plain ? key : `[${JSON.stringify(key)}]`;
  return plain ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function pointerKey(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function namedList(list: readonly unknown[]): boolean {
  const names = new Set<string>();
  for (const item of list) {
    const name = isRecord(item) ? item.name : undefined;
    if (typeof name !== 'string' || names.has(name)) return false;
    names.add(name);
  }
  return true;
}

/** Lists whose order carries meaning (env: `$(VAR)` refers to earlier entries; args, command). */
function orderMatters(path: string): boolean {
  return /\.env$/.test(path);
}

function walk(input: unknown, output: unknown, path: string, pointer: string, out: LeafChange[]): void {
  if (jsonEqual(input, output)) return;
  if (isRecord(input) && isRecord(output)) {
    const keys = [...new Set([...Object.keys(input), ...Object.keys(output)])].sort();
    for (const key of keys) {
      const i = Object.prototype.hasOwnProperty.call(input, key) ? input[key] : undefined;
      const o = Object.prototype.hasOwnProperty.call(output, key) ? output[key] : undefined;
      walk(i, o, pathKey(path, key), pointerKey(pointer, key), out);
    }
    return;
  }
  if (Array.isArray(input) && Array.isArray(output) && namedList(input) && namedList(output) && input.length > 0 && output.length > 0) {
    const names = (l: unknown[]) => l.map((i) => (i as Record<string, string>).name);
    const common = (a: string[], b: string[]) => a.filter((n) => b.includes(n));
    if (orderMatters(path) && !jsonEqual(common(names(input), names(output)), common(names(output), names(input)))) {
      out.push({ path, pointer, input, output });
      return;
    }
    const byName = new Map(output.map((item, index) => [(item as Record<string, string>).name, { item, index }]));
    for (const item of input) {
      const name = (item as Record<string, string>).name;
      const match = byName.get(name);
      if (match === undefined) out.push({ path: `${path}[${name}]`, pointer: `${pointer}/-`, input: item, output: undefined });
      else walk(item, match.item, `${path}[${name}]`, pointerKey(pointer, match.index), out);
    }
    const inputNames = new Set(names(input));
    output.forEach((item, index) => {
      const name = (item as Record<string, string>).name;
      if (!inputNames.has(name))
        out.push({ path: `${path}[${name}]`, pointer: pointerKey(pointer, index), input: undefined, output: item });
    });
    return;
  }
  out.push({ path, pointer, input, output });
}

/** Every leaf difference between `input` and `output`; an object present on one side only is one change. */
export function leafChanges(input: unknown, output: unknown): LeafChange[] {
  const out: LeafChange[] = [];
  walk(input, output, '', '', out);
  return out;
}

/** Splits a change of a whole object present on one side into its leaves (so each can be classified). */
export function expandChange(change: LeafChange): LeafChange[] {
  const value = change.input === undefined ? change.output : change.output === undefined ? change.input : undefined;
  if (!isRecord(value) || Object.keys(value).length === 0 || change.pointer.endsWith('/-')) return [change];
  return Object.keys(value)
    .sort()
    .flatMap((key) =>
      expandChange({
        path: pathKey(change.path, key),
        pointer: pointerKey(change.pointer, key),
        input: change.input === undefined ? undefined : value[key],
        output: change.output === undefined ? undefined : value[key],
      }),
    );
}
