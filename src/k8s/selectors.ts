/**
 * Label selector, node selector and toleration grammar and semantics (apimachinery `labels`, `metav1.LabelSelector`,
 * core `ValidateTolerations`, component-helpers `nodeaffinity`). Pure functions over plain values; each error function
 * returns `undefined` when the value is valid, or a sentence saying why it is not.
 */

import { asArray, asObject, showValue as show } from './json';
import { labelValueError, qualifiedNameError } from './names';

/** Taint effects a toleration may name (empty means every effect). */
const TAINT_EFFECTS: readonly string[] = ['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/**
 * The value-count rules of the set operators shared by label and node selectors: `In`/`NotIn` need a value,
 * `Exists`/`DoesNotExist` none. Returns `undefined` when the operator is one of them and its values fit, a message when
 * they do not, and `''` for any other operator (the caller decides whether it is valid).
 */
function setOperatorError(operator: unknown, values: unknown[]): string | undefined {
  switch (operator) {
    case 'In':
    case 'NotIn':
      return values.length === 0 ? `operator '${operator}' needs at least one value` : undefined;
    case 'Exists':
    case 'DoesNotExist':
      return values.length > 0 ? `operator '${operator}' must have no values (has ${show(values)})` : undefined;
    default:
      return '';
  }
}

/** Why a label selector requirement (`{key, operator, values}`) is invalid, or `undefined`. */
export function labelSelectorRequirementError(requirement: unknown): string | undefined {
  const req = asObject(requirement);
  const keyError = qualifiedNameError(req.key);
  if (keyError) return `key ${show(req.key)} ${keyError}`;
  const values = req.values === undefined || req.values === null ? [] : req.values;
  if (!Array.isArray(values)) return `values must be a list (has ${show(values)})`;
  const operatorError = setOperatorError(req.operator, values);
  if (operatorError !== undefined) return operatorError || `operator ${show(req.operator)} is not one of In, NotIn, Exists, DoesNotExist`;
  for (const v of values) {
    const err = typeof v === 'string' ? labelValueError(v) : 'must be a string';
    if (err) return `value ${show(v)} ${err}`;
  }
  return undefined;
}

/**
 * Whether a label selector (`matchLabels` + `matchExpressions`) selects the given labels. A missing selector
 * selects nothing; an empty one selects everything (as `metav1.LabelSelectorAsSelector`).
 */
export function selectorMatches(selector: unknown, labels: { readonly [key: string]: unknown }): boolean {
  if (selector === undefined || selector === null) return false;
  const sel = asObject(selector);
  for (const [k, v] of Object.entries(asObject(sel.matchLabels))) {
    if (labels[k] !== v) return false;
  }
  for (const raw of asArray(sel.matchExpressions)) {
    const req = asObject(raw);
    const has = Object.prototype.hasOwnProperty.call(labels, req.key);
    const values = asArray(req.values);
    switch (req.operator) {
      case 'In':
        if (!has || !values.includes(labels[req.key])) return false;
        break;
      case 'NotIn':
        if (has && values.includes(labels[req.key])) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** One problem in a toleration: the field it concerns and why. */
export interface FieldProblem {
  /** The field inside the checked object (e.g. `operator`). */
  readonly field: string;
  /** What is wrong, naming the bad value. */
  readonly message: string;
}

/** The problems of one toleration, as the API server's `ValidateTolerations` reports them. */
export function tolerationProblems(toleration: unknown): FieldProblem[] {
  const t = asObject(toleration);
  const out: FieldProblem[] = [];
  const key = t.key ?? '';
  const operator = t.operator ?? '';
  const value = t.value ?? '';
  const effect = t.effect ?? '';
  if (key !== '') {
    const err = typeof key === 'string' ? qualifiedNameError(key) : 'must be a string';
    if (err) out.push({ field: 'key', message: `key ${show(key)} ${err}` });
  } else if (operator !== 'Exists') {
    out.push({
      field: 'operator',
      message: `operator must be 'Exists' when key is empty (matches every taint), has ${show(operator === '' ? 'Equal' : operator)}`,
    });
  }
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) {
    if (effect !== 'NoExecute') {
      out.push({
        field: 'tolerationSeconds',
        message: `tolerationSeconds is only allowed with effect 'NoExecute' (effect is ${show(effect)})`,
      });
    } else if (typeof t.tolerationSeconds !== 'number' || !Number.isInteger(t.tolerationSeconds)) {
      out.push({
        field: 'tolerationSeconds',
        message: `tolerationSeconds must be a whole number of seconds (has ${show(t.tolerationSeconds)})`,
      });
    }
  }
  if (operator === '' || operator === 'Equal') {
    const err = typeof value === 'string' ? labelValueError(value) : 'must be a string';
    if (err) out.push({ field: 'value', message: `value ${show(value)} ${err}` });
  } else if (operator === 'Exists') {
    if (value !== '') out.push({ field: 'value', message: `value must be empty when operator is 'Exists' (has ${show(value)})` });
  } else {
    out.push({ field: 'operator', message: `operator ${show(operator)} is not one of Equal, Exists` });
  }
  if (!TAINT_EFFECTS.includes(effect)) {
    out.push({ field: 'effect', message: `effect ${show(effect)} is not one of NoSchedule, PreferNoSchedule, NoExecute (or empty)` });
  }
  return out;
}

/**
 * Why the API server refuses a node selector requirement (`ValidateNodeSelectorRequirement`,
 * `ValidateNodeFieldSelectorRequirement`), or `undefined`: In/NotIn need a value, Exists/DoesNotExist none, Gt/Lt
 * exactly one (of any text: one that is no integer is accepted, and its term never matches), the key is a qualified
 * name. `matchFields` requirements may only use the key `metadata.name` with `In`/`NotIn` and exactly one value.
 */
export function nodeSelectorRequirementError(requirement: unknown, matchFields: boolean): string | undefined {
  const req = asObject(requirement);
  const values = req.values === undefined || req.values === null ? [] : req.values;
  if (!Array.isArray(values)) return `values must be a list (has ${show(values)})`;
  if (matchFields) {
    if (req.key !== 'metadata.name') return `matchFields key must be 'metadata.name' (has ${show(req.key)})`;
    if (req.operator !== 'In' && req.operator !== 'NotIn') {
      return `matchFields operator must be In or NotIn (has ${show(req.operator)})`;
    }
    if (values.length !== 1) return `matchFields needs exactly one value (has ${values.length})`;
    return undefined;
  }
  const operatorError = setOperatorError(req.operator, values);
  if (operatorError) return operatorError;
  if (operatorError === undefined) return keyProblem(req.key);
  switch (req.operator) {
    case 'Gt':
    case 'Lt':
      // the API server checks only the number of values: a value that is no integer is accepted, and the term that
      // holds it never matches a node (the scheduler's labels.NewRequirement refuses it)
      if (values.length !== 1) return `operator '${req.operator}' needs exactly one value (has ${values.length})`;
      break;
    default:
      return `operator ${show(req.operator)} is not one of In, NotIn, Exists, DoesNotExist, Gt, Lt`;
  }
  return keyProblem(req.key);
}

function keyProblem(key: unknown): string | undefined {
  const keyError = typeof key === 'string' ? qualifiedNameError(key) : 'must be a string';
  return keyError ? `key ${show(key)} ${keyError}` : undefined;
}

const VERSION_LIKE = /(?:^|[^A-Za-z0-9])v?[0-9]+\.[0-9]+(?:\.[0-9]+)?(?:$|[^A-Za-z0-9])|^v?[0-9]+\.[0-9]+/;
const HASH_LIKE = /^[0-9a-f]{8,}$/;

/** Whether a label value looks like a version (`1.2.3`, `v0.46`, `fluent-bit-0.46.1`) or a content hash. */
export function looksLikeVersionOrHash(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  return VERSION_LIKE.test(value) || (HASH_LIKE.test(value) && /[0-9]/.test(value) && /[a-f]/.test(value));
}
