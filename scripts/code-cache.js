// Loads a CommonJS bundle with a V8 code cache kept beside it (`<bundle>.cache`): compiled from the cache, a start
// skips most of the parsing and compiling of the bundle's code, including the functions that the run which wrote the
// cache compiled (the cache is written after that run's work, by `save()`). The cache is keyed by a header line
// (the caller's label, the Node.js version, the architecture, and the bundle's size and timestamps) and V8 checks it
// again (its own version, the flags, the source length): a stale, rejected or unwritable cache only costs the time
// it would have saved. `save()` writes the cache only when it was missing or V8 rejected it, or when the caller says
// that this run did the bundle's main work (`complete()`) and the run that wrote the cache did not (a process that
// only loaded the library, say), atomically (a temporary file renamed), and ignores a read-only installation.
//
// `npm run build` copies this file to lib/code-cache.js, beside the bundles that use it: the library's lib/index.js
// (see scripts/bundle-library.js) and bin/node-services for the CLI's lib/cli/node-services.js.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Module = require('module');
const { Buffer, isAscii } = require('buffer');

/**
 * The bundle's source and the cache header that names this exact file, or undefined when the file changed while it
 * was read.
 */
function readBundle(bundle, label) {
  const before = fs.statSync(bundle);
  // The bundles are ASCII (the build escapes what is not): read as Latin-1, they skip decoding UTF-8.
  const bytes = fs.readFileSync(bundle);
  const source = typeof isAscii === 'function' && isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const after = fs.statSync(bundle);
  if (before.mtimeMs !== after.mtimeMs || before.size !== after.size) return undefined;
  const key = `${label} ${process.version} ${process.arch} ${after.size} ${after.mtimeMs} ${after.ctimeMs}`;
  return { source, key };
}

/** The header line of a cache under `key`, saying whether the run that wrote it was complete. */
function header(key, complete) {
  return Buffer.from(`${key} ${complete ? 'complete' : 'partial'}\n`);
}

/** The V8 data of `cacheFile` when its header is one of `key`, and whether its writer was complete; else undefined. */
function readCache(cacheFile, key) {
  let cache;
  try {
    cache = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  for (const complete of [true, false]) {
    const h = header(key, complete);
    if (cache.subarray(0, h.length).equals(h)) return { data: cache.subarray(h.length), complete };
  }
  return undefined;
}

/**
 * Runs `bundle` as the module `module` (its exports become `module.exports`), compiled with the code cache beside it.
 * Options:
 * - `label`: the first words of the cache's header line (what the cache is of);
 * - `require`: resolves the bundle's own `require`s: the caller's, so that they resolve from the caller's folder
 *   through the caller's module system;
 * - `complete` (called at save; by default always true): whether this run did the bundle's main work;
 * - `cacheFile` (by default `<bundle>.cache`): V8 keys a cache by the process's V8 flags, so a caller that sets flags
 *   for some runs gives those runs a file of their own;
 * - `requirePlain` (by default `require(bundle)`): loads the bundle without the cache (see below); a caller that may be
 *   bundled itself passes a function with a literal `require('./…')`, which a bundler then includes.
 * Returns `save`, which writes the cache when it was missing or rejected, or when this run was complete and the
 * cache's writer was not.
 *
 * When this module does not run in Node's main context (a test runner's sandbox, where `vm.Script` would run the
 * bundle in another realm, with other built-in classes), or the bundle cannot be read (the caller was bundled into
 * another file, say), the bundle is loaded by `requirePlain` and `save` does nothing.
 */
function load(bundle, options) {
  const { label, module: mod, require: requireFn, complete = () => true, cacheFile = `${bundle}.cache` } = options;
  const requirePlain = options.requirePlain ?? (() => requireFn(bundle));
  const plain = () => {
    mod.exports = requirePlain();
    return { save() {} };
  };
  // Node's own objects belong to its main context: here, in another realm, their prototypes are not this realm's.
  if (Object.getPrototypeOf(Module.prototype) !== Object.prototype) return plain();
  let read;
  try {
    read = readBundle(bundle, label);
  } catch {
    return plain();
  }
  if (read === undefined) return plain();
  const cached = readCache(cacheFile, read.key);
  const script = new vm.Script(Module.wrap(read.source), { filename: bundle, cachedData: cached?.data });
  const dirname = path.dirname(bundle);
  script.runInThisContext().call(mod.exports, mod.exports, requireFn, mod, bundle, dirname);
  const save = () => {
    const now = complete();
    if (cached !== undefined && !script.cachedDataRejected && (cached.complete || !now)) return;
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, Buffer.concat([header(read.key, now), script.createCachedData()]));
      fs.renameSync(tmp, cacheFile);
    } catch {
      // a read-only installation only costs the cache; a temporary file that could not take its place goes
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // nothing more to do
      }
    }
  };
  return { save };
}

module.exports = { load };
