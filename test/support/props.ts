/** The declared props of the constructs, read from the TypeScript declarations (inherited option groups included). */

import * as path from 'path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');

let program: ts.Program | undefined;

/** The program over the library's public API (created once per test file). */
export function apiProgram(): ts.Program {
  program ??= ts.createProgram([path.join(ROOT, 'src/index.ts')], {
    strict: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  });
  return program;
}

/** The exported interfaces of `src/<dirs>` whose name matches `name`. */
export function interfacesIn(dirs: string[], name: RegExp): ts.InterfaceDeclaration[] {
  const out: ts.InterfaceDeclaration[] = [];
  const where = new RegExp(`src[\\\\/](${dirs.join('|')})[\\\\/]`);
  for (const sf of apiProgram().getSourceFiles()) {
    if (!where.test(sf.fileName)) continue;
    sf.forEachChild((n) => {
      if (ts.isInterfaceDeclaration(n) && name.test(n.name.text)) out.push(n);
    });
  }
  return out;
}

/** The property names of the interface `name` (in src/core, src/presets, src/guardrails or src/observability), inherited ones included. */
export function propertiesOf(name: string): string[] {
  const decl = interfacesIn(['core', 'presets', 'guardrails', 'observability'], new RegExp(`^${name}$`))[0];
  if (!decl) throw new Error(`no interface ${name}`);
  return apiProgram()
    .getTypeChecker()
    .getTypeAtLocation(decl)
    .getProperties()
    .map((p) => p.getName());
}
