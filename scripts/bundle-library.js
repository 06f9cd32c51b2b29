#!/usr/bin/env node
// Bundles the compiled library (jsii's lib/**/*.js, run types included) into one file, lib/index.js, so that
// `require('cdk8s-node-services')` reads and compiles one file instead of some 165 modules: resolving, reading and
// wrapping each module costs more than its code. The modules keep their CommonJS semantics (esbuild wraps each one
// and runs it at the same `require` as before, the lazy ones on first use). The declaration files stay as jsii wrote
// them; every other compiled module (lib/cli/ aside, the CLI's own bundle) is removed, so that the package holds
// each module once and no module that requires a removed sibling.
//
// cdk8s-plus-28 is used at run time only for its generated Kubernetes API (`k8s.KubeDaemonSet`, `k8s.IntOrString`…):
// the bundle requires that module alone (`cdk8s-plus-28/lib/imports/k8s`, the very module the package index exports
// as `k8s`, so the classes are the ones a user's `import { k8s } from 'cdk8s-plus-28'` sees) and not the L2
// constructs. Should a compiled module use anything else of cdk8s-plus-28, the build fails and says where.
// cdk8s, constructs and js-yaml stay external (peer and runtime dependencies).
//
// The bundle is lib/library.js; lib/index.js (the package's main) loads it with a V8 code cache kept beside it
// (lib/library.js.cache, written by the first process that loaded the library, when it exits, so that it holds every
// function that process compiled: see scripts/code-cache.js, copied to lib/code-cache.js).
'use strict';
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');

const root = path.join(__dirname, '..');
const PLUS = 'cdk8s-plus-28';
const PLUS_K8S = 'cdk8s-plus-28/lib/imports/k8s';

/**
 * Where `text` (a compiled module requiring cdk8s-plus-28) uses the package for anything but its `k8s` member, as
 * `file: use` lines; a `require` that is not bound to a name (`const x = require(…)`) counts as such a use.
 */
function nonK8sUses(file, text) {
  const code = text.replace(/require\("cdk8s-plus-28"\)/g, 'require()');
  const declaration = /\b(?:const|var|let)\s+([A-Za-z_$][\w$]*)\s*=\s*require\(\);/g;
  const bound = [...code.matchAll(declaration)].map((m) => m[1]);
  if (bound.length !== text.split('require("cdk8s-plus-28")').length - 1) return [`${file}: require("${PLUS}") not bound to a name`];
  const rest = code.replace(declaration, '');
  const out = [];
  for (const name of bound) {
    const use = new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])(\\s*\\.\\s*[A-Za-z_$][\\w$]*)?`, 'g');
    for (const m of rest.matchAll(use)) if (m[1] === undefined || m[1].replace(/\s/g, '') !== '.k8s') out.push(`${file}: ${m[0]}`);
  }
  return out;
}

/**
 * Resolves `cdk8s-plus-28` to a module that exports the generated API alone (see the file comment), and records in
 * `problems` each use of the package beyond it.
 */
function plusK8sOnly(problems) {
  return {
    name: 'cdk8s-plus-28-k8s-only',
    setup(build) {
      build.onResolve({ filter: /^cdk8s-plus-28$/ }, (args) => {
        problems.push(...nonK8sUses(path.relative(process.cwd(), args.importer), fs.readFileSync(args.importer, 'utf8')));
        return { path: PLUS, namespace: 'plus-k8s' };
      });
      build.onLoad({ filter: /.*/, namespace: 'plus-k8s' }, () => ({
        contents: `exports.k8s = require(${JSON.stringify(PLUS_K8S)});`,
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}

/**
 * lib/index.js: loads the bundle (lib/library.js) with its code cache, and saves the cache when the process exits.
 * `names` are the bundle's exports: Node.js finds the named exports of a CommonJS module that an ES module imports
 * (`import { LogAgent } from 'cdk8s-node-services'`) by reading its text, and the loaded exports are not in it; the
 * line that is never run (`0 && …`, as esbuild writes for the same reader) names them.
 */
function indexText(names) {
  for (const n of names) if (!/^[A-Za-z_$][\w$]*$/.test(n)) throw new Error(`the library exports a name that is not an identifier: ${n}`);
  return `'use strict';
