/**
 * The pure modules (Kubernetes grammar, manifest reading, rules, coverage) depend on nothing of the constructs, the
 * presets, the CLI or cdk8s, so the CLI and the rules load fast and the same functions serve every caller.
 */

import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const SRC = path.join(__dirname, '..', '..', 'src');
const PURE = ['k8s', 'manifests', 'policy', 'coverage', 'admission'];
/** The synth integration of the rules and the cdk8s validation plugin are the bridge to cdk8s. */
const BRIDGES = ['policy/synth.ts', 'policy/plugin.ts'];
const FORBIDDEN = /^(cdk8s|cdk8s-plus-\d+|constructs)$|^\.\.?\/.*\b(core|presets|cli)(\/|$)/;

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The module specifiers a file imports (static imports, re-exports and require calls). */
function importsOf(file: string): string[] {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      out.push(n.moduleSpecifier.text);
    }
    if (ts.isCallExpression(n) && n.expression.getText(sf) === 'require' && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) {
      out.push(n.arguments[0].text);
    }
    n.forEachChild(visit);
  };
  visit(sf);
  return out;
}

describe('layering', () => {
  test.each(PURE)('GIVEN src/%s THEN it imports nothing from core/, presets/, cli/ or cdk8s', (dir) => {
    const offending = filesUnder(path.join(SRC, dir))
      .filter((f) => !BRIDGES.includes(path.relative(SRC, f).split(path.sep).join('/')))
      .flatMap((f) =>
        importsOf(f)
          .filter((spec) => FORBIDDEN.test(spec))
          .map((spec) => `${path.relative(SRC, f)} imports ${spec}`),
      );
    expect(offending).toEqual([]);
  });

  test('GIVEN the forbidden pattern THEN it catches what it must and lets relative siblings through', () => {
    expect(['../core/errors', 'cdk8s', 'cdk8s-plus-28', 'constructs', '../cli/io', '../../presets'].every((s) => FORBIDDEN.test(s))).toBe(
      true,
    );
    expect(['./names', '../k8s', '../coverage/selector', 'yaml'].some((s) => FORBIDDEN.test(s))).toBe(false);
  });
});
