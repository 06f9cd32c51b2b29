#!/usr/bin/env node
// Generates API.md from the TSDoc of the public API (src/index.ts) with typedoc and its markdown plugin.
// `--check` fails when the committed API.md differs from a fresh generation.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.join(__dirname, '..');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-api-'));
try {
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--out', out, '--logLevel', 'Warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  const fresh = fs.readFileSync(path.join(out, 'API.md'), 'utf8');
  const target = path.join(root, 'API.md');
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current !== fresh) {
      console.error('API.md is stale: run `npm run docs:api` and commit API.md');
      process.exitCode = 1;
    } else {
      console.log('API.md is up to date');
    }
  } else {
    fs.writeFileSync(target, fresh);
    console.log(`wrote API.md (${fresh.split('\n').length} lines)`);
  }
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
