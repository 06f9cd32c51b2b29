#!/usr/bin/env node
// Bundles the `node-services` CLI (and its yaml/commander dependencies) into one file, lib/cli/node-services.js, so
// that it starts without resolving and loading dozens of modules. The library itself is compiled by tsc to lib/.
'use strict';
const path = require('path');
const esbuild = require('esbuild');

const root = path.join(__dirname, '..');
esbuild.buildSync({
  entryPoints: [path.join(root, 'src', 'cli', 'main.ts')],
  outfile: path.join(root, 'lib', 'cli', 'node-services.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // The CLI never loads cdk8s or cdk8s-plus; keep them external so that a stray import would fail loudly, not bloat.
  external: ['cdk8s', 'cdk8s-plus-28', 'constructs'],
  logLevel: 'warning',
});
