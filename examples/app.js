#!/usr/bin/env node
// The cdk8s app command (see cdk8s.yaml): bundles examples/main.ts, the library sources and their dependencies
// (cdk8s, constructs, cdk8s-plus-28) into one file with esbuild (no type check: `npm test` type-checks) and runs it
// with a V8 code cache, so that a synth reads and compiles one file instead of a few hundred modules.
//
// Bundle and code cache live in node_modules/.cache/cdk8s-node-services-examples (or $NODE_SERVICES_EXAMPLES_CACHE),
// in a folder of the checkout they belong to (named by a hash of the project root's real path): two checkouts that
// share one node_modules (a worktree with a linked node_modules) or one cache folder never run each other's bundle.
// The bundle is reused while every file esbuild read to build it, and every directory holding one of them, keep
// their size and timestamps (modification and change time): an edited, added, removed or renamed source rebuilds
// it, without reading or hashing the sources on every run. The code cache is keyed by the bundle and the Node.js
// version, and written after a run that had none (or had one V8 rejected).
'use strict';
/* global Buffer, __filename */
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const entry = path.join(__dirname, 'main.ts');
/** The checkout this runner belongs to, as the file system names it (symbolic links resolved). */
const checkout = fs.realpathSync(root);
const cacheDir = path.join(
  process.env.NODE_SERVICES_EXAMPLES_CACHE || path.join(root, 'node_modules', '.cache', 'cdk8s-node-services-examples'),
  crypto.createHash('sha256').update(checkout).digest('hex').slice(0, 16),
);
const bundleFile = path.join(cacheDir, 'main.bundle.js');
const inputsFile = path.join(cacheDir, 'inputs.json');
const codeCacheFile = path.join(cacheDir, 'main.bundle.js.cache');
/** Where the bundle runs from: relative `require`s and stack traces resolve as if it sat beside this file. */
const filename = path.join(__dirname, 'main.bundle.js');

function stamp(file) {
  const s = fs.statSync(file);
  return `${s.size} ${s.mtimeMs} ${s.ctimeMs}`;
}

/** The cached bundle, when every recorded input is unchanged; otherwise undefined. */
function cachedBundle() {
  let recorded;
  try {
    recorded = JSON.parse(fs.readFileSync(inputsFile, 'utf8'));
  } catch {
    return undefined;
  }
  if (recorded.checkout !== checkout || recorded.bundle === undefined || typeof recorded.inputs !== 'object') return undefined;
  for (const [file, recordedStamp] of Object.entries(recorded.inputs)) {
    try {
      if (stamp(file) !== recordedStamp) return undefined;
    } catch {
      return undefined;
    }
  }
  try {
    const code = fs.readFileSync(bundleFile, 'utf8');
    return stamp(bundleFile) === recorded.bundle ? code : undefined;
  } catch {
    return undefined;
  }
}

