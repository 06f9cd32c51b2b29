/**
 * Defensive access to plain JSON values, faithful rendering of arbitrary values for messages, and the JSON paths that
 * name fields in findings and errors. Pure functions that never throw, whatever they are given (a caller may be plain JavaScript, or another language through jsii).
 */

/** Whether `value` is a plain (non-array, non-null) object. */
export function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is a plain object, otherwise an empty object. */
export function asObject(value: unknown): Record<string, any> {
  return isObject(value) ? value : {};
}

/**
 * The value of `key` in `o` when it is an own property, else `undefined`: a key from input (a container named
 * `constructor`, a map key `__proto__`) never reaches an inherited `Object.prototype` member.
 */
export function ownValue(o: unknown, key: string): unknown {
  return typeof o === 'object' && o !== null && Object.prototype.hasOwnProperty.call(o, key) ? (o as any)[key] : undefined;
}

/** Sets `key` of `o` as an own enumerable property, also for `__proto__` (which plain assignment would not define). */
export function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * `s` as a string of its own, sharing no memory with the text it was read from: a value read from YAML is a slice of
 * the parser's copy of its whole document (or a string built on one), which anything that outlives the document
 * (a report, a cache) would keep alive. V8 slices only strings of 13 characters or more; shorter ones are copies
 * already.
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** `value` when it is an array, otherwise an empty array. */
export function asArray(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

/** Text of an arbitrary JSON value: a string as it is, anything else as JSON. Never throws. */
export function jsonText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** How deep {@link renderValue} descends into nested arrays and objects. */
const MAX_DEPTH = 4;

/**
 * Renders any value as a caller wrote it, for an error message: JSON (strings in double quotes, once), except that
 * what JSON cannot show is shown as written: `NaN`, `Infinity`, `-0`, `undefined` (also inside arrays and objects),
 * `5n`, functions. Numbers are exact (`2147483648`). Never throws (cycles, throwing getters and proxies included).
 */
export function renderValue(value: unknown): string {
  try {
    return render(value, 0);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function render(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'boolean':
      return String(value);
    case 'symbol':
      return value.toString();
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
    default:
      break;
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    if (depth >= MAX_DEPTH) return '[…]';
    return `[${value.map((v) => render(v, depth + 1)).join(',')}]`;
  }
  if (depth >= MAX_DEPTH) return '{…}';
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .map((k) => `${JSON.stringify(k)}:${render(record[k], depth + 1)}`)
    .join(',')}}`;
}

/**
 * Renders a value for a one-line finding: strings in single quotes, everything else as {@link renderValue} does,
 * shortened to 80 characters.
 */
export function showValue(value: unknown): string {
  const text = typeof value === 'string' ? `'${value}'` : renderValue(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A key written after a dot in a JSON path; any other key is written in brackets and quotes. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Whether a string key matches {@link IDENTIFIER}, checked without the regular expression (this runs per path segment). */
function isIdentifier(key: string): boolean {
  const n = key.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
    if (!letter && (i === 0 || c < 48 || c > 57)) return false;
  }
  return true;
}

/**
 * Appends keys to a JSON path: numbers become `[n]`, identifiers `.key`, other keys `['key']`
 * (e.g. `metadata.labels['app.kubernetes.io/name']`).
 */
export function jsonPath(base: string, ...keys: Array<string | number>): string {
  let out = base;
  for (const key of keys) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' ? isIdentifier(key) : IDENTIFIER.test(key)) out += out.length === 0 ? key : `.${key}`;
    else out += `['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
  }
  return out;
}
