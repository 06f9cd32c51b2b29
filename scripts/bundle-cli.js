#!/usr/bin/env node
// Bundles the `node-services` CLI (and its yaml/commander dependencies) into one file, lib/cli/node-services.js, so
// that it starts without resolving and loading dozens of modules. The library itself is compiled by tsc to lib/.
// The bundle ends with the license notices of every package it inlines (found from esbuild's metafile, so a new
// dependency of the CLI brings its notice along without anyone listing it).
'use strict';
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');

const root = path.join(__dirname, '..');
const outfile = path.join(root, 'lib', 'cli', 'node-services.js');
const result = esbuild.buildSync({
  entryPoints: [path.join(root, 'src', 'cli', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // The CLI never loads cdk8s or cdk8s-plus; keep them external so that a stray import would fail loudly, not bloat.
  external: ['cdk8s', 'cdk8s-plus-28', 'constructs'],
  logLevel: 'warning',
  metafile: true,
  write: false,
});

/** The package folders (under node_modules) that the bundle inlines a file of. */
function inlinedPackages(metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) dirs.add(path.resolve(root, m[1]));
  }
  return [...dirs].sort();
}

function notice(dir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const licenseFile = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  if (!licenseFile) throw new Error(`${pkg.name}: the CLI bundle inlines it, but it has no LICENSE file to carry along`);
  const text = fs.readFileSync(path.join(dir, licenseFile), 'utf8').trim().replace(/\*\//g, '* /');
  return `${pkg.name}@${pkg.version} (${pkg.license})\n\n${text}`;
}

const notices = inlinedPackages(result.metafile).map(notice);
const footer =
  notices.length === 0
    ? ''
    : `\n/*!\n * Third-party packages inlined in this file, with their license notices:\n\n${notices.join('\n\n---\n\n')}\n */\n`;
fs.mkdirSync(path.dirname(outfile), { recursive: true });
for (const file of result.outputFiles) {
  fs.writeFileSync(file.path, file.path === outfile ? file.text + footer : file.contents);
}
