/**
 * Runtime type and shape of props, declared once per option group as data. Callers may be plain JavaScript or other
 * languages through jsii, so every prop is checked for its type before any other code reads it: a wrongly typed value
 * becomes a problem naming the field as the caller wrote it, never a `TypeError`, a coercion or a truncation.
 *
 * The same tables drive the generated wrong-type tests (every field of every option group gets a value of the wrong
 * type and must produce exactly one problem naming that field).
 */

import { closestMatch } from './capabilities';
import { NodeServiceError, PropProblem, ProblemCollector } from './problems';

/** What a field holds. */
export type FieldShape =
  | { readonly type: 'string' | 'boolean' | 'integer' | 'number' | 'json' }
  | { readonly type: 'enum'; readonly values: readonly string[]; readonly name: string }
  | { readonly type: 'list'; readonly of: FieldShape }
  | { readonly type: 'map'; readonly of: FieldShape }
  | { readonly type: 'object'; readonly fields: ShapeTable; readonly name: string; readonly open?: boolean }
  | { readonly type: 'instance'; readonly cls: ClassRef; readonly fix: string; readonly fields?: ShapeTable };

/** A class (constructors may be private: instances come from static factories). */
export interface ClassRef {
  readonly name: string;
  readonly prototype: object;
}

/** One field of an option group: its shape and whether it must be given. */
export interface FieldSpec {
  readonly shape: FieldShape;
  readonly required?: boolean;
}

/** The fields of an option group (or of an object inside one). */
export type ShapeTable = { readonly [field: string]: FieldSpec };

/** A table's fields as lists and an own-key index, built once per table (tables are module constants). */
interface CompiledTable {
  readonly entries: ReadonlyArray<readonly [string, FieldSpec]>;
  readonly specs: ReadonlyMap<string, FieldSpec>;
  readonly names: string[];
  readonly required: ReadonlyArray<readonly [string, FieldSpec]>;
}

const COMPILED = new WeakMap<ShapeTable, CompiledTable>();

/**
 * The compiled form of `table`. Fields are looked up among the table's own keys only: a prop named `constructor`,
 * `toString` or `__proto__` is no field of any table (an inherited `Object.prototype` member must not pass for one).
 */
function compiled(table: ShapeTable): CompiledTable {
  let c = COMPILED.get(table);
  if (c === undefined) {
    const entries = Object.entries(table);
    c = { entries, specs: new Map(entries), names: entries.map(([k]) => k), required: entries.filter(([, spec]) => spec.required) };
    COMPILED.set(table, c);
  }
  return c;
}

/** Shape builders: `opt(str)`, `req(list(str))`. @internal */
export const str: FieldShape = { type: 'string' };
/** @internal */
export const bool: FieldShape = { type: 'boolean' };
/** @internal */
export const int: FieldShape = { type: 'integer' };
/** A finite number. @internal */
export const num: FieldShape = { type: 'number' };
/** Any JSON value (the field's own grammar check decides). @internal */
export const json: FieldShape = { type: 'json' };
/** @internal */
export function list(of: FieldShape): FieldShape {
  return { type: 'list', of };
}
/** @internal */
export function map(of: FieldShape): FieldShape {
  return { type: 'map', of };
}
/** @internal */
export function oneOf(name: string, values: readonly string[]): FieldShape {
  return { type: 'enum', values, name };
}
/** @internal */
export function object(name: string, fields: ShapeTable): FieldShape {
  return { type: 'object', fields, name };
}
/**
 * An object that implements the interface `name` (e.g. a cdk8s-plus `IConfigMap`): the listed fields are checked,
 * others are allowed (an implementation has more members than the library reads). @internal
 */
export function implementing(name: string, fields: ShapeTable): FieldShape {
  return { type: 'object', fields, name, open: true };
}
/** @internal */
export function instance(cls: ClassRef, fix: string, fields?: ShapeTable): FieldShape {
  return { type: 'instance', cls, fix, fields };
}
/** An optional field. @internal */
export function opt(shape: FieldShape): FieldSpec {
  return { shape };
}
/** A required field. @internal */
export function req(shape: FieldShape): FieldSpec {
  return { shape, required: true };
}

/** How a value of `shape` is described in a message. @internal */
function describeShape(shape: FieldShape): string {
  switch (shape.type) {
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean (true or false)';
    case 'integer':
      return 'a whole number';
    case 'number':
      return 'a finite number';
    case 'json':
      return 'a JSON value';
    case 'enum':
      return `one of ${shape.name} (${shape.values.join(', ')})`;
    case 'list':
      return `a list of ${plural(describeShape(shape.of))}`;
    case 'map':
      return `a map (object) of ${plural(describeShape(shape.of))}`;
    case 'object':
      return `an object (${shape.name})`;
    case 'instance':
      return `a ${shape.cls.name} (${shape.fix})`;
  }
}

