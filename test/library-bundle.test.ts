/**
 * The published library is one bundle (`scripts/bundle-library.js`, run by `npm run build` after jsii): the same
 * exports and the same output as the modules it is made of, with cdk8s-plus-28's generated API (`k8s`) loaded alone.
 * The compiled modules are made here the way jsii makes them (TypeScript's CommonJS emit, one file per source), in a
 * folder inside the repository so that they resolve cdk8s and its peers from its node_modules.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { filesUnder } from './support/imports';

const ROOT = path.join(__dirname, '..');
const WORK = path.join(ROOT, 'test', '.library-bundle');
const LIB = path.join(WORK, 'lib');
const { bundleLibrary, nonK8sUses, restoreClassNames } = require('../scripts/bundle-library.js') as {
  bundleLibrary(lib: string): Promise<void>;
  nonK8sUses(file: string, text: string): string[];
  restoreClassNames(code: string): string;
};

/** What a fresh process sees when it requires `entry`: its export names and types, the cdk8s-plus-28 modules loaded, a synth. */
interface Loaded {
  readonly exports: Record<string, string>;
  /** The `name` of each exported class and function. */
  readonly names: Record<string, string>;
  readonly plusModules: string[];
  readonly manifests: unknown[];
}

function load(entry: string): Loaded {
  const script = `
    const lib = require(${JSON.stringify(entry)});
    const { Chart, Testing } = require('cdk8s');
    const exports = Object.fromEntries(Object.keys(lib).sort().map((k) => [k, typeof lib[k]]));
    const names = Object.fromEntries(Object.keys(lib).sort().filter((k) => typeof lib[k] === 'function').map((k) => [k, lib[k].name]));
    const plusModules = Object.keys(require.cache).filter((f) => f.includes('/node_modules/cdk8s-plus-28/')).map((f) => f.split('/node_modules/')[1]);
    const chart = new Chart(Testing.app(), 'agents', { namespace: 'node-services' });
    new lib.LogAgent(chart, 'logs', {
      image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
      localService: {},
      networkPolicy: { ingress: [{ ports: ['http'], from: [lib.NetworkPeer.namespace('monitoring')] }] },
      priorityClass: lib.PriorityClassSpec.create({ name: 'node-logs', value: 1000 }),
    });
    new lib.NodeServiceNamespace(chart, 'ns', {});
    process.stdout.write(JSON.stringify({ exports, names, plusModules, manifests: Testing.synth(chart) }));`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`requiring ${entry} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Loaded;
}

let modules: Loaded;
let bundled: Loaded;
let leftOver: string[];

beforeAll(async () => {
  fs.rmSync(WORK, { recursive: true, force: true });
  for (const file of filesUnder(path.join(ROOT, 'src'))) {
    const out = path.join(LIB, path.relative(path.join(ROOT, 'src'), file)).replace(/\.ts$/, '.js');
    const js = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true },
    }).outputText;
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, js);
  }
  modules = load(path.join(LIB, 'index.js'));
  await bundleLibrary(LIB);
  leftOver = fs.readdirSync(LIB, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js') && !f.startsWith('cli'));
  bundled = load(path.join(LIB, 'index.js'));
}, 120_000);

afterAll(() => fs.rmSync(WORK, { recursive: true, force: true }));

describe('the library bundle', () => {
  test('GIVEN the compiled modules WHEN bundled THEN the bundle exports the same names, of the same types', () => {
    expect(Object.keys(bundled.exports).length).toBeGreaterThan(100);
    expect(bundled.exports).toEqual(modules.exports);
  });

  test('GIVEN the compiled modules WHEN bundled THEN every exported class and function keeps its name (a class that refers to itself too)', () => {
    expect(bundled.names.HostPath).toBe('HostPath');
    expect(bundled.names).toEqual(modules.names);
  });

  test('GIVEN a class esbuild renamed to refer to itself WHEN its name is restored THEN the class and its own references take the name, and members named alike keep theirs', () => {
    const code = 'var X = class _X { static make() { return new _X(); } _X() { return this._X; } };\nvar _X = 1;';
    expect(restoreClassNames(code)).toBe('var X = class X { static make() { return new X(); } _X() { return this._X; } };\nvar _X = 1;');
    const X = new Function(`${restoreClassNames(code)}; return X;`)() as { name: string; make(): object };
    expect(X.name).toBe('X');
    expect(X.make()).toBeInstanceOf(X);
    expect(() => restoreClassNames('var Y = class _Y { static f() { return { _Y }; } };')).toThrow('shorthand property');
  });

  test('GIVEN a chart of a log agent (with every object kind it makes) and a namespace WHEN synthesized with the bundle THEN the manifests are those of the modules', () => {
    expect(bundled.manifests.map((m) => (m as { kind: string }).kind)).toEqual([
      'DaemonSet',
      'ServiceAccount',
      'ClusterRole',
      'ClusterRoleBinding',
      'PriorityClass',
      'NetworkPolicy',
      'Service',
      'Namespace',
    ]);
    expect(bundled.manifests).toEqual(modules.manifests);
  });

  test('GIVEN the bundle WHEN required THEN it loads the generated API of cdk8s-plus-28 alone, not its L2 constructs', () => {
    expect(modules.plusModules).toContain('cdk8s-plus-28/lib/index.js');
    expect(bundled.plusModules).toEqual(['cdk8s-plus-28/lib/imports/k8s.js']);
  });

  test('GIVEN an ES module WHEN it imports the library by name THEN every export is found (Node.js reads the names from the text of index.js)', () => {
    const names = Object.keys(bundled.exports);
    const script = `import * as lib from ${JSON.stringify(path.join(LIB, 'index.js'))}; import { LogAgent, HostPath } from ${JSON.stringify(path.join(LIB, 'index.js'))};
      process.stdout.write(JSON.stringify({ named: Object.keys(lib).filter((k) => k !== 'default').sort(), logAgent: typeof LogAgent, hostPath: HostPath.name }));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ named: [...names].sort(), logAgent: 'function', hostPath: 'HostPath' });
  });

  test('GIVEN an app bundled into one file with the library (esbuild) WHEN it runs elsewhere THEN the library loads from the bundle', async () => {
    const esbuild = require('esbuild') as typeof import('esbuild');
    const entry = path.join(WORK, 'app', 'main.js');
    fs.mkdirSync(path.dirname(entry), { recursive: true });
    fs.writeFileSync(
      entry,
      `const lib = require(${JSON.stringify(path.join(LIB, 'index.js'))}); process.stdout.write(typeof lib.LogAgent + ' ' + lib.HostPath.readOnly('/var/log').path);\n`,
    );
    const outfile = path.join(WORK, 'app', 'out', 'app.js');
    await esbuild.build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['cdk8s', 'constructs', 'js-yaml', 'cdk8s-plus-28'],
      logLevel: 'silent',
    });
    const r = spawnSync(process.execPath, [outfile], { cwd: ROOT, encoding: 'utf8' });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: 'function /var/log', stderr: '' });
    expect(fs.readdirSync(path.dirname(outfile))).toEqual(['app.js']);
  });

  test('GIVEN the bundle THEN no compiled module is left beside it (the package holds each module once)', () => {
    expect(leftOver.sort()).toEqual(['code-cache.js', 'index.js', 'library.js']);
  });
});

