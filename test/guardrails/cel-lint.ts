/**
 * Static checks of CEL expressions against what the Kubernetes 1.28 CEL environment offers.
 *
 * Sources (kubernetes.io "Common Expression Language in Kubernetes", availability table): standard functions and
 * macros in all versions; the extended strings library version 1 in 1.25–1.30 (charAt, indexOf, lastIndexOf,
 * lowerAscii, upperAscii, replace, split, join, substring, trim); the Kubernetes list, regex and URL libraries in all
 * versions. Not in 1.28: optional types (`obj.?f`, `m[?k]`, `optional.*`, `.orValue()`, `.hasValue()`), the quantity
 * library (1.29), IP/CIDR (1.31), format/quote/reverse (strings v2+/v3), sets, `cel.bind`.
 */

import { parse } from '@bufbuild/cel';

/** Function names (as they appear in the parsed AST, operators included) available to 1.28 admission policies. */
export const K8S_128_FUNCTIONS: ReadonlySet<string> = new Set([
  // Operators and standard functions.
  '!_',
  '-_',
  '_!=_',
  '_%_',
  '_&&_',
  '_*_',
  '_+_',
  '_-_',
  '_/_',
  '_<=_',
  '_<_',
  '_==_',
  '_>=_',
  '_>_',
  '_?_:_',
  '_[_]',
  '_||_',
  '@in',
  '@not_strictly_false',
  'bool',
  'bytes',
  'contains',
  'double',
  'duration',
  'dyn',
  'endsWith',
  'int',
  'matches',
  'size',
  'startsWith',
  'string',
  'timestamp',
  'type',
  'uint',
  // Extended strings library, version 1.
  'charAt',
  'indexOf',
  'lastIndexOf',
  'lowerAscii',
  'upperAscii',
  'replace',
  'split',
  'join',
  'substring',
  'trim',
  // Kubernetes list, regex and URL libraries.
  'isSorted',
  'sum',
  'min',
  'max',
  'find',
  'findAll',
  'url',
  'isURL',
  'getScheme',
  'getHost',
  'getHostname',
  'getPort',
  'getEscapedPath',
  'getQuery',
]);

/** Syntax that only parses with optional types enabled (1.29+). */
const OPTIONAL_SYNTAX = /\.\?|\[\?|\borValue\s*\(|\bhasValue\s*\(|\boptional\./;

type Node = any;

function walk(expr: Node, out: Set<string>): void {
  const kind = expr?.exprKind;
  if (!kind) return;
  switch (kind.case) {
    case 'callExpr':
      out.add(kind.value.function);
      if (kind.value.target) walk(kind.value.target, out);
      for (const a of kind.value.args) walk(a, out);
      break;
    case 'selectExpr':
      walk(kind.value.operand, out);
      break;
    case 'listExpr':
      for (const e of kind.value.elements) walk(e, out);
      break;
    case 'structExpr':
      for (const entry of kind.value.entries) {
        if (entry.keyKind?.case === 'mapKey') walk(entry.keyKind.value, out);
        walk(entry.value, out);
      }
      break;
    case 'comprehensionExpr':
      for (const f of ['iterRange', 'accuInit', 'loopCondition', 'loopStep', 'result']) walk(kind.value[f], out);
      break;
    default:
      break;
  }
}

/** The functions an expression calls (throws when it does not parse). */
export function celFunctions(expression: string): Set<string> {
  const out = new Set<string>();
  walk(parse(expression).expr, out);
  return out;
}

/** Problems that would make a 1.28 API server reject (or mis-evaluate) the expression; empty when none. */
export function celProblems(expression: string): string[] {
  const problems: string[] = [];
  if (OPTIONAL_SYNTAX.test(expression)) problems.push('uses optional syntax (1.29+)');
  let functions: Set<string>;
  try {
    functions = celFunctions(expression);
  } catch (e) {
    return [...problems, `does not parse: ${(e as Error).message}`];
  }
  for (const f of functions) if (!K8S_128_FUNCTIONS.has(f)) problems.push(`calls ${f}, not available in Kubernetes 1.28`);
  return problems;
}

/** Every CEL expression of a ValidatingAdmissionPolicy manifest, with where it is. */
export function policyExpressions(policy: Node): { where: string; expression: string; kind: 'bool' | 'string' | 'any' }[] {
  const spec = policy.spec ?? {};
  const name = policy.metadata?.name;
  return [
    ...(spec.matchConditions ?? []).map((c: Node) => ({
      where: `${name} matchConditions[${c.name}]`,
      expression: c.expression,
      kind: 'bool' as const,
    })),
    ...(spec.variables ?? []).map((v: Node) => ({ where: `${name} variables[${v.name}]`, expression: v.expression, kind: 'any' as const })),
    ...(spec.validations ?? []).flatMap((v: Node, i: number) => [
      { where: `${name} validations[${i}].expression`, expression: v.expression, kind: 'bool' as const },
      ...(v.messageExpression
        ? [{ where: `${name} validations[${i}].messageExpression`, expression: v.messageExpression, kind: 'string' as const }]
        : []),
    ]),
  ];
}

function depth(expr: Node): number {
  const kind = expr?.exprKind;
  if (!kind) return 0;
  switch (kind.case) {
    case 'callExpr':
      return Math.max(0, ...[kind.value.target, ...kind.value.args].filter(Boolean).map(depth));
    case 'selectExpr':
      return depth(kind.value.operand);
    case 'listExpr':
      return Math.max(0, ...kind.value.elements.map(depth));
    case 'structExpr':
      return Math.max(0, ...kind.value.entries.map((e: Node) => depth(e.value)));
    case 'comprehensionExpr': {
      const v = kind.value;
      // A comprehension over a list literal (e.g. `['a', 'b'].exists(...)`) costs a constant per element.
      const overLiteral = v.iterRange?.exprKind?.case === 'listExpr';
      return Math.max(depth(v.iterRange), (overLiteral ? 0 : 1) + Math.max(depth(v.loopStep), depth(v.loopCondition), depth(v.result)));
    }
    default:
      return 0;
  }
}

/**
 * How deeply comprehensions over input data nest in `expression` (macros over list literals do not count): the
 * exponent of its runtime cost in the size of the object (containers × ports is 2). The API server aborts an
 * evaluation past its runtime cost budget, so keeping this small keeps every real object far below it.
 */
export function comprehensionDepth(expression: string): number {
  return depth(parse(expression).expr);
}
