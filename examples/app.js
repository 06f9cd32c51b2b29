#!/usr/bin/env node
// The cdk8s app command (see cdk8s.yaml): bundles examples/main.ts and the library sources with esbuild (no type
// check: `npm test` type-checks) and runs the result. Dependencies stay external. The bundle is cached in
// node_modules/.cache, keyed by the content of every source file, so an unchanged app starts without esbuild.
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const Module = require('module');

const root = path.join(__dirname, '..');
const entry = path.join(__dirname, 'main.ts');
const cacheDir = path.join(root, 'node_modules', '.cache', 'cdk8s-node-services-examples');

function sources(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) sources(full, out);
    else if (e.name.endsWith('.ts')) out.push(full);
  }
  return out;
}

const hash = crypto.createHash('sha256');
for (const file of [...sources(path.join(root, 'src'), []), ...sources(__dirname, [])].sort()) {
  hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
}
const cached = path.join(cacheDir, `${hash.digest('hex').slice(0, 32)}.js`);

let code;
try {
  code = fs.readFileSync(cached, 'utf8');
} catch {
  const esbuild = require('esbuild');
  const { outputFiles } = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'error',
  });
  code = outputFiles[0].text;
  try {
    fs.rmSync(cacheDir, { recursive: true, force: true });
    fs.mkdirSync(cacheDir, { recursive: true });
    const tmp = `${cached}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, code);
    fs.renameSync(tmp, cached);
  } catch {
    // A read-only node_modules only costs the cache.
  }
}

const filename = path.join(__dirname, 'main.bundle.js');
const app = new Module(filename, module);
app.filename = filename;
app.paths = Module._nodeModulePaths(__dirname);
app._compile(code, filename);
