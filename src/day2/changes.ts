/**
 * Structural comparison of two JSON values (two versions of a DaemonSet) as a list of leaf changes. Lists with keys
 * are compared item by item by their keys ({@link LIST_KEYS}: tolerations by key, operator, value and effect; env,
 * volumes and containers by name; ports by port and protocol…), so one item added in front reads as one item added,
 * and a reorder reads as a reorder. A change is never lost: every difference of the two values is one of the changes.
 */

import { ownValue } from '../k8s/json';
import { ListKey, ListOrder, listKeyOf } from '../k8s/list-keys';
import { canonicalJson, jsonEqual } from './objects';

/** One difference between two JSON values: the path (list items by their keys) and both sides. */
export interface JsonChange {
  /**
   * Path such as `spec.template.spec.containers[agent].image` or
   * `spec.template.spec.tolerations[key=nvidia.com/gpu,operator=Exists,effect=NoSchedule]`; a reorder of a list is the
   * list's path followed by ` (order)`, with the item keys in their old and new order as `old` and `new`.
   */
  readonly path: string;
  /** The old value (`undefined` when added). */
  readonly old: unknown;
  /** The new value (`undefined` when removed). */
  readonly new: unknown;
}

/** The suffix of the path of a reorder. */
const ORDER_SUFFIX = ' (order)';

/** An item's identity (equal exactly for the same item) and its label in a path. */
interface ItemKey {
  readonly id: string;
  readonly label: string;
}

/** A key value in a path: as it is when plain, else quoted as JSON. */
function keyText(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string' && value.length > 0 && !/[[\]",=\s]/.test(value)) return value;
  return JSON.stringify(value) ?? String(value);
}

/** The key of one item, or `undefined` when the item does not have the key fields the list requires. */
function itemKey(item: unknown, key: ListKey): { id: string; label: string } | undefined {
  if (key.fields.length === 0) return typeof item === 'string' ? { id: JSON.stringify(item), label: keyText(item) } : undefined;
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const values = key.fields.map((f) => {
    const v = ownValue(item, f);
    return v === undefined || v === '' ? (key.defaults[f] ?? '') : v;
  });
  if (key.required.some((f) => !['string', 'number'].includes(typeof ownValue(item, f)))) return undefined;
  if (key.fields.length === 1) return { id: canonicalJson(values), label: keyText(values[0]) };
  const label = key.fields
    .map((f, i) => (values[i] === '' ? undefined : `${f}=${keyText(values[i])}`))
    .filter((p) => p !== undefined)
    .join(',');
  return { id: canonicalJson(values), label };
}

/** The key of a list outside {@link LIST_KEYS}: by `name` when every item has a distinct string name. */
const NAMED: ListKey = { fields: ['name'], required: ['name'], defaults: {}, order: ListOrder.NONE, orderNote: '' };

/**
 * The keys of a list's items, the n-th repeat of a key (n ≥ 2) marked `#n`; `undefined` when the list is compared by
 * position (an item without the key, or a list outside {@link LIST_KEYS} whose items are not all distinctly named).
 */
function itemKeys(list: readonly unknown[], key: ListKey | undefined): ItemKey[] | undefined {
  const seen = new Map<string, number>();
  const out: ItemKey[] = [];
  for (const item of list) {
    const k = itemKey(item, key ?? NAMED);
    if (k === undefined) return undefined;
    const n = (seen.get(k.id) ?? 0) + 1;
    if (n > 1 && key === undefined) return undefined;
    seen.set(k.id, n);
    out.push(n === 1 ? k : { id: `${k.id}#${n}`, label: `${k.label}#${n}` });
  }
  return out;
}

function pathKey(path: string, key: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key);
  if (path.length === 0) return plain ? key : `[${JSON.stringify(key)}]`;
  return plain ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Every leaf difference between two JSON values, in a stable order. Lists of {@link LIST_KEYS} are compared by their
 * keys (a repeated key by its occurrence: `env[A]`, `env[A#2]`), other lists whose items all have distinct names by
 * name, the rest by index. Items of a keyed list are listed in old order, then the added ones; a change of the
 * order of the items both sides have is one more change (`<list> (order)`).
 */
export function jsonChanges(a: unknown, b: unknown, path = ''): JsonChange[] {
  const out: JsonChange[] = [];
  walkChanges(a, b, path, undefined, out);
  return out;
}

function walkChanges(a: unknown, b: unknown, path: string, field: string | undefined, out: JsonChange[]): void {
  if (jsonEqual(a, b)) return;
  const objA = a !== null && typeof a === 'object';
  const objB = b !== null && typeof b === 'object';
  if (!objA || !objB || Array.isArray(a) !== Array.isArray(b)) {
    out.push({ path, old: a, new: b });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    listChanges(a, b, path, field, out);
    return;
  }
  const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])].sort();
  for (const key of keys) walkChanges(ownValue(a, key), ownValue(b, key), pathKey(path, key), key, out);
}

function listChanges(a: readonly unknown[], b: readonly unknown[], path: string, field: string | undefined, out: JsonChange[]): void {
  const key = listKeyOf(field);
  const keysA = itemKeys(a, key);
  const keysB = itemKeys(b, key);
  if (keysA === undefined || keysB === undefined) {
    const length = Math.max(a.length, b.length);
    for (let i = 0; i < length; i++) walkChanges(a[i], b[i], `${path}[${i}]`, undefined, out);
    return;
  }
  const indexA = new Map(keysA.map((k, i) => [k.id, i]));
  const indexB = new Map(keysB.map((k, i) => [k.id, i]));
  const all = [...keysA, ...keysB.filter((k) => !indexA.has(k.id))];
  for (const k of all) {
    const i = indexA.get(k.id);
    const j = indexB.get(k.id);
    walkChanges(i === undefined ? undefined : a[i], j === undefined ? undefined : b[j], `${path}[${k.label}]`, undefined, out);
  }
  const orderA = keysA.filter((k) => indexB.has(k.id)).map((k) => k.label);
  const orderB = keysB.filter((k) => indexA.has(k.id)).map((k) => k.label);
  if (!jsonEqual(orderA, orderB)) out.push({ path: `${path}${ORDER_SUFFIX}`, old: orderA, new: orderB });
}

/** What a reorder change means: the list's path and whether (and how) the order matters to Kubernetes. */
export interface Reorder {
  /** The path of the list. */
  readonly list: string;
  /** Whether the order means something to Kubernetes. */
  readonly order: ListOrder;
  /** What the order means, in words. */
  readonly note: string;
}

/** The reorder a change is, or `undefined` for any other change. */
export function reorderOf(change: JsonChange): Reorder | undefined {
  if (!change.path.endsWith(ORDER_SUFFIX)) return undefined;
  const list = change.path.slice(0, -ORDER_SUFFIX.length);
  const field = /([A-Za-z_][A-Za-z0-9_-]*)$/.exec(list)?.[1];
  const key = listKeyOf(field);
  return key === undefined
    ? { list, order: ListOrder.MEANINGFUL, note: 'the order of this list may matter' }
    : { list, order: key.order, note: key.orderNote };
}
