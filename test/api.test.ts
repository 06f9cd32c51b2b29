import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..');
const SRC = path.join(ROOT, 'src');

function walk(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!['node_modules', 'lib', 'dist', 'scratch', '.readme', '__snapshots__'].includes(e.name)) walk(full, out);
    } else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const sources = walk(SRC);
const program = ts.createProgram([path.join(SRC, 'index.ts'), ...sources], {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  skipLibCheck: true,
});
const checker = program.getTypeChecker();

function exportsOf(file: string): ts.Symbol[] {
  const sf = program.getSourceFile(file);
  const symbol = sf && checker.getSymbolAtLocation(sf);
  return symbol ? checker.getExportsOfModule(symbol) : [];
}

const publicApi = exportsOf(path.join(SRC, 'index.ts'));
const publicNames = new Set(publicApi.map((s) => s.getName()));

describe('public API', () => {
  test('GIVEN src/index.ts THEN every exported symbol has TSDoc', () => {
    const undocumented = publicApi
      .map((s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s))
      .filter((s) => {
        const decl = s.getDeclarations()?.[0];
        if (!decl || decl.getSourceFile().fileName.includes('node_modules')) return false;
        return ts.getJSDocCommentsAndTags(decl).length === 0 && s.getDocumentationComment(checker).length === 0;
      })
      .map((s) => `${s.getName()} (${path.relative(ROOT, s.getDeclarations()![0].getSourceFile().fileName)})`);
    expect(undocumented).toEqual([]);
  });

  test('GIVEN src/index.ts THEN it names every export (no `export *`), so nothing reaches the public API unseen', () => {
    const index = program.getSourceFile(path.join(SRC, 'index.ts'))!;
    const star = index.statements.filter((st) => ts.isExportDeclaration(st) && st.exportClause === undefined).map((st) => st.getText());
    expect(star).toEqual([]);
  });

  test('GIVEN the runtime module WHEN required THEN it holds exactly the public values, none of them @internal', () => {
    // GIVEN the values the declarations export, and those marked @internal (which the jsii build strips from them)
    const target = (s: ts.Symbol): ts.Symbol => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
    const internal = (s: ts.Symbol): boolean => ts.getJSDocTags(target(s).getDeclarations()![0]).some((t) => t.tagName.text === 'internal');
    const values = publicApi.filter((s) => target(s).flags & ts.SymbolFlags.Value && !(target(s).flags & ts.SymbolFlags.ConstEnum));
    // WHEN the module is required as users require it
    const runtime = Object.keys(require('../src')).sort();
    // THEN it holds those values and no other, and none is internal
    expect(runtime).toEqual(values.map((s) => s.getName()).sort());
    expect(publicApi.filter(internal).map((s) => s.getName())).toEqual([]);
  });

  // Values only: an interface or type that an exported signature uses must stay exported for the declarations.
  test('GIVEN every module under src THEN each exported value is public or used by another file (no dead exports)', () => {
    const corpus = new Map<string, string>();
    for (const dir of ['src', 'test', 'examples', 'bench', 'scripts']) {
      if (!fs.existsSync(path.join(ROOT, dir))) continue;
      for (const f of walk(path.join(ROOT, dir))) corpus.set(f, fs.readFileSync(f, 'utf8'));
    }
    const unused: string[] = [];
    for (const file of sources) {
      if (file.endsWith('index.ts')) continue;
      for (const s of exportsOf(file)) {
        const name = s.getName();
        const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
        if (publicNames.has(name) || name === 'default' || !(target.flags & ts.SymbolFlags.Value)) continue;
        const word = new RegExp(`\\b${name.replace(/[$]/g, '\\$')}\\b`);
        const used = [...corpus].some(([other, text]) => other !== file && word.test(text));
        if (!used) unused.push(`${path.relative(ROOT, file)}: ${name}`);
      }
    }
    expect(unused).toEqual([]);
  });
});
