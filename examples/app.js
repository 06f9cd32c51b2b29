#!/usr/bin/env node
// The cdk8s app command (see cdk8s.yaml): bundles examples/main.ts and the library sources with esbuild in memory
// (tens of milliseconds, no type check: `npm test` type-checks) and runs the result. Dependencies stay external.
'use strict';
const path = require('path');
const Module = require('module');
const esbuild = require('esbuild');

const entry = path.join(__dirname, 'main.ts');
const { outputFiles } = esbuild.buildSync({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  write: false,
  logLevel: 'error',
});
const filename = path.join(__dirname, 'main.bundle.js');
const app = new Module(filename, module);
app.filename = filename;
app.paths = Module._nodeModulePaths(__dirname);
app._compile(outputFiles[0].text, filename);