// cdk8s-node-services: the library is one bundle, library.js, loaded with a V8 code cache kept beside it
// (library.js.cache; see code-cache.js). The cache is written when the first process that loaded the library exits,
// and again by the first that ran the library's checks (a synthesis) if the one before had only loaded it.
const bundle = require('path').join(__dirname, 'library.js');
// A run is complete once the library's checks ran (a synthesis). Where library.js cannot be read beside this file
// (a bundler inlined this one), it is required as written here.
const { save } = require('./code-cache.js').load(bundle, {
  label: 'cdk8s-node-services code cache',
  module,
  require,
  complete: () => globalThis[Symbol.for('cdk8s-node-services.checks-ran')] === true,
  requirePlain: () => require('./library.js'),
});
process.once('exit', save);
// The named exports, for ES modules that import this one (never run):
0 && (module.exports = {
${names.map((n) => `  ${n},`).join('\n')}
});
`;
}

/** The export names of the bundle at `file`, read in a process of its own (the build's own module cache stays clean). */
function exportNames(file) {
  const { execFileSync } = require('child_process');
  const out = execFileSync(
    process.execPath,
    ['-e', `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(file)}))))`],
    {
      encoding: 'utf8',
    },
  );
  return JSON.parse(out);
}

/** Bundles `lib` (a folder of compiled modules with its index.js) in place; see the file comment. */
async function bundleLibrary(lib) {
  const entry = path.join(lib, 'index.js');
  const bundle = path.join(lib, 'library.js');
  const problems = [];
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // No `keepNames`: its `__name(fn, "name")` calls run each time a closure is made (some 4 % of a synthesis).
    // Names stay as written without it (the bundle renames no function), but for the classes that refer to
    // themselves, which esbuild writes as `var X = class _X`: restoreClassNames gives them back their own names.
    keepNames: false,
    external: ['cdk8s', 'constructs', 'js-yaml', PLUS_K8S],
    plugins: [plusK8sOnly(problems)],
    logLevel: 'warning',
    metafile: true,
    write: false,
    outfile: bundle,
  });
  if (problems.length > 0) {
    throw new Error(
      `the library uses cdk8s-plus-28 beyond its generated API (k8s); use k8s only, or bundle the whole package:\n  ${problems.join('\n  ')}`,
    );
  }
  for (const file of compiledModules(lib, lib)) fs.rmSync(file);
  fs.writeFileSync(bundle, restoreClassNames(result.outputFiles[0].text));
  fs.copyFileSync(path.join(__dirname, 'code-cache.js'), path.join(lib, 'code-cache.js'));
  fs.writeFileSync(entry, indexText(exportNames(bundle)));
}

/**
 * `code` with each class esbuild wrote as `var X = class _X { … }` (a class that refers to itself) named `X` again,
 * its references to `_X` inside the class with it, so that `X.name` is `'X'` as in the compiled modules (messages and
 * error names print class names). Inside the class the name `X` is the class's own binding, the very class `_X` was.
 */
function restoreClassNames(code) {
  const ts = require('typescript');
  const file = ts.createSourceFile('library.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = [];
  const renameIn = (node, from, to) => {
    if (ts.isIdentifier(node) && node.text === from) {
      const p = node.parent;
      const isMemberName =
        (ts.isPropertyAccessExpression(p) && p.name === node) ||
        ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p)) && p.name === node);
      if (ts.isShorthandPropertyAssignment(p)) throw new Error(`restoreClassNames: ${from} is used in a shorthand property`);
      if (!isMemberName) edits.push({ start: node.getStart(file), end: node.end, text: to });
    }
    ts.forEachChild(node, (c) => renameIn(c, from, to));
  };
  const visit = (node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer !== undefined &&
      ts.isClassExpression(node.initializer) &&
      node.initializer.name !== undefined &&
      node.initializer.name.text === `_${node.name.text}`
    ) {
      renameIn(node.initializer, node.initializer.name.text, node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  edits.sort((a, b) => b.start - a.start);
  let out = code;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The compiled modules under `dir` but the entry (`lib`/index.js) and the CLI (`lib`/cli/). */
function compiledModules(dir, lib) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return full === path.join(lib, 'cli') ? [] : compiledModules(full, lib);
    return e.name.endsWith('.js') && full !== path.join(lib, 'index.js') ? [full] : [];
  });
}

module.exports = { bundleLibrary, nonK8sUses, restoreClassNames };

if (require.main === module) {
  bundleLibrary(path.join(root, 'lib')).catch((e) => {
    process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
    process.exitCode = 1;
  });
}
