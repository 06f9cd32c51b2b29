/**
 * `spec.nodeSelector` and required node affinity, compiled once per workload and matched against nodes
 * (component-helpers `nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)`, apimachinery `labels.NewRequirement`
 * parsing rules).
 *
 * Node labels are looked up by an interned key id (an array index), and every requirement carries a matcher
 * closure compiled once, so matching a node does no hashing and allocates nothing.
 */

import { jsonText } from '../k8s/json';
import { labelValueError, qualifiedNameError } from '../k8s/names';
import type { WireAffinity, WireLabelSelectorRequirement, WireNodeSelectorRequirement, WireNodeSelectorTerm } from '../k8s/wire';

export { jsonText };

const keyIds = new Map<string, number>();

/** The id of a label key; ids are shared by every compiled workload and node of the process. */
function labelKeyId(key: string): number {
  let id = keyIds.get(key);
  if (id === undefined) {
    id = keyIds.size;
    keyIds.set(key, id);
  }
  return id;
}

/** A node's labels as an array indexed by label key id (`undefined` = no such label). */
export type LabelTable = Array<string | undefined>;

/** A label value as matching sees it (non-strings, which the API server would reject, compare as their text). */
export function labelValue(value: unknown): string {
  return jsonText(value);
}

/** Builds the label table of a `metadata.labels` map. */
export function labelTable(labels: Record<string, unknown> | undefined): LabelTable {
  const table: LabelTable = [];
  if (!labels || typeof labels !== 'object') return table;
  for (const key of Object.keys(labels)) {
    const value = labels[key];
    table[labelKeyId(key)] = labelValue(value);
  }
  // Fill holes so that the array stays in a packed representation.
  for (let i = 0; i < table.length; i++) if (!(i in table)) table[i] = undefined;
  return table;
}

/** Label requirement operators (`selection.Operator` for node selectors). */
export enum Op {
  IN = 'In',
  NOT_IN = 'NotIn',
  EXISTS = 'Exists',
  DOES_NOT_EXIST = 'DoesNotExist',
  GT = 'Gt',
  LT = 'Lt',
}

/** One parsed label requirement (`labels.Requirement`), with its matcher. */
export interface LabelRequirement {
  /** Label key. */
  readonly key: string;
  /** Interned id of the key (index into a {@link LabelTable}). */
  readonly keyId: number;
  /** Operator. */
  readonly op: Op;
  /** Values (one for Gt/Lt, none for Exists/DoesNotExist). */
  readonly values: readonly string[];
  /** `Requirement.Matches` over a node's label table. */
  readonly matches: (labels: LabelTable) => boolean;
  /** Explanations already built for a failure of this requirement, by the node's value of the label. */
  memo?: Map<string | undefined, string>;
}

/** One parsed `matchFields` requirement (`fields.OneTermEqualSelector` / `OneTermNotEqualSelector`). */
export interface FieldRequirement {
  /** Field key; only `metadata.name` is a node field, any other reads as "". */
  readonly key: string;
  /** `NotIn` (otherwise `In`). */
  readonly notIn: boolean;
  /** The one value. */
  readonly value: string;
}

/** One node selector term as the scheduler parses it. */
export interface CompiledTerm {
  /** Index in `nodeSelectorTerms`. */
  readonly index: number;
  /** Parsed `matchExpressions` (ANDed). */
  readonly exprs: readonly LabelRequirement[];
  /** Parsed `matchFields` (ANDed). */
  readonly fields: readonly FieldRequirement[];
  /** Why the term never matches: it failed to parse, or it is empty. */
  readonly never?: string;
}

/** Required node affinity (`undefined` = no constraint), with its matcher. */
export interface CompiledAffinity {
  /** Every term, including the ones that never match (for explanations). */
  readonly terms: readonly CompiledTerm[];
  /** Whether a node with these labels and this name matches at least one term. */
  readonly matches: (labels: LabelTable, nodeName: string) => boolean;
}

/** Whether a node named `nodeName` satisfies a field requirement (only `metadata.name` exists; others read as ""). */
export function fieldMatches(f: FieldRequirement, nodeName: string): boolean {
  const actual = f.key === 'metadata.name' ? nodeName : '';
  return f.notIn ? actual !== f.value : actual === f.value;
}

