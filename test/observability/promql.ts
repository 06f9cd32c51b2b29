/**
 * PromQL inspection with the Prometheus project's own grammar (@prometheus-io/lezer-promql).
 */

import { parser } from '@prometheus-io/lezer-promql';

/** Syntax errors (error nodes) in `expr`, as `offset: text` strings; empty when it parses. */
export function promqlErrors(expr: string): string[] {
  const errors: string[] = [];
  parser.parse(expr).iterate({
    enter(node) {
      if (node.type.isError) errors.push(`${node.from}: ${JSON.stringify(expr.slice(Math.max(0, node.from - 10), node.to + 10))}`);
    },
  });
  return errors;
}

/** One vector selector: its metric name and label matchers (`{ label: [op, value] }`). */
export interface VectorSelectorInfo {
  readonly metric: string;
  readonly matchers: Record<string, [string, string]>;
}

/** Every vector selector in `expr` (including those inside range selectors and function calls). */
export function vectorSelectors(expr: string): VectorSelectorInfo[] {
  const out: VectorSelectorInfo[] = [];
  const tree = parser.parse(expr);
  tree.iterate({
    enter(node) {
      if (node.type.name !== 'VectorSelector') return;
      let metric = '';
      const matchers: Record<string, [string, string]> = {};
      const cursor = node.node.cursor();
      cursor.firstChild();
      do {
        if (cursor.type.name === 'Identifier') metric = expr.slice(cursor.from, cursor.to);
        if (cursor.type.name === 'LabelMatchers') {
          const m = cursor.node.cursor();
          if (m.firstChild()) {
            do {
              if (m.type.name !== 'UnquotedLabelMatcher') continue;
              const name = m.node.getChild('LabelName');
              const op = m.node.getChild('MatchOp');
              const value = m.node.getChild('StringLiteral');
              if (name && op && value) {
                matchers[expr.slice(name.from, name.to)] = [expr.slice(op.from, op.to), JSON.parse(expr.slice(value.from, value.to))];
              }
            } while (m.nextSibling());
          }
        }
      } while (cursor.nextSibling());
      out.push({ metric, matchers });
    },
  });
  return out;
}

/** The range durations used in `expr` (e.g. `5m` in `changes(x[5m])`). */
export function rangeDurations(expr: string): string[] {
  const out: string[] = [];
  parser.parse(expr).iterate({
    enter(node) {
      if (node.type.name === 'MatrixSelector') {
        const d = node.node.getChild('DurationExpr') ?? node.node.getChild('NumberDurationLiteralInDurationContext');
        if (d) out.push(expr.slice(d.from, d.to));
      }
    },
  });
  return out;
}
