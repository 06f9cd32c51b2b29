#!/usr/bin/env node
// Bundles the `node-services` CLI (and its yaml/commander dependencies) into one file, lib/cli/node-services.js, so
// that it starts without resolving and loading dozens of modules (bin/node-services adds a V8 code cache on top).
// The library itself is compiled by tsc to lib/.
'use strict';
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');

const root = path.join(__dirname, '..');

// commander loads child_process (and with it net, stream, …) at import, for executable subcommands this CLI does
// not have; loading it on first use instead saves that work on every start.
const COMMANDER_CHILD_PROCESS = "const childProcess = require('node:child_process');";
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8');
      if (!text.includes(COMMANDER_CHILD_PROCESS)) {
        return {
          contents: text,
          loader: 'js',
          warnings: [{ text: 'commander no longer loads child_process as expected; it is bundled as is' }],
        };
      }
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: text.replace(COMMANDER_CHILD_PROCESS, lazy), loader: 'js' };
    });
  },
};

esbuild
  .build({
    entryPoints: [path.join(root, 'src', 'cli', 'main.ts')],
    outfile: path.join(root, 'lib', 'cli', 'node-services.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // The CLI never loads cdk8s or cdk8s-plus; keep them external so that a stray import would fail loudly, not bloat.
    external: ['cdk8s', 'cdk8s-plus-28', 'constructs'],
    plugins: [lazyChildProcess],
    logLevel: 'warning',
  })
  .catch(() => {
    process.exitCode = 1;
  });