function plural(text: string): string {
  return text.replace(/^an? /, '').replace(/^(string|boolean|whole number|finite number|JSON value)/, '$1s');
}

/** The fix offered for a value that is not of `shape`. */
function fixFor(shape: FieldShape): string {
  if (shape.type === 'instance') return `create it with ${shape.fix}`;
  if (shape.type === 'list' && shape.of.type === 'instance') return `pass a list, each element created with ${shape.of.fix}`;
  if (shape.type === 'list') return `pass a list (e.g. [${example(shape.of)}])`;
  if (shape.type === 'map') return `pass an object such as { "key": ${example(shape.of)} }`;
  if (shape.type === 'object') return `pass an object (${shape.name}) with the fields ${Object.keys(shape.fields).join(', ')}`;
  return `pass ${describeShape(shape)}`;
}

function example(shape: FieldShape): string {
  switch (shape.type) {
    case 'string':
      return '"value"';
    case 'integer':
    case 'number':
      return '1';
    case 'boolean':
      return 'true';
    default:
      return '…';
  }
}

/** Whether `value` is a plain object (not an array, not a class instance of ours). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks `value` against `shape`, recording problems under `field`. Returns whether the value is sound (code after
 * the boundary may then trust it).
 */
function checkValue(value: unknown, shape: FieldShape, field: string, problems: ProblemCollector): boolean {
  const wrong = (): boolean => {
    problems.add(field, value, `must be ${describeShape(shape)}`, fixFor(shape));
    return false;
  };
  switch (shape.type) {
    case 'json':
      return true;
    case 'string':
      return typeof value === 'string' || wrong();
    case 'boolean':
      return typeof value === 'boolean' || wrong();
    case 'integer':
      return (typeof value === 'number' && Number.isInteger(value)) || wrong();
    case 'number':
      return (typeof value === 'number' && Number.isFinite(value)) || wrong();
    case 'enum':
      if (typeof value === 'string' && shape.values.includes(value)) return true;
      if (typeof value === 'string') {
        const near = shape.values.find((v) => v.toLowerCase() === value.toLowerCase()) ?? closestMatch(value, shape.values, 3);
        problems.add(field, value, `is not one of ${shape.name} (${shape.values.join(', ')})`, near ? `use "${near}"` : fixFor(shape));
        return false;
      }
      return wrong();
    case 'list': {
      if (!Array.isArray(value)) return wrong();
      let ok = true;
      for (let i = 0; i < value.length; i++) ok = checkValue(value[i], shape.of, `${field}[${i}]`, problems) && ok;
      return ok;
    }
    case 'map': {
      if (!isRecord(value) || Object.getPrototypeOf(value) !== Object.prototype) {
        if (!(isRecord(value) && Object.getPrototypeOf(value) === null)) return wrong();
      }
      let ok = true;
      for (const [k, v] of Object.entries(value as Record<string, unknown>))
        ok = checkValue(v, shape.of, `${field}["${k}"]`, problems) && ok;
      return ok;
    }
    case 'object': {
      if (!isRecord(value)) return wrong();
      // A plain object literal must not carry unknown fields; a class instance may (it satisfies the interface structurally).
      const proto = Object.getPrototypeOf(value);
      return checkTable(value, shape.fields, field, problems, !shape.open && (proto === Object.prototype || proto === null));
    }
    case 'instance':
      if (typeof value !== 'object' || value === null || !Object.prototype.isPrototypeOf.call(shape.cls.prototype, value)) return wrong();
      return shape.fields ? checkTable(value as Record<string, unknown>, shape.fields, field, problems, false) : true;
  }
}

/** Checks every field of `record` against `table`; unknown fields are problems when `closed`. */
function checkTable(
  record: Record<string, unknown>,
  table: ShapeTable,
  prefix: string,
  problems: ProblemCollector,
  closed: boolean,
): boolean {
  let ok = true;
  const at = (k: string): string => (prefix ? `${prefix}.${k}` : k);
  const { entries, specs, names } = compiled(table);
  for (const [k, spec] of entries) {
    const v = record[k];
    if (v === undefined) {
      if (spec.required) {
        problems.add(at(k), v, 'is required', fixFor(spec.shape));
        ok = false;
      }
      continue;
    }
    ok = checkValue(v, spec.shape, at(k), problems) && ok;
  }
  if (closed) {
    for (const k of Object.keys(record)) {
      if (specs.has(k) || record[k] === undefined) continue;
      const near = closestMatch(k, names, 3);
      problems.add(
        at(k),
        record[k],
        'is not an option here',
        near ? `did you mean "${near}"?` : `remove it (options: ${names.join(', ')})`,
      );
      ok = false;
    }
  }
  return ok;
}

