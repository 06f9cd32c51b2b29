/**
 * How the API server decodes one JSON value into a field of a given type (`encoding/json` into the Go types of the
 * API, after kubectl has turned YAML into JSON): which JSON values each scalar type of the field data accepts, and
 * the sentence that says why a value is refused. Pure; the walk over whole objects is in `index.ts`.
 */

import { renderValue } from '../json';
import { parseQuantity } from '../quantity';

/** The scalar types of the field data (`FieldEntry` in `model.ts`), as the walk checks them. */
export const enum Scalar {
  /** A JSON string. */
  STRING,
  /** `true` or `false`. */
  BOOLEAN,
  /** An integer from -2^31 to 2^31-1 (Go `int32`). */
  INT32,
  /** An integer from -2^63 to 2^63-1 (Go `int64`). */
  INT64,
  /** Any finite JSON number (Go `float64`). */
  NUMBER,
  /** A base64 string (Go `[]byte`). */
  BYTE,
  /** A quantity: a JSON string or number (`resource.Quantity`). */
  QUANTITY,
  /** A timestamp string (`metav1.Time`). */
  TIME,
  /** A JSON string or an int32 (`intstr.IntOrString`). */
  INT_OR_STRING,
}

/** The scalar of a shape token, or `undefined` when the token is not a scalar. */
export function scalarOf(token: string): Scalar | undefined {
  switch (token) {
    case 'string':
      return Scalar.STRING;
    case 'boolean':
      return Scalar.BOOLEAN;
    case 'int32':
      return Scalar.INT32;
    case 'int64':
      return Scalar.INT64;
    case 'number':
      return Scalar.NUMBER;
    case 'byte':
      return Scalar.BYTE;
    case 'quantity':
      return Scalar.QUANTITY;
    case 'time':
      return Scalar.TIME;
    case '%':
      return Scalar.INT_OR_STRING;
    default:
      return undefined;
  }
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/**
 * 2^63: the double nearest to the largest int64 (2^63-1 is not a double; `9223372036854775807` reads as 2^63). A
 * number read from text is refused only when it is beyond 2^63 in magnitude, which no int64 text reads as.
 */
const INT64_LIMIT = 2 ** 63;

/** Base64 as Go's `encoding/json` decodes `[]byte` (standard alphabet, padded; line ends are skipped). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** What a scalar type expects, for messages. */
const EXPECTED: { readonly [s in Scalar]: string } = {
  [Scalar.STRING]: 'a string',
  [Scalar.BOOLEAN]: 'a boolean (true or false)',
  [Scalar.INT32]: 'an int32 (an integer from -2147483648 to 2147483647)',
  [Scalar.INT64]: 'an int64 (an integer from -9223372036854775808 to 9223372036854775807)',
  [Scalar.NUMBER]: 'a number',
  [Scalar.BYTE]: 'a base64 string',
  [Scalar.QUANTITY]: "a quantity (a string such as '500m' or '1Gi', or a number)",
  [Scalar.TIME]: "a timestamp string (RFC 3339, e.g. '2024-01-02T15:04:05Z')",
  [Scalar.INT_OR_STRING]: "an int32 or a string (e.g. 1 or '10%')",
};

/** The JSON type of a value, as the API server's decoding error names it. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isFinite(value) ? 'number' : 'non-finite number';
    case 'object':
      return 'object';
    default:
      return typeof value;
  }
}

/** Why a number is not an integer of the range, or `undefined`. */
function integerProblem(value: number, scalar: Scalar, min: number, max: number): string | undefined {
  if (!Number.isFinite(value)) return `is ${renderValue(value)}, not a JSON number (kubectl cannot send it); ${EXPECTED[scalar]} goes here`;
  if (!Number.isInteger(value)) return `is ${renderValue(value)}, not an integer; ${EXPECTED[scalar]} goes here`;
  if (value < min || value > max) return `is ${renderValue(value)}, beyond the range of ${EXPECTED[scalar]}`;
  return undefined;
}

/** A string's fix when the field wants a number or a boolean: the same text unquoted, where that is one. */
function unquoteHint(value: string, wanted: 'number' | 'boolean'): string {
  const t = value.trim();
  if (wanted === 'boolean') return t === 'true' || t === 'false' ? `; write ${t} without quotes` : '';
  return /^[-+]?\d+$/.test(t) ? `; write ${t} without quotes` : '';
}

/** The hint for a boolean or number where a string goes (YAML 1.1 reads `yes`, `on`, `1.0` unquoted as such). */
function quoteHint(value: unknown): string {
  return typeof value === 'boolean' || typeof value === 'number'
    ? ' (quote it: YAML reads yes/no/on/off/true/false and numbers unquoted as such)'
    : '';
}

/** Whether a value certainly fits a scalar type: the common case (a string for a string field), checked without building a message. */
export function scalarFits(value: unknown, scalar: Scalar): boolean {
  switch (scalar) {
    case Scalar.STRING:
      return typeof value === 'string';
    case Scalar.BOOLEAN:
      return typeof value === 'boolean';
    case Scalar.INT32:
      return typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
    default:
      return scalarProblem(value, scalar) === undefined;
  }
}

/**
 * Why the API server cannot decode `value` (not `null`, which every field accepts as "unset") into a field of type
 * `scalar`, or `undefined` when it can.
 */
export function scalarProblem(value: unknown, scalar: Scalar): string | undefined {
  const t = typeof value;
  switch (scalar) {
    case Scalar.STRING:
      if (t === 'string') return undefined;
      break;
    case Scalar.TIME:
      if (t !== 'string') break;
      if (isRfc3339(value as string)) return undefined;
      return `is the string ${renderValue(value)}, not an RFC 3339 timestamp; ${EXPECTED[scalar]} goes here`;
    case Scalar.BOOLEAN:
      if (t === 'boolean') return undefined;
      if (t === 'string')
        return `is the string ${renderValue(value)}; ${EXPECTED[scalar]} goes here${unquoteHint(value as string, 'boolean')}`;
      break;
    case Scalar.INT32:
    case Scalar.INT_OR_STRING:
      if (t === 'string' && scalar === Scalar.INT_OR_STRING) return undefined;
      if (t === 'number') return integerProblem(value as number, Scalar.INT32, INT32_MIN, INT32_MAX);
      if (t === 'string')
        return `is the string ${renderValue(value)}; ${EXPECTED[scalar]} goes here${unquoteHint(value as string, 'number')}`;
      break;
    case Scalar.INT64:
      if (t === 'number') return integerProblem(value as number, scalar, -INT64_LIMIT, INT64_LIMIT);
      if (t === 'string')
        return `is the string ${renderValue(value)}; ${EXPECTED[scalar]} goes here${unquoteHint(value as string, 'number')}`;
      break;
    case Scalar.NUMBER:
    case Scalar.QUANTITY:
      if (t === 'number') {
        return Number.isFinite(value)
          ? undefined
          : `is ${renderValue(value)}, not a JSON number (kubectl cannot send it); ${EXPECTED[scalar]} goes here`;
      }
      if (t !== 'string' || scalar !== Scalar.QUANTITY) break;
      // `Quantity.UnmarshalJSON` trims the text, then parses it (a sign is grammar; negative values are validation's)
      if (parseQuantity((value as string).trim()) !== undefined) return undefined;
      return `is the string ${renderValue(value)}, not a quantity; ${EXPECTED[scalar]} goes here`;
    case Scalar.BYTE:
      if (t !== 'string') break;
      if (BASE64.test((value as string).replace(/[\r\n]/g, ''))) return undefined;
      return `is ${renderValue(value)}, not base64; ${EXPECTED[scalar]} goes here (stringData takes plain text)`;
  }
  return `is ${article(jsonTypeOf(value))} ${renderValue(value)}; ${EXPECTED[scalar]} goes here${scalar === Scalar.STRING ? quoteHint(value) : ''}`;
}

/** The number written by the `n` ASCII digits of `text` from `at`, or -1 when one of them is not a digit. */
function digits(text: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** The days of `month` (1–12) in `year`. */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Whether `text` is an RFC 3339 timestamp the API server decodes (`metav1.Time`, Go's `time.RFC3339`):
 * `YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z` or `±HH:MM`; a valid date, seconds below 60. Read character by
 * character (every Node of a `kubectl get nodes` list carries a dozen timestamps).
 */
export function isRfc3339(text: string): boolean {
  if (text.length < 20 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84) return false;
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  let i = 19;
  if (text.charCodeAt(i) === 46) {
    const start = ++i;
    while (i < text.length && digits(text, i, 1) >= 0) i++;
    if (i === start) return false;
  }
  if (text.charCodeAt(i) === 90) return i + 1 === text.length;
  const sign = text.charCodeAt(i);
  if ((sign !== 43 && sign !== 45) || i + 6 !== text.length || text.charCodeAt(i + 3) !== 58) return false;
  const oh = digits(text, i + 1, 2);
  const om = digits(text, i + 4, 2);
  return oh >= 0 && oh < 24 && om >= 0 && om < 60;
}

function article(type: string): string {
  return type === 'object' ? 'an object' : type === 'list' ? 'a list' : `the ${type}`;
}

/** Why a value is not a list (`null` aside), for a field whose shape is a list. */
export function listProblem(value: unknown): string {
  return `is ${article(jsonTypeOf(value))} ${renderValue(value)}; a list goes here`;
}

/** Why a value is not an object (`null` aside), for a field whose shape is an object type or a map. */
export function objectProblem(value: unknown, map: boolean): string {
  return `is ${article(jsonTypeOf(value))} ${renderValue(value)}; ${map ? 'a map' : 'an object'} goes here`;
}
