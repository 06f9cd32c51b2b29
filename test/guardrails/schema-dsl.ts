/**
 * A minimal structural schema checker: types, required fields, enums, patterns and unknown fields (the API server
 * rejects or drops unknown fields; here they are errors, so a typo cannot pass). Each check appends
 * `<json path>: <problem>` strings.
 */

import { dns1123SubdomainError, labelValueError, qualifiedNameError } from '../../src/k8s';

/** A check of one value at a path. */
export type Check = (value: unknown, path: string, errors: string[]) => void;

/** One field of an object schema. */
export interface Field {
  readonly check: Check;
  readonly required?: boolean;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** A string, optionally with a pattern, a minimum length and a semantic check returning an error or undefined. */
export function str(
  opts: { pattern?: RegExp; minLength?: number; noLineBreaks?: boolean; grammar?: (v: string) => string | undefined } = {},
): Check {
  return (v, path, errors) => {
    if (typeof v !== 'string') return void errors.push(`${path}: must be a string (is ${typeName(v)})`);
    if (opts.minLength !== undefined && v.length < opts.minLength) errors.push(`${path}: must have at least ${opts.minLength} characters`);
    if (opts.pattern && !opts.pattern.test(v)) errors.push(`${path}: ${JSON.stringify(v)} does not match ${opts.pattern}`);
    if (opts.noLineBreaks && /[\r\n]/.test(v)) errors.push(`${path}: must not contain line breaks`);
    if (opts.grammar) {
      const problem = opts.grammar(v);
      if (problem) errors.push(`${path}: ${JSON.stringify(v)} ${problem}`);
    }
  };
}

/** A boolean. */
export const bool: Check = (v, path, errors) => {
  if (typeof v !== 'boolean') errors.push(`${path}: must be a boolean (is ${typeName(v)})`);
};

/** An integer, optionally bounded. */
export function int(opts: { min?: number; max?: number } = {}): Check {
  return (v, path, errors) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) return void errors.push(`${path}: must be an integer (is ${typeName(v)})`);
    if (opts.min !== undefined && v < opts.min) errors.push(`${path}: must be >= ${opts.min}`);
    if (opts.max !== undefined && v > opts.max) errors.push(`${path}: must be <= ${opts.max}`);
  };
}

/** A string from a fixed set. */
export function oneOf(...values: string[]): Check {
  return (v, path, errors) => {
    if (typeof v !== 'string' || !values.includes(v)) errors.push(`${path}: ${JSON.stringify(v)} is not one of ${values.join(', ')}`);
  };
}

/** An array of `item`, with optional size bounds and uniqueness of `key(item)`. */
export function arr(item: Check, opts: { minItems?: number; maxItems?: number; uniqueBy?: (x: any) => unknown } = {}): Check {
  return (v, path, errors) => {
    if (!Array.isArray(v)) return void errors.push(`${path}: must be an array (is ${typeName(v)})`);
    if (opts.minItems !== undefined && v.length < opts.minItems) errors.push(`${path}: must have at least ${opts.minItems} item(s)`);
    if (opts.maxItems !== undefined && v.length > opts.maxItems) errors.push(`${path}: must have at most ${opts.maxItems} items`);
    v.forEach((x, i) => item(x, `${path}[${i}]`, errors));
    if (opts.uniqueBy) {
      const keys = v.map(opts.uniqueBy);
      keys.forEach((k, i) => {
        if (keys.indexOf(k) !== i) errors.push(`${path}[${i}]: duplicate ${JSON.stringify(k)}`);
      });
    }
  };
}

/** A string-keyed map whose keys and values pass the given checks. */
export function map(value: Check, key?: (k: string) => string | undefined): Check {
  return (v, path, errors) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return void errors.push(`${path}: must be an object (is ${typeName(v)})`);
    for (const [k, x] of Object.entries(v)) {
      const problem = key?.(k);
      if (problem) errors.push(`${path}: key ${JSON.stringify(k)} ${problem}`);
      value(x, `${path}[${JSON.stringify(k)}]`, errors);
    }
  };
}

/** An object with known fields; unknown fields are errors. `extra` runs cross-field rules. */
export function obj(fields: Record<string, Field>, extra?: (v: any, path: string, errors: string[]) => void): Check {
  return (v, path, errors) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return void errors.push(`${path}: must be an object (is ${typeName(v)})`);
    const o = v as Record<string, unknown>;
    for (const [name, field] of Object.entries(fields)) {
      if (o[name] === undefined) {
        if (field.required) errors.push(`${path}.${name}: required`);
        continue;
      }
      field.check(o[name], `${path}.${name}`, errors);
    }
    for (const name of Object.keys(o)) if (!(name in fields)) errors.push(`${path}.${name}: unknown field`);
    extra?.(o, path, errors);
  };
}

/** Field helpers. */
export const req = (check: Check): Field => ({ check, required: true });
export const opt = (check: Check): Field => ({ check });

/** Label key / value maps. */
export const labels = map(str({ grammar: labelValueError }), qualifiedNameError);
export const annotations = map(str(), (k) => qualifiedNameError(k.toLowerCase()));

/** `metav1.LabelSelector` with `ValidateLabelSelectorRequirement` rules. */
export const labelSelector = obj({
  matchLabels: opt(labels),
  matchExpressions: opt(
    arr(
      obj(
        {
          key: req(str({ grammar: qualifiedNameError })),
          operator: req(oneOf('In', 'NotIn', 'Exists', 'DoesNotExist')),
          values: opt(arr(str({ grammar: labelValueError }))),
        },
        (r, path, errors) => {
          const n = (r.values ?? []).length;
          if ((r.operator === 'In' || r.operator === 'NotIn') && n === 0)
            errors.push(`${path}.values: must be non-empty for ${r.operator}`);
          if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && n > 0)
            errors.push(`${path}.values: must be empty for ${r.operator}`);
        },
      ),
    ),
  ),
});

/** Object metadata of a cluster-scoped (`namespaced: false`) or namespaced object. */
export function metadata(namespaced: boolean): Check {
  return obj(
    {
      name: req(str({ grammar: dns1123SubdomainError })),
      namespace: opt(str()),
      labels: opt(labels),
      annotations: opt(annotations),
    },
    (m, path, errors) => {
      if (namespaced && m.namespace === undefined) errors.push(`${path}.namespace: required for a namespaced object`);
      if (!namespaced && m.namespace !== undefined) errors.push(`${path}.namespace: must not be set on a cluster-scoped object`);
    },
  );
}

/** Runs a check and returns the errors. */
export function validate(check: Check, value: unknown, path = ''): string[] {
  const errors: string[] = [];
  check(value, path || '$', errors);
  return errors;
}
