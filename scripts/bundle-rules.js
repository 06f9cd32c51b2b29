#!/usr/bin/env node
// Replaces the compiled rule catalogue, lib/policy/rules/index.js, by one file holding it and every rule module of its
// folder. The catalogue loads on first use (the first synthesis, or the first check): one file instead of one per
// rule saves resolving, reading and wrapping ~80 modules in the process that pays for that first synthesis. Modules
// outside the folder (helpers, the kind table, k8s/) and packages stay `require`s of the modules lib/ already has, so
// that every caller shares one instance of them; the rule files stay in lib/ beside it for their typings and for
// modules that import one rule directly. Run by `npm run build` after the compilation (`--dir <folder>` bundles the
// index.js of another folder, for tests).
'use strict';
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');

const dirArg = process.argv.indexOf('--dir');
const dir = path.resolve(dirArg >= 0 ? process.argv[dirArg + 1] : path.join(__dirname, '..', 'lib', 'policy', 'rules'));
const entry = path.join(dir, 'index.js');

/** Keeps every module outside the rules' folder a `require` of the compiled file, by its path from the bundle. */
const outsideStaysRequired = {
  name: 'outside-stays-required',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = path.resolve(args.resolveDir, args.path);
      if (path.dirname(target) === dir || path.dirname(`${target}.js`) === dir) return undefined;
      const relative = path.relative(dir, target).split(path.sep).join('/');
      return { path: relative.startsWith('.') ? relative : `./${relative}`, external: true };
    });
  },
};

async function bundle() {
  if (!fs.existsSync(entry)) throw new Error(`${path.relative(process.cwd(), entry)} is missing: compile first`);
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    plugins: [outsideStaysRequired],
    logLevel: 'warning',
    metafile: true,
    write: false,
  });
  const inputs = Object.keys(result.metafile.inputs).map((f) => path.resolve(f));
  const stray = inputs.filter((f) => path.dirname(f) !== dir);
  if (stray.length > 0) throw new Error(`the rule bundle would inline modules outside ${dir}: ${stray.join(', ')}`);
  fs.writeFileSync(entry, result.outputFiles[0].text);
}

bundle().catch((e) => {
  process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 1;
});