/**
 * Checks props against the option groups in `table` and returns a copy without the fields that are not sound (so
 * that the code after the boundary only sees values of the declared types). Every problem lands in `problems`;
 * problems that later checks would report under a field that was dropped here are muted (see
 * {@link ProblemCollector.mute}), so each mistake is reported once.
 * @internal
 */
export function checkShape<T>(
  props: unknown,
  table: ShapeTable,
  problems: ProblemCollector,
  what: string,
  refused: { readonly [prop: string]: string } = {},
): T {
  if (!isRecord(props)) {
    problems.add('props', props, `${what} props must be an object`, `pass an object with at least ${requiredOf(table)}`);
    problems.mute('');
    return {} as T;
  }
  const out: Record<string, unknown> = {};
  const { specs, names, required } = compiled(table);
  for (const [k, v] of Object.entries(props)) {
    const spec = specs.get(k);
    if (spec === undefined) {
      if (v === undefined) continue;
      if (Object.prototype.hasOwnProperty.call(refused, k)) {
        problems.add(k, v, `is not an option of ${what}: ${refused[k]}`, 'remove it');
        continue;
      }
      const near = closestMatch(k, names, 3);
      problems.add(k, v, `is not an option of ${what}`, near ? `did you mean "${near}"?` : 'remove it (see the props documentation)');
      continue;
    }
    if (v === undefined) continue;
    if (checkValue(v, spec.shape, k, problems)) out[k] = v;
    else problems.mute(k);
  }
  for (const [k, spec] of required) {
    if ((props as Record<string, unknown>)[k] === undefined) {
      problems.add(k, undefined, 'is required', fixFor(spec.shape));
      problems.mute(k);
    }
  }
  return out as T;
}

function requiredOf(table: ShapeTable): string {
  const names = compiled(table).required.map(([k]) => k);
  return names.length > 0 ? `{ ${names.join(', ')} }` : '{}';
}

/** A value of the wrong type for `shape`, for generated tests. @internal */
export function wrongValueFor(shape: FieldShape): unknown {
  switch (shape.type) {
    case 'string':
    case 'enum':
      return 42;
    case 'json':
      return undefined;
    default:
      return 'not-the-right-type';
  }
}

/**
 * The parameters of a public function or method, in order: each name (as documented), its shape and, optionally, the
 * fix for a value of the wrong type (e.g. the factory that takes it). @internal
 */
export type ParamList = ReadonlyArray<readonly [string, FieldSpec, string?]>;

const PARAMS = new Map<string, ParamList>();

/**
 * The boundary of a public factory or method (callers may be plain JavaScript, or other languages through jsii):
 * checks every argument in `args` (the call's `arguments`) against `params` and throws one {@link NodeServiceError}
 * listing every problem: a required argument missing, a value of the wrong type (a string where an options object
 * goes), an unknown option, and an argument past the last parameter (which would be silently dropped). Fields are
 * named as written, e.g. `Toleration.equal(value)`, `Toleration.exists(options.effect)`.
 *
 * Only types and arity are checked here; the Kubernetes grammar of the values is checked by the construct that
 * receives them, with its construct path, together with its other problems. `params` may be a function (called once
 * per `method`) where the shapes come from a module that imports this one's.
 * @internal
 */
export function checkArguments(method: string, args: ArrayLike<unknown>, params: ParamList | (() => ParamList)): void {
  let list = PARAMS.get(method);
  if (list === undefined) {
    list = typeof params === 'function' ? params() : params;
    PARAMS.set(method, list);
  }
  const problems = new ProblemCollector();
  list.forEach(([name, spec, fix], i) => {
    const value = args[i];
    if (value === undefined) {
      if (spec.required) problems.add(name, value, 'is required', fixFor(spec.shape));
      return;
    }
    const found = new ProblemCollector();
    checkValue(value, spec.shape, name, found);
    found.forEach((p) => problems.addRendered(fix !== undefined && p.field === name ? { ...p, fix } : p));
  });
  for (let i = list.length; i < args.length; i++) {
    if (args[i] === undefined) continue;
    const signature = `${method}(${list.map(([name]) => name).join(', ')})`;
    problems.add(`arguments[${i}]`, args[i], `is past the last parameter of ${signature}`, 'remove it');
  }
  if (problems.empty) return;
  const found: PropProblem[] = [];
  problems.forEach((p) => found.push({ ...p, field: `${method}(${p.field})` }));
  throw new NodeServiceError(method, found, 'arguments');
}
