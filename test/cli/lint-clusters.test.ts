/**
 * `node-services lint` of a fleet's output: a folder that records a cluster's Kubernetes version (`kubernetes-version`,
 * written by Fleet.synth()) is checked at that version, as one cluster; `--kubernetes-version` checks all at one.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Run, runCli } from '../support/cli';

const ROOT = path.join(__dirname, '..', '..');
const CILIUM_130 = path.join(ROOT, 'test', 'fixtures', 'real-world', 'cilium-agent-helm-k8s-1.30.yaml');

function lint(args: string[]): Promise<Run> {
  return runCli(['lint', ...args]);
}

/** A fleet-like folder: clusters/<name>/ with the Cilium chart rendered for 1.30 and, when given, a version file. */
function fleet(versions: { [cluster: string]: string | undefined }): { dir: string; done: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-clusters-'));
  for (const [name, version] of Object.entries(versions)) {
    fs.mkdirSync(path.join(dir, 'clusters', name), { recursive: true });
    fs.copyFileSync(CILIUM_130, path.join(dir, 'clusters', name, 'cilium.yaml'));
    if (version !== undefined) fs.writeFileSync(path.join(dir, 'clusters', name, 'kubernetes-version'), `${version}\n`);
  }
  return { dir, done: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const unknownFieldErrors = (run: Run) =>
  JSON.parse(run.out)
    .findings.filter((f: any) => f.ruleId === 'unknown-field' && f.severity === 'error' && !f.suppressed)
    .map((f: any) => f.file.split(path.sep).slice(-2, -1)[0]);

test('GIVEN the examples dist/ (a 1.28 app and a fleet with a 1.30 cluster) THEN lint of the whole folder finds no error', async () => {
  const run = await lint(['--quiet', path.join(ROOT, 'dist')]);
  expect(run.err).toBe('');
  expect(run.code).toBe(0);
});

test('each cluster folder is checked at the version it records; --kubernetes-version checks every folder at one version', async () => {
  // GIVEN the same 1.30 render in a 1.30 cluster, a 1.28 cluster and a folder without a version
  const f = fleet({ new: '1.30', old: '1.28', unversioned: undefined });
  try {
    const run = await lint(['--output', 'json', f.dir]);
    // THEN only the 1.28 and the unversioned (1.28 default) folders refuse appArmorProfile
    expect(unknownFieldErrors(run)).toEqual(['old', 'unversioned']);
    expect(run.code).toBe(1);
    // AND the findings stay in input order (folders sorted by name)
    const files = JSON.parse(run.out).findings.map((x: any) => x.file);
    expect(files).toEqual([...files].sort());
    // AND the flag overrides the recorded versions
    expect(unknownFieldErrors(await lint(['--output', 'json', '--kubernetes-version', '1.30', f.dir]))).toEqual([]);
    expect(unknownFieldErrors(await lint(['--output', 'json', '--kubernetes-version', '1.28', f.dir]))).toEqual([
      'new',
      'old',
      'unversioned',
    ]);
  } finally {
    f.done();
  }
});

test('a version file that is not a supported version is an input problem naming it (exit 2); its objects are still checked', async () => {
  const f = fleet({ odd: '1.3' });
  try {
    const run = await lint(['--output', 'json', f.dir]);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`${path.join(f.dir, 'clusters', 'odd', 'kubernetes-version')}: "1.3"`);
    expect(unknownFieldErrors(run)).toEqual(['odd']);
  } finally {
    f.done();
  }
});
