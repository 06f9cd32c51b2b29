/**
 * `spec.nodeSelector` and required node affinity, compiled once per workload and matched against nodes
 * (component-helpers `nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)`, apimachinery `labels.NewRequirement`
 * and `Requirement.Matches`), plus the DaemonSet's own `spec.selector` (metav1 `LabelSelector`).
 *
 * Node labels are looked up by an interned key id (an array index), so matching a node does no hashing and
 * allocates nothing.
 */

import { labelValueError, qualifiedNameError } from '../k8s/names';

const keyIds = new Map<string, number>();

/** The id of a label key; ids are shared by every compiled workload and node of the process. */
export function labelKeyId(key: string): number {
  let id = keyIds.get(key);
  if (id === undefined) {
    id = keyIds.size;
    keyIds.set(key, id);
  }
  return id;
}

/** A node's labels as an array indexed by label key id (`undefined` = no such label). */
export type LabelTable = Array<string | undefined>;

/** Builds the label table of a `metadata.labels` map. */
export function labelTable(labels: Record<string, unknown> | undefined): LabelTable {
  const table: LabelTable = [];
  if (!labels || typeof labels !== 'object') return table;
  for (const key of Object.keys(labels)) {
    const value = labels[key];
    table[labelKeyId(key)] = typeof value === 'string' ? value : String(value);
  }
  // Fill holes so that the array stays in a packed representation.
  for (let i = 0; i < table.length; i++) if (!(i in table)) table[i] = undefined;
  return table;
}

/** Label requirement operators. */
export const enum Op {
  IN,
  NOT_IN,
  EXISTS,
  DOES_NOT_EXIST,
  GT,
  LT,
}

/** One parsed label requirement (`labels.Requirement`). */
export interface LabelRequirement {
  readonly key: string;
  readonly keyId: number;
  readonly op: Op;
  readonly values: readonly string[];
  /** The threshold of `Gt` / `Lt`. */
  readonly threshold: number | bigint;
  /** Index in `matchExpressions` (or the position in the sorted nodeSelector). */
  readonly index: number;
}

/** One parsed `matchFields` requirement (`fields.OneTermEqualSelector` / `OneTermNotEqualSelector`). */
export interface FieldRequirement {
  readonly key: string;
  readonly notIn: boolean;
  readonly value: string;
  readonly index: number;
}

/** One node selector term as the scheduler parses it. */
export interface CompiledTerm {
  /** Index in `nodeSelectorTerms`. */
  readonly index: number;
  readonly exprs: readonly LabelRequirement[];
  readonly fields: readonly FieldRequirement[];
  /** Why the term never matches: it failed to parse, or it is empty. */
  readonly never?: string;
}

/** Required node affinity: `undefined` means no constraint. */
export interface CompiledAffinity {
  readonly terms: readonly CompiledTerm[];
  /** Set when the whole selector matches nothing (no terms, or every term empty or invalid). */
  readonly matchesNothing: boolean;
}

const INT64 = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** `strconv.ParseInt(s, 10, 64)`: the value, or `undefined` when `s` is not a base-10 int64. */
export function parseInt64(s: string): number | bigint | undefined {
  if (!INT64.test(s)) return undefined;
  const n = Number(s);
  if (Number.isSafeInteger(n)) return n;
  const big = BigInt(s);
  if (big < INT64_MIN || big > INT64_MAX) return undefined;
  return big;
}

/** Whether `labels` (a label table) satisfies `r` (`Requirement.Matches`). */
export function requirementMatches(r: LabelRequirement, labels: LabelTable): boolean {
  const v = labels[r.keyId];
  switch (r.op) {
    case Op.IN:
      if (v === undefined) return false;
      for (let i = 0; i < r.values.length; i++) if (r.values[i] === v) return true;
      return false;
    case Op.NOT_IN:
      if (v === undefined) return true;
      for (let i = 0; i < r.values.length; i++) if (r.values[i] === v) return false;
      return true;
    case Op.EXISTS:
      return v !== undefined;
    case Op.DOES_NOT_EXIST:
      return v === undefined;
    case Op.GT:
    case Op.LT: {
      if (v === undefined) return false;
      const n = parseInt64(v);
      if (n === undefined) return false;
      return r.op === Op.GT ? n > r.threshold : n < r.threshold;
    }
  }
}

/** Whether a node named `nodeName` satisfies `f` (only `metadata.name` is a node field; others read as ""). */
export function fieldMatches(f: FieldRequirement, nodeName: string): boolean {
  const actual = f.key === 'metadata.name' ? nodeName : '';
  return f.notIn ? actual !== f.value : actual === f.value;
}

/** Whether a node matches one term: all expressions AND all fields (fields are skipped for a nameless node). */
export function termMatches(t: CompiledTerm, labels: LabelTable, nodeName: string): boolean {
  if (t.never !== undefined) return false;
  for (let i = 0; i < t.exprs.length; i++) if (!requirementMatches(t.exprs[i], labels)) return false;
  if (nodeName.length > 0) {
    for (let i = 0; i < t.fields.length; i++) if (!fieldMatches(t.fields[i], nodeName)) return false;
  }
  return true;
}

/** Whether a node satisfies the required node affinity (terms are ORed). */
export function affinityMatches(a: CompiledAffinity, labels: LabelTable, nodeName: string): boolean {
  if (a.matchesNothing) return false;
  for (let i = 0; i < a.terms.length; i++) if (termMatches(a.terms[i], labels, nodeName)) return true;
  return false;
}

const OPERATORS: Record<string, Op> = {
  In: Op.IN,
  NotIn: Op.NOT_IN,
  Exists: Op.EXISTS,
  DoesNotExist: Op.DOES_NOT_EXIST,
  Gt: Op.GT,
  Lt: Op.LT,
};

