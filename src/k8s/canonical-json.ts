/**
 * Structural comparison of plain JSON values (object key order does not matter, array order does): the one
 * implementation the admission check, the day-2 commands and the import use. Pure functions.
 */

/** JSON with object keys sorted, so that two values are equal exactly when their texts are equal. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value as object)
    .filter((k) => (value as any)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as any)[k])}`).join(',')}}`;
}

/** Structural equality of plain JSON values (object key order does not matter, array order does). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
