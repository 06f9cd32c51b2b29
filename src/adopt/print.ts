/**
 * The generated TypeScript: `main.ts` (an App, a chart, one construct per node service) and one module per service,
 * printed from the same expression tree that `evaluate.ts` runs. Strings are printed with `JSON.stringify` (any text,
 * escapes and multi-line scripts included, survives), keys that are not identifiers are quoted, `__proto__` is a
 * computed key. The text is then formatted (`format.ts`).
 */

import { Expr, KeptObject, ServiceModule, AppModel, lit, obj } from './model';
import { CHART_ID } from './evaluate';

/** The package the generated code imports. */
const LIBRARY_PACKAGE = 'cdk8s-node-services';

function key(name: string): string {
  if (name === '__proto__') return '["__proto__"]';
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

function comment(text: string | undefined): string {
  return text === undefined
    ? ''
    : `${text
        .split('\n')
        .map((l) => `// ${l}`)
        .join('\n')}\n`;
}

/** A plain JSON value as an expression (objects become object literals, so keys print safely). */
function jsonExpr(value: unknown): Expr {
  if (Array.isArray(value)) return { type: 'array', items: value.map(jsonExpr) };
  if (typeof value === 'object' && value !== null) return obj(Object.entries(value).map(([k, v]) => ({ key: k, value: jsonExpr(v) })));
  return lit(value);
}

/** TypeScript text of an expression. */
function printExpr(expr: Expr): string {
  switch (expr.type) {
    case 'literal':
      if (expr.value === undefined) return 'undefined';
      return typeof expr.value === 'object' && expr.value !== null ? printExpr(jsonExpr(expr.value)) : JSON.stringify(expr.value);
    case 'constant':
      return expr.name;
    case 'member':
      return `${expr.owner}.${expr.member}`;
    case 'call':
      return `${expr.owner}.${expr.method}(${expr.args.map(printExpr).join(', ')})`;
    case 'array':
      return `[\n${expr.items.map((item, i) => `${comment(expr.comments?.[i])}${printExpr(item)},`).join('\n')}\n]`;
    case 'object':
      if (expr.properties.length === 0) return '{}';
      return `{\n${expr.properties.map((p) => `${comment(p.comment)}${key(p.key)}: ${printExpr(p.value)},`).join('\n')}\n}`;
    case 'ref':
      return expr.variable;
  }
}

function owners(expr: Expr, out: Set<string>): void {
  if (expr.type === 'call' || expr.type === 'member') out.add(expr.owner);
  if (expr.type === 'call') expr.args.forEach((a) => owners(a, out));
  if (expr.type === 'array') expr.items.forEach((a) => owners(a, out));
  if (expr.type === 'object') expr.properties.forEach((p) => owners(p.value, out));
}

function refs(expr: Expr, out: Set<string>): void {
  if (expr.type === 'ref') out.add(expr.variable);
  if (expr.type === 'call') expr.args.forEach((a) => refs(a, out));
  if (expr.type === 'array') expr.items.forEach((a) => refs(a, out));
  if (expr.type === 'object') expr.properties.forEach((p) => refs(p.value, out));
}

function keptStatement(k: KeptObject, scope: string, used: boolean): string {
  const create = `new ApiObject(${scope}, ${JSON.stringify(k.id)}, ${printExpr(jsonExpr(k.body))});`;
  return `${comment(k.comment)}${used ? `const ${k.variable} = ${create}` : create}`;
}

function docComment(lines: readonly string[]): string {
  return `/**\n${lines.map((l) => ` * ${l}`).join('\n')}\n */\n`;
}

/** The TypeScript text (unformatted) of one service module. */
export function printModule(m: ServiceModule): string {
  const libraryNames = new Set<string>([m.construct]);
  owners(m.props, libraryNames);
  const used = new Set<string>();
  refs(m.props, used);
  const cdk8s = [...(m.objects.length > 0 ? ['ApiObject'] : []), ...(m.patches.length > 0 ? ['JsonPatch'] : [])];
  const body = [
    'super(scope, id);',
    ...m.objects.map((k) => keptStatement(k, 'this', used.has(k.variable))),
    `this.service = new ${m.construct}(this, "service", ${printExpr(m.props)});`,
    ...m.patches.map(
      (p) =>
        `${comment(p.comment)}this.service.daemonSet.addJsonPatch(JsonPatch.${p.op}(${JSON.stringify(p.path)}${
          p.op === 'remove' ? '' : `, ${printExpr(jsonExpr(p.value))}`
        }));`,
    ),
  ];
  return [
    ...(cdk8s.length > 0 ? [`import { ${cdk8s.join(', ')} } from "cdk8s";`] : []),
    'import { Construct } from "constructs";',
    `import { ${[...libraryNames].sort().join(', ')} } from ${JSON.stringify(LIBRARY_PACKAGE)};`,
    '',
    ...m.constants.map((c) => `const ${c.name} = ${JSON.stringify(c.value)};`),
    '',
    docComment(m.doc) +
      `export class ${m.className} extends Construct {\n/** The node service. */\npublic readonly service: ${m.construct};\n\n` +
      `public constructor(scope: Construct, id: string) {\n${body.join('\n')}\n}\n}`,
    '',
  ].join('\n');
}

/** The module path of a service module for an import statement (`./fluent-bit`). */
function importPath(m: ServiceModule): string {
  return `./${m.fileName.replace(/\.ts$/, '')}`;
}

/** The Kubernetes version `main.ts` declares, with the comment that says what requires it. */
export interface TargetDeclaration {
  /** The member of `KubernetesVersion` (`V1_30`). */
  readonly member: string;
  /** Why this version (the field that requires it, with the input file and path). */
  readonly comment: string;
}

/** The TypeScript text (unformatted) of `main.ts`; with `target`, the App declares it before any construct is made. */
export function printMain(model: AppModel, target?: TargetDeclaration): string {
  const cdk8s = ['App', 'Chart', ...(model.others.length > 0 ? ['ApiObject'] : [])].sort();
  const declare =
    target !== undefined
      ? [`${comment(target.comment)}NodeServiceChecks.of(app, { kubernetesVersion: KubernetesVersion.${target.member} });`]
      : [];
  return [
    `import { ${cdk8s.join(', ')} } from "cdk8s";`,
    ...(target !== undefined ? [`import { KubernetesVersion, NodeServiceChecks } from ${JSON.stringify(LIBRARY_PACKAGE)};`] : []),
    ...model.services.map((m) => `import { ${m.className} } from ${JSON.stringify(importPath(m))};`),
    '',
    'const app = new App();',
    ...declare,
    `const chart = new Chart(app, ${JSON.stringify(CHART_ID)});`,
    ...model.services.map((m) => `new ${m.className}(chart, ${JSON.stringify(m.id)});`),
    ...model.others.map((k) => keptStatement(k, 'chart', false)),
    'app.synth();',
    '',
  ].join('\n');
}