/**
 * Parses one `matchExpressions` entry like `labels.NewRequirement`: returns the requirement or the reasons it
 * does not parse (any reason makes its term never match).
 */
export function parseRequirement(expr: any, index: number): LabelRequirement | string[] {
  const errors: string[] = [];
  const where = `matchExpressions[${index}]`;
  const key = typeof expr?.key === 'string' ? expr.key : '';
  const operator = expr?.operator;
  const rawValues: unknown[] = Array.isArray(expr?.values) ? expr.values : [];
  const values = rawValues.map((v) => (typeof v === 'string' ? v : String(v)));
  const op = typeof operator === 'string' && Object.prototype.hasOwnProperty.call(OPERATORS, operator) ? OPERATORS[operator] : undefined;
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
  return { key, keyId: labelKeyId(key), op, values, threshold, index };
}

function parseField(expr: any, index: number): FieldRequirement | string {
  const where = `matchFields[${index}]`;
  const key = typeof expr?.key === 'string' ? expr.key : '';
  const values: unknown[] = Array.isArray(expr?.values) ? expr.values : [];
  const operator = expr?.operator;
  if (operator !== 'In' && operator !== 'NotIn') {
    return `${where}: operator ${JSON.stringify(operator ?? '')} is not supported for fields (only In, NotIn)`;
  }
  if (values.length !== 1) return `${where}: ${operator} on a field needs exactly one value (has ${values.length})`;
  const value = typeof values[0] === 'string' ? values[0] : String(values[0]);
  return { key, notIn: operator === 'NotIn', value, index };
}

/**
 * Compiles `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution` (`NewLazyErrorNodeSelector`):
 * empty terms are skipped, a term that fails to parse never matches, the other terms are still used.
 * Returns `undefined` when there is no required node affinity. `where` is the pod spec's path; `warnings` receives what the API server accepts
 * but silently covers nothing.
 */
export function compileAffinity(affinity: any, where: string, warnings: string[]): CompiledAffinity | undefined {
  const required = affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (affinity == null || affinity.nodeAffinity == null || required == null) return undefined;
  const rawTerms: any[] = Array.isArray(required.nodeSelectorTerms) ? required.nodeSelectorTerms : [];
  const terms: CompiledTerm[] = [];
  const path = `${where}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
  if (rawTerms.length === 0) {
    warnings.push(`${path} is empty, so the DaemonSet matches no node; add a term or remove the required node affinity`);
  }
  rawTerms.forEach((term, index) => {
    const rawExprs: any[] = Array.isArray(term?.matchExpressions) ? term.matchExpressions : [];
    const rawFields: any[] = Array.isArray(term?.matchFields) ? term.matchFields : [];
    if (rawExprs.length === 0 && rawFields.length === 0) {
      terms.push({ index, exprs: [], fields: [], never: 'is empty and matches no node' });
      warnings.push(`${path}[${index}] has neither matchExpressions nor matchFields, so it matches no node; remove it or add a requirement`);
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
  return { terms, matchesNothing: terms.every((t) => t.never !== undefined) };
}

/**
 * Compiles `spec.nodeSelector` (`labels.SelectorFromSet`: Equals requirements sorted by key, not validated).
 * Returns an empty list when there is no constraint.
 */
export function compileNodeSelector(nodeSelector: any, where: string, warnings: string[]): LabelRequirement[] {
  if (nodeSelector == null || typeof nodeSelector !== 'object') return [];
  const keys = Object.keys(nodeSelector).sort();
  return keys.map((key, index) => {
    const raw = nodeSelector[key];
    if (typeof raw !== 'string') {
      warnings.push(
        `${where}.nodeSelector.${key} is ${JSON.stringify(raw)} (${typeof raw}), not a string; the API server rejects it. ` +
          `Quote the value: ${key}: "${String(raw)}"`,
      );
    }
    return { key, keyId: labelKeyId(key), op: Op.IN, values: [String(raw)], threshold: 0, index };
  });
}

/**
 * Compiles a DaemonSet's `spec.selector` (metav1 `LabelSelector`) into a predicate over a pod's labels.
 * An absent, empty or invalid selector selects no pod.
 */
export function compileLabelSelector(selector: any): (labels: Record<string, string> | undefined) => boolean {
  const matchLabels = selector?.matchLabels && typeof selector.matchLabels === 'object' ? selector.matchLabels : {};
  const exprs: any[] = Array.isArray(selector?.matchExpressions) ? selector.matchExpressions : [];
  const requirements: LabelRequirement[] = [];
  for (const key of Object.keys(matchLabels)) {
    const value = String(matchLabels[key]);
    if (qualifiedNameError(key) || labelValueError(value)) return () => false;
    requirements.push({ key, keyId: labelKeyId(key), op: Op.IN, values: [value], threshold: 0, index: requirements.length });
  }
  for (let i = 0; i < exprs.length; i++) {
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(exprs[i]?.operator)) return () => false;
    const r = parseRequirement(exprs[i], i);
    if (Array.isArray(r)) return () => false;
    requirements.push(r);
  }
  if (requirements.length === 0) return () => false;
  return (labels) => {
    const table = labelTable(labels);
    return requirements.every((r) => requirementMatches(r, table));
  };
}

/** `key Op [values]` as people read it. */
export function describeRequirement(r: LabelRequirement): string {
  const op = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'][r.op];
  if (r.op === Op.EXISTS || r.op === Op.DOES_NOT_EXIST) return `${r.key} ${op}`;
  return `${r.key} ${op} [${r.values.join(', ')}]`;
}

/** What a node has for a requirement's key, for explanations. */
export function describeNodeLabel(key: string, value: string | undefined): string {
  return value === undefined ? `node has no label ${key}` : `node has ${key}=${JSON.stringify(value)}`;
}