// A bundled module that reads files relative to itself (cdk8s loads a helper script this way) keeps its real
// directory: `__dirname` and `__filename` become the paths of the file they are written in.
const ownPaths = {
  name: 'own-paths',
  setup(build) {
    build.onLoad({ filter: /\.(c?js|ts)$/ }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8');
      if (!/\b__(dirname|filename)\b/.test(text)) return undefined;
      const contents = text
        .replace(/\b__dirname\b/g, JSON.stringify(path.dirname(args.path)))
        .replace(/\b__filename\b/g, JSON.stringify(args.path));
      return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

function writeAtomically(file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

// The library and the examples use only the generated Kubernetes API (`k8s`) of cdk8s-plus-28, not its L2
// constructs: bundling just that module spares loading the rest. Should a source import anything else from
// cdk8s-plus-28 (esbuild then reports a missing export), the bundle includes the whole package instead.
const K8S_ONLY = 'cdk8s-plus-28 k8s only';
const k8sFile = () => require.resolve('cdk8s-plus-28/lib/imports/k8s', { paths: [root] });
const k8sOnly = {
  name: 'cdk8s-plus-28-k8s-only',
  setup(build) {
    build.onResolve({ filter: /^cdk8s-plus-28$/ }, () => ({ path: 'cdk8s-plus-28', namespace: K8S_ONLY }));
    build.onLoad({ filter: /.*/, namespace: K8S_ONLY }, () => ({
      contents: `export * as k8s from ${JSON.stringify(k8sFile())};`,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/**
 * The names of `k8s` the bundled sources use (`k8s.KubeDaemonSet`, …), or undefined when a source that imports
 * `{ k8s }` from cdk8s-plus-28 uses it any other way (renamed, indexed, passed on), which a text scan cannot follow.
 */
function k8sNamesUsed(metafile) {
  const names = new Set();
  for (const f of Object.keys(metafile.inputs)) {
    if (f.includes('node_modules') || f.startsWith(`${K8S_ONLY}:`) || !/\.[cm]?[jt]s$/.test(f)) continue;
    const text = fs.readFileSync(path.resolve(root, f), 'utf8');
    if (!/from\s+['"]cdk8s-plus-28['"]/.test(text)) continue;
    const code = text.replace(/(['"`])(?:\\.|(?!\1)[^\\\n])*\1/g, '""');
    if (/\bk8s\s+as\b/.test(code)) return undefined;
    for (const m of code.matchAll(/\bk8s\b(\s*\.\s*([A-Za-z_$][\w$]*))?/g)) {
      if (m[2] !== undefined) names.add(m[2]);
      else if (!/import\s*(type\s*)?\{[^}]*$/.test(code.slice(Math.max(0, m.index - 200), m.index))) return undefined;
    }
  }
  return names;
}

/**
 * The generated k8s module (2.7 MB, some 600 classes and 2,000 functions) cut down to `names` and what they
 * reference: without its comments, its top-level statements are split at lines that start in column 0, and a
 * statement is kept when it declares a needed name or, declaring nothing, mentions one (or no declared name at all:
 * shared set-up). Everything a kept statement mentions is needed in turn. A name missing by mistake would fail
 * loudly (a ReferenceError), never change the output; a cut that does not parse falls back to the whole module.
 */
function pruneK8s(text, names) {
  // Comments go first (their text may start in column 0); string literals are matched so that a `/*` inside one is
  // left alone.
  const code = text.replace(/("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (m, str) =>
    str !== undefined ? m : '',
  );
  const segments = [];
  let current = [];
  for (const line of code.split('\n')) {
    const c = line[0];
    if (line.length > 0 && c !== ' ' && c !== '\t' && c !== '}' && c !== ')' && c !== ']' && c !== '*' && current.length > 0) {
      segments.push(current.join('\n'));
      current = [];
    }
    current.push(line);
  }
  if (current.length > 0) segments.push(current.join('\n'));
  const declared = new Set();
  const info = segments.map((s) => {
    const m = /^(?:class|function)\s+([A-Za-z_$][\w$]*)/.exec(s) || /^var\s+([A-Za-z_$][\w$]*);\s*$/.exec(s.split('\n')[0]);
    const name = m ? m[1] : undefined;
    if (name !== undefined) declared.add(name);
    return { text: s, name };
  });
  for (const x of info) {
    x.mentions = new Set();
    for (const m of x.text.replace(/\.\.\./g, ' ').matchAll(/(?<![.\w$])[A-Za-z_$][\w$]*/g))
      if (declared.has(m[0]) && m[0] !== x.name) x.mentions.add(m[0]);
  }
  const needed = new Set([...names].filter((n) => declared.has(n)));
  const kept = new Set();
  for (let changed = true; changed;) {
    changed = false;
    info.forEach((x, i) => {
      if (kept.has(i)) return;
      const keep = x.name !== undefined ? needed.has(x.name) : x.mentions.size === 0 || [...x.mentions].some((n) => needed.has(n));
      if (!keep) return;
      kept.add(i);
      changed = true;
      for (const n of x.mentions) needed.add(n);
    });
  }
  return info
    .filter((_, i) => kept.has(i))
    .map((x) => x.text)
    .join('\n');
}

/** Loads the k8s module cut down to `names` (see {@link pruneK8s}). */
function prunedK8s(names) {
  const file = k8sFile();
  return {
    name: 'cdk8s-plus-28-k8s-pruned',
    setup(build) {
      build.onLoad({ filter: /[\\/]cdk8s-plus-28[\\/]lib[\\/]imports[\\/]k8s\.js$/ }, (args) =>
        args.path === file ? { contents: pruneK8s(fs.readFileSync(file, 'utf8'), names), loader: 'js' } : undefined,
      );
    },
  };
}

async function buildBundle() {
  const esbuild = require('esbuild');
  const options = {
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    metafile: true,
    logLevel: 'error',
  };
  let result;
  try {
    result = await esbuild.build({ ...options, plugins: [ownPaths, k8sOnly], logLevel: 'silent' });
    if (result.warnings.length > 0) result = undefined;
  } catch {
    result = undefined;
  }
  if (result !== undefined) {
    // Only the parts of the k8s module the sources use: a second build, with the names the first one's sources use.
    const names = k8sNamesUsed(result.metafile);
    if (names !== undefined) {
      try {
        const pruned = await esbuild.build({ ...options, plugins: [prunedK8s(names), ownPaths, k8sOnly], logLevel: 'silent' });
        if (pruned.warnings.length === 0) result = pruned;
      } catch {
        // keep the whole k8s module
      }
    }
  }
  if (result === undefined) result = await esbuild.build({ ...options, plugins: [ownPaths] });
  const code = result.outputFiles[0].text;
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    // What esbuild read, plus what steers how it reads: this runner, esbuild itself, the TypeScript configuration, and
    // the lock file npm rewrites on every install.
    const steering = [
      __filename,
      require.resolve('esbuild/package.json'),
      path.join(root, 'tsconfig.json'),
      path.join(root, 'package.json'),
    ];
    const lock = path.join(root, 'node_modules', '.package-lock.json');
    if (fs.existsSync(lock)) steering.push(lock);
    const inputs = {};
    for (const file of steering) inputs[file] = stamp(file);
    // The directory of each source too: a file added to or removed from it may change what an import resolves to.
    for (const f of Object.keys(result.metafile.inputs)) {
      if (f.startsWith(`${K8S_ONLY}:`)) continue;
      const file = path.resolve(root, f);
      inputs[file] = stamp(file);
      const dir = path.dirname(file);
      if (!(dir in inputs)) inputs[dir] = stamp(dir);
    }
    fs.rmSync(codeCacheFile, { force: true });
    writeAtomically(bundleFile, code);
    writeAtomically(inputsFile, JSON.stringify({ checkout, bundle: stamp(bundleFile), inputs }));
  } catch {
    // A read-only node_modules only costs the cache.
  }
  return code;
}

function run(code) {
  const vm = require('vm');
  const Module = require('module');
  const key = Buffer.from(`examples code cache ${process.version} ${process.arch} ${code.length} ${cachedStamp()}\n`);
  let cachedData;
  try {
    const cache = fs.readFileSync(codeCacheFile);
    if (cache.subarray(0, key.length).equals(key)) cachedData = cache.subarray(key.length);
  } catch {
    // no code cache yet
  }
  const script = new vm.Script(Module.wrap(code), { filename, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      try {
        writeAtomically(codeCacheFile, Buffer.concat([key, script.createCachedData()]));
      } catch {
        // A read-only node_modules only costs the cache.
      }
    });
  }
  const app = new Module(filename, module);
  app.filename = filename;
  app.paths = Module._nodeModulePaths(__dirname);
  script.runInThisContext().call(app.exports, app.exports, Module.createRequire(filename), app, filename, __dirname);
}

function cachedStamp() {
  try {
    return stamp(bundleFile);
  } catch {
    return 'none';
  }
}

const code = cachedBundle();
if (code !== undefined) {
  run(code);
} else {
  buildBundle().then(run, (e) => {
    process.stderr.write(`${e && e.message ? e.message : e}\n`);
    process.exitCode = 1;
  });
}
