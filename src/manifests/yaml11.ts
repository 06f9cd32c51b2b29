/**
 * A YAML 1.1 schema for js-yaml, resolving plain scalars the way kubectl does (sigs.k8s.io/yaml over go-yaml, which
 * reads YAML 1.1) and the way cdk8s writes them: `0644` is the octal number 420, `0o17` is a string, `yes`/`on`/`y`
 * are booleans, `0b101` binary, `1_000` with separators, `1e3` a float. Like go-yaml (and unlike the YAML 1.1
 * specification), base-60 numbers such as `1:30` stay strings. Quoted scalars stay strings.
 */

import { CORE_SCHEMA, Schema, Type } from 'js-yaml';

const BOOL_TRUE = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
const BOOL_FALSE = new Set(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);

const BOOL_WORDS = [...BOOL_TRUE, ...BOOL_FALSE];
/** The first characters of the boolean words, and their greatest length. */
const BOOL_FIRST = new Set(BOOL_WORDS.map((w) => w.charCodeAt(0)));
const BOOL_LONGEST = Math.max(...BOOL_WORDS.map((w) => w.length));

/**
 * Whether a plain scalar is a YAML 1.1 boolean. The words are short and start with one of a few letters, which rules
 * out most plain scalars without looking them up.
 */
function isBool(data: string): boolean {
  return data.length <= BOOL_LONGEST && BOOL_FIRST.has(data.charCodeAt(0)) && (BOOL_TRUE.has(data) || BOOL_FALSE.has(data));
}

const bool = new Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: isBool,
  construct: (data: string) => BOOL_TRUE.has(data),
  predicate: (value: unknown) => typeof value === 'boolean',
  represent: (value: unknown) => (value ? 'true' : 'false'),
});

const INT_BINARY = /^[-+]?0b[0-1_]+$/;
const INT_OCTAL = /^[-+]?0[0-7_]+$/;
const INT_DECIMAL = /^[-+]?(?:0|[1-9][0-9_]*)$/;
const INT_HEX = /^[-+]?0x[0-9a-fA-F_]+$/;

/** Whether a character code is an ASCII digit. */
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Whether a plain scalar may be a YAML 1.1 number: every integer starts with a sign or a digit, every float with a
 * sign, a digit or a dot. Most plain scalars of a manifest (its keys, names, paths) start otherwise, and are ruled
 * out by one character before any pattern is tried.
 */
function mayBeNumber(text: string, dot: boolean): boolean {
  const c = text.charCodeAt(0);
  return isDigit(c) || c === 45 || c === 43 || (dot && c === 46);
}

/** The number a YAML 1.1 plain integer denotes (as go-yaml reads it), or `undefined` when the text is not one. */
export function yaml11Int(text: string): number | undefined {
  if (!mayBeNumber(text, false)) return undefined;
  const sign = text.startsWith('-') ? -1 : 1;
  const body = (text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text).replace(/_/g, '');
  if (INT_BINARY.test(text)) return body.length > 2 ? sign * parseInt(body.slice(2), 2) : undefined;
  if (INT_HEX.test(text)) return body.length > 2 ? sign * parseInt(body.slice(2), 16) : undefined;
  if (INT_OCTAL.test(text)) return body.length > 1 ? sign * parseInt(body, 8) : undefined;
  if (INT_DECIMAL.test(text)) return body === '' ? undefined : sign * parseInt(body, 10);
  return undefined;
}

const int = new Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: string) => yaml11Int(data) !== undefined,
  construct: (data: string) => yaml11Int(data) as number,
  predicate: (value: unknown) => typeof value === 'number' && Number.isInteger(value),
  represent: (value: unknown) => String(value),
});

/** go-yaml's float syntax (after removing `_`): `1.5`, `.5`, `3.`, `1e3`, `08` (not an octal, so a decimal float). */
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const FLOAT_INF = /^[-+]?\.(?:inf|Inf|INF)$/;
const FLOAT_NAN = /^\.(?:nan|NaN|NAN)$/;

/** The number a YAML 1.1 plain float denotes (as go-yaml reads it), or `undefined` when the text is not one. */
export function yaml11Float(text: string): number | undefined {
  if (!mayBeNumber(text, true)) return undefined;
  if (FLOAT_NAN.test(text)) return NaN;
  if (FLOAT_INF.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  // go-yaml reads a number only from a plain scalar that starts like one (a sign, a digit or a dot)
  if (!/^[-+]?[0-9.]/.test(text)) return undefined;
  const plain = text.replace(/_/g, '');
  return FLOAT.test(plain) ? parseFloat(plain) : undefined;
}

const float = new Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: string) => yaml11Float(data) !== undefined,
  construct: (data: string) => yaml11Float(data) as number,
  predicate: (value: unknown) => typeof value === 'number' && !Number.isInteger(value),
  represent: (value: unknown) => String(value),
});

/**
 * The schema: js-yaml's core schema (str, seq, map, null) with YAML 1.1 booleans, integers and floats, plus merge
 * keys (`<<`). Timestamps and binary stay strings, as they do once kubectl converts YAML to JSON.
 */
export const YAML_11_SCHEMA: Schema = CORE_SCHEMA.extend({ implicit: [bool, int, float] });
