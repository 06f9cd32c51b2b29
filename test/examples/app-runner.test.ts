import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

/**
 * A throw-away project laid out like this repository (examples/app.js, examples/main.ts, node_modules) whose app
 * synthesizes one ConfigMap named after what `./part` exports, with the runner's cache in a directory of its own.
 */
function project(sharedCache?: string): {
  dir: string;
  cache: string;
  write: (file: string, text: string) => void;
  synth: () => string;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-runner-'));
  const cache = sharedCache ?? path.join(dir, 'cache');
  fs.mkdirSync(path.join(dir, 'examples', 'part'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'examples', 'app.js'), path.join(dir, 'examples', 'app.js'));
  fs.copyFileSync(path.join(ROOT, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "app-runner-test", "private": true }\n');
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const write = (file: string, text: string) => fs.writeFileSync(path.join(dir, 'examples', file), text);
  write(
    'main.ts',
    `import { ApiObject, App, Chart } from 'cdk8s';
import { NAME } from './part';
const app = new App();
new ApiObject(new Chart(app, 'c'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: NAME } });
app.synth();
`,
  );
  write('part/index.ts', `export const NAME = 'from-index';\n`);
  let n = 0;
  const synth = () => {
    const out = path.join(dir, `out-${n++}`);
    const r = spawnSync(process.execPath, [path.join(dir, 'examples', 'app.js')], {
      encoding: 'utf8',
      env: { ...process.env, CDK8S_OUTDIR: out, NODE_SERVICES_EXAMPLES_CACHE: cache },
    });
    if (r.status !== 0) throw new Error(`app.js exited ${r.status}: ${r.stderr}`);
    return fs.readFileSync(path.join(out, 'c.k8s.yaml'), 'utf8');
  };
  return { dir, cache, write, synth };
}

const name = (yaml: string) => /name: (\S+)/.exec(yaml)?.[1];

/** A file of the project's cache: in the folder of its checkout (a hash of the project root's real path). */
const cacheFile = (p: { dir: string; cache: string }, file: string) =>
  path.join(p.cache, crypto.createHash('sha256').update(fs.realpathSync(p.dir)).digest('hex').slice(0, 16), file);

describe('examples/app.js, the cdk8s app command', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  test('GIVEN an unchanged app WHEN synthesized again THEN the cached bundle and code cache are reused', () => {
    const p = project();
    dirs.push(p.dir);
    expect(name(p.synth())).toBe('from-index');
    const bundle = cacheFile(p, 'main.bundle.js');
    const codeCache = cacheFile(p, 'main.bundle.js.cache');
    const written = [fs.statSync(bundle).mtimeMs, fs.statSync(codeCache).mtimeMs];
    expect(name(p.synth())).toBe('from-index');
    expect([fs.statSync(bundle).mtimeMs, fs.statSync(codeCache).mtimeMs]).toEqual(written);
  }, 60_000);

  test('GIVEN two checkouts sharing one cache (a worktree with a linked node_modules) WHEN each synthesizes THEN each runs its own sources', () => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'app-runner-cache-'));
    dirs.push(cache);
    const a = project(cache);
    const b = project(cache);
    dirs.push(a.dir, b.dir);
    b.write('part/index.ts', `export const NAME = 'from-b';\n`);
    // GIVEN checkout a has a cached bundle
    expect(name(a.synth())).toBe('from-index');
    // WHEN checkout b synthesizes, with a's recorded inputs unchanged THEN b's own source is what runs
    expect(name(b.synth())).toBe('from-b');
    const bundleOfA = fs.statSync(cacheFile(a, 'main.bundle.js')).mtimeMs;
    // AND a still reuses its own bundle, not rebuilt by b's run
    expect(name(a.synth())).toBe('from-index');
    expect(fs.statSync(cacheFile(a, 'main.bundle.js')).mtimeMs).toBe(bundleOfA);
  }, 60_000);

  test('GIVEN a cached bundle WHEN a source changes with the same size and modification time THEN it is rebuilt', () => {
    const p = project();
    dirs.push(p.dir);
    const file = path.join(p.dir, 'examples', 'part', 'index.ts');
    const time = new Date('2026-01-01T00:00:00Z');
    fs.utimesSync(file, time, time);
    expect(name(p.synth())).toBe('from-index');
    // WHEN the content changes, keeping size and modification time
    p.write('part/index.ts', `export const NAME = 'from-INDEX';\n`);
    fs.utimesSync(file, time, time);
    // THEN the next synthesis uses the new source
    expect(name(p.synth())).toBe('from-INDEX');
  }, 60_000);

  test('GIVEN a cached bundle WHEN a new file changes what an import resolves to, or is removed again THEN it is rebuilt', () => {
    const p = project();
    dirs.push(p.dir);
    expect(name(p.synth())).toBe('from-index');
    // WHEN examples/part.ts appears, it takes precedence over examples/part/index.ts
    p.write('part.ts', `export const NAME = 'from-file';\n`);
    expect(name(p.synth())).toBe('from-file');
    // WHEN it is removed again
    fs.rmSync(path.join(p.dir, 'examples', 'part.ts'));
    expect(name(p.synth())).toBe('from-index');
  }, 60_000);

  test('GIVEN a source that uses cdk8s-plus-28 constructs besides its k8s API THEN the app still synthesizes them', () => {
    const p = project();
    dirs.push(p.dir);
    p.write(
      'part/index.ts',
      `import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
export const NAME = typeof kplus.ConfigMap === 'function' && typeof k8s.KubeConfigMap === 'function' ? 'both-loaded' : 'missing';
`,
    );
    expect(name(p.synth())).toBe('both-loaded');
  }, 60_000);

  test('GIVEN a source that uses a few k8s classes THEN only those (and what they reference) are bundled, and they render', () => {
    const p = project();
    dirs.push(p.dir);
    p.write(
      'part/index.ts',
      `import { Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
const chart = Testing.chart();
new k8s.KubeDaemonSet(chart, 'ds', {
  metadata: { name: 'agent' },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: { spec: { containers: [{ name: 'a', image: 'a:1', ports: [{ containerPort: k8s.IntOrString.fromNumber(80).value as number }] }] } },
  },
});
const rendered = Testing.synth(chart)[0];
export const NAME = rendered.spec.template.spec.containers[0].ports[0].containerPort === 80 ? 'rendered' : 'wrong';
`,
    );
    expect(name(p.synth())).toBe('rendered');
    const bundle = fs.readFileSync(cacheFile(p, 'main.bundle.js'), 'utf8');
    expect(bundle).toMatch(/\bKubeDaemonSet = class /);
    expect(bundle).toContain('function toJson_PodSpec(');
    expect(bundle).not.toMatch(/\bKubeStatefulSet = class /);
  }, 60_000);

  test('GIVEN a source that uses the k8s module other than by name (cast, indexed) THEN the whole module is bundled', () => {
    const p = project();
    dirs.push(p.dir);
    p.write(
      'part/index.ts',
      `import { k8s } from 'cdk8s-plus-28';
const kind = ['Kube', 'StatefulSet'].join('');
export const NAME = typeof (k8s as any)[kind] === 'function' ? 'found-by-index' : 'missing';
`,
    );
    expect(name(p.synth())).toBe('found-by-index');
  }, 60_000);
});
