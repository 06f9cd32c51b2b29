#!/usr/bin/env node
// Bundles the `node-services` CLI (and its js-yaml/commander dependencies) into one file, lib/cli/node-services.js, so
// that it starts without resolving and loading dozens of modules (bin/node-services adds a V8 code cache on top).
// The bundle ends with the license notices of every package it inlines (found from esbuild's metafile, so a new
// dependency of the CLI brings its notice along without anyone listing it). The library itself is compiled to lib/.
'use strict';
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');

const root = path.join(__dirname, '..');
const outfile = path.join(root, 'lib', 'cli', 'node-services.js');

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

// prettier formats the code `node-services import` writes. Its standalone build is large (1.2 MB) and only that
// command needs it: the bundle requires it from files copied beside it (lib/cli/prettier/), loaded on first use, so
// the other commands never read or compile it.
const PRETTIER_FILES = ['standalone.js', 'plugins/typescript.js', 'plugins/estree.js'];
const prettierBeside = {
  name: 'prettier-beside',
  setup(build) {
    build.onResolve({ filter: /^prettier\/(standalone|plugins\/typescript|plugins\/estree)$/ }, (args) => ({
      path: `./prettier/${args.path.slice('prettier/'.length)}.js`,
      external: true,
    }));
  },
};

/** Copies prettier's standalone files (and its license notices) to lib/cli/prettier/, the bundle's lazy requires. */
function copyPrettier() {
  const from = path.dirname(require.resolve('prettier/package.json'));
  const to = path.join(path.dirname(outfile), 'prettier');
  fs.rmSync(to, { recursive: true, force: true });
  for (const file of PRETTIER_FILES) {
    fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    fs.copyFileSync(path.join(from, file), path.join(to, file));
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(from, 'package.json'), 'utf8'));
  const license = fs.readFileSync(path.join(from, 'LICENSE'), 'utf8').trim().replace(/\*\//g, '* /');
  // The notices travel in a .js file, since the package ships lib/**/*.js.
  fs.writeFileSync(path.join(to, 'NOTICE.js'), `/*!\n * ${pkg.name}@${pkg.version} (${pkg.license})\n\n${license}\n */\n`);
}

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

/** `text` with each non-ASCII character written as `\u{…}` (for comments only: there it changes nothing but bytes). */
function escapeNonAscii(text) {
  return text.replace(/[\u0080-\u{10ffff}]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
}

/**
 * The bundle as ASCII, when its only non-ASCII characters are in comments (esbuild already escapes them in strings,
 * templates and regular expressions): bin/node-services then reads it as Latin-1, which costs a fraction of decoding
 * UTF-8 on every start. Otherwise the text as it is (read as UTF-8).
 */
function asciiBundle(text) {
  let onlyInComments = true;
  const escaped = text.replace(/[\u0080-\u{10ffff}]/gu, (c, offset) => {
    const line = text.slice(text.lastIndexOf('\n', offset) + 1, offset);
    if (!/\/\/|^\s*(\/\*|\*)/.test(line)) onlyInComments = false;
    return escapeNonAscii(c);
  });
  return onlyInComments ? escaped : text;
}

async function bundle() {
  const result = await esbuild.build({
    entryPoints: [path.join(root, 'src', 'cli', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // The CLI never loads cdk8s or cdk8s-plus; keep them external so that a stray import would fail loudly, not bloat.
    external: ['cdk8s', 'cdk8s-plus-28', 'constructs'],
    plugins: [lazyChildProcess, prettierBeside],
    logLevel: 'warning',
    metafile: true,
    write: false,
  });
  const notices = inlinedPackages(result.metafile).map(notice);
  const footer =
    notices.length === 0
      ? ''
      : escapeNonAscii(
          `\n/*!\n * Third-party packages inlined in this file, with their license notices:\n\n${notices.join('\n\n---\n\n')}\n */\n`,
        );
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  copyPrettier();
  for (const file of result.outputFiles) {
    fs.writeFileSync(file.path, file.path === outfile ? asciiBundle(file.text) + footer : file.contents);
  }
}

bundle().catch((e) => {
  process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 1;
});
