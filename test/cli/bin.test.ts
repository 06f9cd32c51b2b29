import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const BIN = path.join(__dirname, '..', '..', 'bin', 'node-services');
/** The loader bin/node-services uses; `npm run build` copies it to lib/code-cache.js. */
const CODE_CACHE = path.join(__dirname, '..', '..', 'scripts', 'code-cache.js');

/** A copy of bin/node-services (and its loader) beside a stand-in bundle whose `main` prints `label` and its arguments. */
function install(label: string): { dir: string; bundle: string; cache: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bin-test-'));
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.mkdirSync(path.join(dir, 'lib', 'cli'), { recursive: true });
  fs.copyFileSync(BIN, path.join(dir, 'bin', 'node-services'));
  fs.copyFileSync(CODE_CACHE, path.join(dir, 'lib', 'code-cache.js'));
  const bundle = path.join(dir, 'lib', 'cli', 'node-services.js');
  writeBundle(bundle, label);
  return { dir, bundle, cache: `${bundle}.cache` };
}

function writeBundle(file: string, label: string): void {
  fs.writeFileSync(
    file,
    `exports.main = async (argv) => { process.stdout.write(${JSON.stringify(label)} + ' ' + argv.join(',')); return 3; };\n`,
  );
}

function run(dir: string, command = 'diff', input = 'x.yaml'): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(dir, 'bin', 'node-services'), command, input], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('bin/node-services start-up code cache', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  test('GIVEN no cache WHEN run twice THEN both runs behave alike, the first writes the cache and the second keeps it', () => {
    const { dir, cache } = install('first');
    dirs.push(dir);
    expect(run(dir)).toEqual({ status: 3, stdout: 'first diff,x.yaml', stderr: '' });
    expect(fs.existsSync(cache)).toBe(true);
    expect(fs.readFileSync(cache).subarray(0, 25).toString()).toBe('node-services code cache ');
    const written = fs.statSync(cache).mtimeMs;
    expect(run(dir)).toEqual({ status: 3, stdout: 'first diff,x.yaml', stderr: '' });
    expect(fs.statSync(cache).mtimeMs).toBe(written);
  });

  test('GIVEN a cached bundle WHEN it is replaced by one of the same size and timestamp THEN the new bundle runs', () => {
    const { dir, bundle, cache } = install('old');
    dirs.push(dir);
    const time = new Date('2026-01-01T00:00:00Z');
    fs.utimesSync(bundle, time, time);
    run(dir);
    const stat = fs.statSync(bundle);
    const before = fs.readFileSync(cache);
    // WHEN the content changes but size and modification time are restored
    writeBundle(bundle, 'new');
    fs.utimesSync(bundle, time, time);
    expect([fs.statSync(bundle).size, fs.statSync(bundle).mtimeMs]).toEqual([stat.size, stat.mtimeMs]);
    // THEN the new code runs, and the cache is written again
    expect(run(dir).stdout).toBe('new diff,x.yaml');
    expect(fs.readFileSync(cache).equals(before)).toBe(false);
    expect(run(dir).stdout).toBe('new diff,x.yaml');
  });

  test('GIVEN a corrupt cache file THEN the CLI runs normally and replaces it', () => {
    const { dir, cache } = install('fine');
    dirs.push(dir);
    run(dir);
    const header = fs.readFileSync(cache).subarray(0, fs.readFileSync(cache).indexOf(10) + 1);
    fs.writeFileSync(cache, Buffer.concat([header, Buffer.from('not a V8 code cache')]));
    expect(run(dir)).toEqual({ status: 3, stdout: 'fine diff,x.yaml', stderr: '' });
    expect(fs.readFileSync(cache).length).toBeGreaterThan(header.length + 'not a V8 code cache'.length);
  });

  test('GIVEN lint of a large input (run with other V8 flags) and another command WHEN run in turns THEN each keeps a cache file of its own, written once', () => {
    const { dir, cache } = install('both');
    dirs.push(dir);
    const lintCache = cache.replace(/\.cache$/, '.lint.cache');
    // A folder is a large input (as are standard input and files of 4 MiB or more together).
    expect(run(dir, 'lint', dir)).toEqual({ status: 3, stdout: `both lint,${dir}`, stderr: '' });
    expect(run(dir)).toEqual({ status: 3, stdout: 'both diff,x.yaml', stderr: '' });
    const written = [fs.statSync(lintCache).mtimeMs, fs.statSync(cache).mtimeMs];
    expect(run(dir, 'lint', dir)).toEqual({ status: 3, stdout: `both lint,${dir}`, stderr: '' });
    expect(run(dir)).toEqual({ status: 3, stdout: 'both diff,x.yaml', stderr: '' });
    expect([fs.statSync(lintCache).mtimeMs, fs.statSync(cache).mtimeMs]).toEqual(written);
  });

  test('GIVEN lint of small files WHEN run THEN it runs with the default flags and cache; 4 MiB of files make a large input', () => {
    const { dir, cache } = install('sizes');
    dirs.push(dir);
    const lintCache = cache.replace(/\.cache$/, '.lint.cache');
    const small = path.join(dir, 'small.yaml');
    fs.writeFileSync(small, 'kind: DaemonSet\n');
    expect(run(dir, 'lint', small)).toEqual({ status: 3, stdout: `sizes lint,${small}`, stderr: '' });
    expect([fs.existsSync(cache), fs.existsSync(lintCache)]).toEqual([true, false]);
    const large = path.join(dir, 'large.yaml');
    fs.writeFileSync(large, '#'.repeat(4 << 20));
    expect(run(dir, 'lint', large)).toEqual({ status: 3, stdout: `sizes lint,${large}`, stderr: '' });
    expect(fs.existsSync(lintCache)).toBe(true);
  });

  test('GIVEN a cache written by a help run WHEN a command runs THEN it replaces the cache once, and a later help run keeps it', () => {
    const { dir, cache } = install('help');
    dirs.push(dir);
    const headerLine = () => fs.readFileSync(cache).subarray(0, fs.readFileSync(cache).indexOf(10)).toString();
    run(dir, '--help');
    expect(headerLine()).toMatch(/ partial$/);
    expect(run(dir)).toEqual({ status: 3, stdout: 'help diff,x.yaml', stderr: '' });
    expect(headerLine()).toMatch(/ complete$/);
    const written = fs.statSync(cache).mtimeMs;
    run(dir, '--help');
    run(dir);
    expect(fs.statSync(cache).mtimeMs).toBe(written);
  });

  test('GIVEN a bundle that fails THEN the error is reported as an internal error with exit code 2', () => {
    const { dir, bundle } = install('unused');
    dirs.push(dir);
    fs.writeFileSync(bundle, `exports.main = async () => { throw new Error('boom'); };\n`);
    const r = run(dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('node-services: internal error: Error: boom');
  });

  test("GIVEN a reader that closes the pipe early (| head) THEN the output stops quietly and the exit code is the command's", () => {
    const { dir, bundle } = install('unused');
    dirs.push(dir);
    fs.writeFileSync(
      bundle,
      'exports.main = async () => { for (let i = 0; i < 20000; i++) process.stdout.write(`line ${i} ${"x".repeat(60)}\\n`);' +
        ' await new Promise((r) => setTimeout(r, 20)); process.stdout.write("after\\n"); return 3; };\n',
    );
    const script = `"${process.execPath}" "${path.join(dir, 'bin', 'node-services')}" diff x.yaml | head -n 1; echo "status=\${PIPESTATUS[0]}" >&2`;
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
    expect(r.stdout).toBe(`line 0 ${'x'.repeat(60)}\n`);
    expect(r.stderr).toBe('status=3\n');
  });

  test.each([
    ['ASCII (read as Latin-1)', '\\u00d7 \\u{1f680}', '\u00d7 \u{1f680}'],
    ['UTF-8 (read as UTF-8)', '\u00d7 \u{1f680}', '\u00d7 \u{1f680}'],
  ])(
    'GIVEN a bundle whose text is %s WHEN run twice (cache written, then used) THEN its strings print as written',
    (_what, literal, printed) => {
      const { dir, bundle } = install('unused');
      dirs.push(dir);
      fs.writeFileSync(bundle, `exports.main = async () => { process.stdout.write("${literal}"); return 0; };\n`);
      expect(run(dir)).toEqual({ status: 0, stdout: printed, stderr: '' });
      expect(run(dir)).toEqual({ status: 0, stdout: printed, stderr: '' });
    },
  );
});