/** Builds a requirement and its matcher (`Requirement.Matches`); the values are assumed valid. */
export function requirement(key: string, op: Op, values: readonly string[], threshold: number | bigint): LabelRequirement {
  const keyId = labelKeyId(key);
  let matches: (labels: LabelTable) => boolean;
  switch (op) {
    case Op.IN:
      if (values.length === 1) {
        const only = values[0];
        matches = (labels) => labels[keyId] === only;
      } else {
        matches = (labels) => {
          const v = labels[keyId];
          return v !== undefined && values.includes(v);
        };
      }
      break;
    case Op.NOT_IN:
      matches = (labels) => {
        const v = labels[keyId];
        return v === undefined || !values.includes(v);
      };
      break;
    case Op.EXISTS:
      matches = (labels) => labels[keyId] !== undefined;
      break;
    case Op.DOES_NOT_EXIST:
      matches = (labels) => labels[keyId] === undefined;
      break;
    case Op.GT:
    case Op.LT: {
      const greater = op === Op.GT;
      matches = (labels) => {
        const v = labels[keyId];
        if (v === undefined) return false;
        const n = parseInt64(v);
        if (n === undefined) return false;
        return greater ? n > threshold : n < threshold;
      };
      break;
    }
  }
  return { key, keyId, op, values, matches, memo: undefined };
}

function termMatcher(
  exprs: readonly LabelRequirement[],
  fields: readonly FieldRequirement[],
): (labels: LabelTable, nodeName: string) => boolean {
  return (labels, nodeName) => {
    for (let i = 0; i < exprs.length; i++) if (!exprs[i].matches(labels)) return false;
    if (nodeName.length > 0) {
      for (let i = 0; i < fields.length; i++) if (!fieldMatches(fields[i], nodeName)) return false;
    }
    return true;
  };
}

const INT64 = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** `strconv.ParseInt(s, 10, 64)`: the value, or `undefined` when `s` is not a base-10 int64. */
function parseInt64(s: string): number | bigint | undefined {
  if (!INT64.test(s)) return undefined;
  const n = Number(s);
  if (Number.isSafeInteger(n)) return n;
  const big = BigInt(s);
  if (big < INT64_MIN || big > INT64_MAX) return undefined;
  return big;
}

const OPERATORS: ReadonlySet<string> = new Set(Object.values(Op));

/**
 * Parses one `matchExpressions` entry like `labels.NewRequirement`: returns the requirement or the reasons it
 * does not parse (any reason makes its term never match).
 */
export function parseRequirement(input: unknown, index: number): LabelRequirement | string[] {
  const expr = input as WireLabelSelectorRequirement | WireNodeSelectorRequirement | undefined;
  const errors: string[] = [];
  const where = `matchExpressions[${index}]`;
  const key = typeof expr?.key === 'string' ? expr.key : '';
  const operator = expr?.operator;
  const rawValues: unknown[] = Array.isArray(expr?.values) ? expr.values : [];
  const values = rawValues.map(jsonText);
  const op = typeof operator === 'string' && OPERATORS.has(operator) ? (operator as Op) : undefined;
  if (op === undefined) {
    return [`${where}: operator ${JSON.stringify(operator ?? '')} is not one of In, NotIn, Exists, DoesNotExist, Gt, Lt`];
  }
  const keyError = qualifiedNameError(key);
  if (keyError) errors.push(`${where}.key ${JSON.stringify(key)} ${keyError}`);
  let threshold: number | bigint = 0;
  if (op === Op.IN || op === Op.NOT_IN) {
    if (values.length === 0) errors.push(`${where}: ${operator} needs at least one value`);
  } else if (op === Op.EXISTS || op === Op.DOES_NOT_EXIST) {
    if (values.length !== 0) errors.push(`${where}: ${operator} must have no values (has ${values.length})`);
  } else {
    if (values.length !== 1) errors.push(`${where}: ${operator} needs exactly one value (has ${values.length})`);
    values.forEach((v, i) => {
      const n = parseInt64(v);
      if (n === undefined) errors.push(`${where}.values[${i}] ${JSON.stringify(v)}: ${operator} needs a base-10 64-bit integer`);
      else if (i === 0) threshold = n;
    });
  }
  values.forEach((v, i) => {
    const valueError = labelValueError(v);
    if (valueError) errors.push(`${where}.values[${i}] ${JSON.stringify(v)} is not a valid label value: ${valueError}`);
  });
  if (errors.length > 0) return errors;
  return requirement(key, op, values, threshold);
}

function parseField(expr: WireNodeSelectorRequirement | undefined, index: number): FieldRequirement | string {
  const where = `matchFields[${index}]`;
  const key = typeof expr?.key === 'string' ? expr.key : '';
  const values: unknown[] = Array.isArray(expr?.values) ? expr.values : [];
  const operator = expr?.operator;
  if (operator !== 'In' && operator !== 'NotIn') {
    return `${where}: operator ${JSON.stringify(operator ?? '')} is not supported for fields (only In, NotIn)`;
  }
  if (values.length !== 1) return `${where}: ${operator} on a field needs exactly one value (has ${values.length})`;
  const value = jsonText(values[0]);
  return { key, notIn: operator === 'NotIn', value };
}