describe('the library code cache (lib/library.js.cache)', () => {
  const cache = () => path.join(LIB, 'library.js.cache');
  const requireInChild = (extra = '') =>
    spawnSync(
      process.execPath,
      ['-e', `const lib = require(${JSON.stringify(path.join(LIB, 'index.js'))}); ${extra} process.stdout.write(typeof lib.LogAgent);`],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );

  test('GIVEN no cache WHEN a process loads the library and exits THEN it writes the cache, and a later process keeps it', () => {
    fs.rmSync(cache(), { force: true });
    expect(requireInChild()).toMatchObject({ status: 0, stdout: 'function', stderr: '' });
    const written = fs.readFileSync(cache());
    expect(written.subarray(0, 32).toString()).toBe('cdk8s-node-services code cache v');
    expect(written.length).toBeGreaterThan(10_000);
    const mtime = fs.statSync(cache()).mtimeMs;
    expect(requireInChild()).toMatchObject({ status: 0, stdout: 'function', stderr: '' });
    expect(fs.statSync(cache()).mtimeMs).toBe(mtime);
  });

  test('GIVEN a cache written by a process that only loaded the library WHEN a process synthesizes THEN it replaces the cache once, and a later load keeps the complete one', () => {
    fs.rmSync(cache(), { force: true });
    const headerLine = () => fs.readFileSync(cache()).subarray(0, fs.readFileSync(cache()).indexOf(10)).toString();
    requireInChild();
    expect(headerLine()).toMatch(/ partial$/);
    const partialSize = fs.statSync(cache()).size;
    const synth = `const { App, Chart } = require('cdk8s'); const app = new App({ outdir: ${JSON.stringify(path.join(WORK, 'out'))} });
      new lib.LogAgent(new Chart(app, 'c', { namespace: 'logs' }), 'logs', { image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9' }); app.synthYaml();`;
    expect(requireInChild(synth)).toMatchObject({ status: 0, stdout: 'function', stderr: '' });
    expect(headerLine()).toMatch(/ complete$/);
    expect(fs.statSync(cache()).size).toBeGreaterThan(partialSize);
    const mtime = fs.statSync(cache()).mtimeMs;
    requireInChild();
    requireInChild(synth);
    expect(fs.statSync(cache()).mtimeMs).toBe(mtime);
  });

  test('GIVEN a cache V8 rejects (other flags) WHEN a process loads the library THEN it behaves alike and writes the cache again', () => {
    requireInChild();
    const before = fs.readFileSync(cache());
    const r = spawnSync(
      process.execPath,
      [
        '--max-old-space-size=1000',
        '-e',
        `process.stdout.write(typeof require(${JSON.stringify(path.join(LIB, 'index.js'))}).NodeService)`,
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(r).toMatchObject({ status: 0, stdout: 'function', stderr: '' });
    expect(fs.readFileSync(cache()).equals(before)).toBe(false);
  });

  test('GIVEN a corrupt cache WHEN a process loads the library THEN it loads normally and replaces the cache', () => {
    requireInChild();
    const header = fs.readFileSync(cache()).subarray(0, fs.readFileSync(cache()).indexOf(10) + 1);
    fs.writeFileSync(cache(), Buffer.concat([header, Buffer.from('not a V8 code cache')]));
    expect(requireInChild()).toMatchObject({ status: 0, stdout: 'function', stderr: '' });
    expect(fs.readFileSync(cache()).length).toBeGreaterThan(header.length + 100);
  });

  test('GIVEN a read-only cache location WHEN a process loads the library THEN it loads normally and writes nothing', () => {
    fs.rmSync(cache(), { force: true });
    fs.mkdirSync(cache()); // a directory where the file would go: the rename fails
    try {
      expect(requireInChild()).toMatchObject({ status: 0, stdout: 'function', stderr: '' });
      expect(fs.statSync(cache()).isDirectory()).toBe(true);
      expect(fs.readdirSync(LIB).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      fs.rmSync(cache(), { recursive: true, force: true });
    }
  });

  test('GIVEN a process that exits early (process.exit) THEN the cache is still written', () => {
    fs.rmSync(cache(), { force: true });
    expect(requireInChild('process.exit(0);')).toMatchObject({ status: 0, stdout: '', stderr: '' });
    expect(fs.existsSync(cache())).toBe(true);
  });

  test("GIVEN a sandbox of its own (a jest test environment, another realm) WHEN the library is loaded there THEN it is loaded with the sandbox's require and its classes are of that realm", () => {
    // This test runs in jest's environment: requiring the built library here goes through jest's module registry.
    const lib = require(path.join(LIB, 'index.js')) as { NodeServicesError: new (...a: unknown[]) => Error };
    expect(Object.getPrototypeOf(lib.NodeServicesError.prototype)).toBe(Error.prototype);
  });
});

describe('the cdk8s-plus-28 guard of the bundle', () => {
  test('GIVEN modules that use only k8s of cdk8s-plus-28 THEN nothing is reported', () => {
    const text =
      'const cdk8s_plus_28_1 = require("cdk8s-plus-28");\nclass A extends cdk8s_plus_28_1.k8s.KubeDaemonSet {}\nnew cdk8s_plus_28_1 . k8s.KubeService();';
    expect(nonK8sUses('a.js', text)).toEqual([]);
  });

  test('GIVEN a module that uses an L2 construct or passes the package on THEN each such use is reported', () => {
    const text = 'var plus = require("cdk8s-plus-28");\nnew plus.DaemonSet(); plus.k8s.KubeService; f(plus);';
    expect(nonK8sUses('a.js', text)).toEqual(['a.js: plus.DaemonSet', 'a.js: plus']);
  });

  test('GIVEN a require of cdk8s-plus-28 not bound to a name THEN it is reported', () => {
    expect(nonK8sUses('a.js', 'const { DaemonSet } = require("cdk8s-plus-28");')).toEqual([
      'a.js: require("cdk8s-plus-28") not bound to a name',
    ]);
  });

  test('GIVEN a compiled module that uses an L2 construct WHEN bundled THEN the build fails, naming the module and the use', async () => {
    const lib = path.join(WORK, 'l2');
    fs.mkdirSync(lib, { recursive: true });
    fs.writeFileSync(path.join(lib, 'index.js'), 'exports.a = require("./a");\n');
    fs.writeFileSync(path.join(lib, 'a.js'), 'const plus = require("cdk8s-plus-28");\nexports.make = (s) => new plus.DaemonSet(s, "d");\n');
    await expect(bundleLibrary(lib)).rejects.toThrow(/beyond its generated API[\s\S]*l2\/a\.js: plus\.DaemonSet/);
    expect(fs.readFileSync(path.join(lib, 'index.js'), 'utf8')).toBe('exports.a = require("./a");\n');
  });
});