/**
 * Compiles `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution` (`NewLazyErrorNodeSelector`):
 * empty terms are skipped, a term that fails to parse never matches, the other terms are still used.
 * Returns `undefined` when there is no required node affinity. `where` is the pod spec's path; `warnings` receives what the API server accepts
 * but silently covers nothing.
 */
export function compileAffinity(affinity: WireAffinity | undefined, where: string, warnings: string[]): CompiledAffinity | undefined {
  const required = affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (affinity == null || affinity.nodeAffinity == null || required == null) return undefined;
  const rawTerms: (WireNodeSelectorTerm | undefined)[] = Array.isArray(required.nodeSelectorTerms) ? required.nodeSelectorTerms : [];
  const terms: CompiledTerm[] = [];
  const path = `${where}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
  if (rawTerms.length === 0) {
    warnings.push(`${path} is empty, so the DaemonSet matches no node; add a term or remove the required node affinity`);
  }
  rawTerms.forEach((term, index) => {
    const rawExprs: (WireNodeSelectorRequirement | undefined)[] = Array.isArray(term?.matchExpressions) ? term.matchExpressions : [];
    const rawFields: (WireNodeSelectorRequirement | undefined)[] = Array.isArray(term?.matchFields) ? term.matchFields : [];
    if (rawExprs.length === 0 && rawFields.length === 0) {
      terms.push({ index, exprs: [], fields: [], never: 'is empty and matches no node' });
      warnings.push(
        `${path}[${index}] has neither matchExpressions nor matchFields, so it matches no node; remove it or add a requirement`,
      );
      return;
    }
    const errors: string[] = [];
    const exprs: LabelRequirement[] = [];
    const fields: FieldRequirement[] = [];
    rawExprs.forEach((e, i) => {
      const r = parseRequirement(e, i);
      if (Array.isArray(r)) errors.push(...r);
      else exprs.push(r);
    });
    rawFields.forEach((f, i) => {
      const r = parseField(f, i);
      if (typeof r === 'string') errors.push(r);
      else fields.push(r);
    });
    if (errors.length > 0) {
      terms.push({ index, exprs, fields, never: `is invalid and matches no node (${errors.join('; ')})` });
      warnings.push(
        `${path}[${index}] is accepted by the API server but never matches a node: ${errors.join('; ')}. ` +
          'Fix the requirement (Gt/Lt take one non-negative integer; In/NotIn values must be valid label values)',
      );
      return;
    }
    terms.push({ index, exprs, fields });
  });
  const matchers = terms.filter((t) => t.never === undefined).map((t) => termMatcher(t.exprs, t.fields));
  const matches = (labels: LabelTable, nodeName: string): boolean => {
    for (let i = 0; i < matchers.length; i++) if (matchers[i](labels, nodeName)) return true;
    return false;
  };
  return { terms, matches };
}

/**
 * Compiles `spec.nodeSelector` (`labels.SelectorFromSet`: Equals requirements sorted by key, not validated).
 * Returns an empty list when there is no constraint.
 */
export function compileNodeSelector(
  nodeSelector: { readonly [key: string]: string } | undefined,
  where: string,
  warnings: string[],
): LabelRequirement[] {
  if (nodeSelector == null || typeof nodeSelector !== 'object') return [];
  const keys = Object.keys(nodeSelector).sort();
  return keys.map((key) => {
    const raw = nodeSelector[key];
    if (typeof raw !== 'string') {
      warnings.push(
        `${where}.nodeSelector.${key} is ${JSON.stringify(raw)} (${typeof raw}), not a string; the API server rejects it. ` +
          `Quote the value: ${key}: "${jsonText(raw)}"`,
      );
    }
    return requirement(key, Op.IN, [jsonText(raw)], 0);
  });
}

/** A selector value as written: bare when it reads unambiguously (a non-empty label value), else quoted (`""`). */
export function showValue(value: string): string {
  return /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(value) ? value : JSON.stringify(value);
}

/** `key Op [values]` as people read it, each value as written (`values: [""]` reads `In [""]`, never `In []`). */
export function describeRequirement(r: LabelRequirement): string {
  if (r.op === Op.EXISTS || r.op === Op.DOES_NOT_EXIST) return `${r.key} ${r.op}`;
  return `${r.key} ${r.op} [${r.values.map(showValue).join(', ')}]`;
}

/** What a node has for a requirement's key, for explanations. */
export function describeNodeLabel(key: string, value: string | undefined): string {
  return value === undefined ? `node has no label ${key}` : `node has ${key}=${JSON.stringify(value)}`;
}
