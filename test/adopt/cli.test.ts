import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../support/cli';
import { strictDiagnostics } from './support';

const ROOT = path.join(__dirname, '..', '..');
const OUT = path.join(ROOT, 'test', '.adopt', 'cli');
const FIXTURE = 'test/fixtures/import/log-agent-chart.yaml';
const DOC = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The fenced block that follows `label` in the README's import walkthrough. */
function blockAfter(label: string): string {
  const start = DOC.indexOf(label);
  if (start < 0) throw new Error(`README.md has no ${label}`);
  const m = /```[a-z]*\n([\s\S]*?)```/.exec(DOC.slice(start + label.length));
  if (m === null) throw new Error(`README.md has no block after ${label}`);
  return m[1];
}

describe('node-services import', () => {
  test('GIVEN the chart render of the README walkthrough WHEN imported with --check THEN the files and the summary are the ones the page shows, byte for byte', async () => {
    fs.rmSync(OUT, { recursive: true, force: true });
    const run = await runCli(['import', FIXTURE, '--out', OUT, '--check']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(blockAfter('The chart render (`test/fixtures/import/log-agent-chart.yaml`):')).toBe(
      fs.readFileSync(path.join(ROOT, FIXTURE), 'utf8'),
    );
    expect(blockAfter('--out imported --check\n```\n')).toBe(run.out.split(OUT).join('imported'));
    for (const file of ['main.ts', 'log-agent.ts', 'IMPORT-REPORT.md']) {
      expect({ file, text: blockAfter(`\`imported/${file}\`:`) }).toEqual({ file, text: fs.readFileSync(path.join(OUT, file), 'utf8') });
    }
    expect(fs.readdirSync(OUT).sort()).toEqual(['IMPORT-REPORT.md', 'log-agent.ts', 'main.ts']);
  }, 60_000);

  test('GIVEN the generated app the README shows WHEN compiled (strict) and run THEN it synthesizes the DaemonSet', () => {
    // GIVEN the page's main.ts and module, as a reader copies them
    // (inside the repository, so that cdk8s and constructs resolve from its node_modules)
    const dir = path.join(ROOT, 'test', '.adopt', 'doc-app');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const files = ['main.ts', 'log-agent.ts'].map((file) => {
      fs.writeFileSync(path.join(dir, file), blockAfter(`\`imported/${file}\`:`));
      return path.join(dir, file);
    });
    // WHEN compiled strictly against the library
    expect(strictDiagnostics(files, dir)).toEqual([]);
    // THEN running main.ts writes the DaemonSet
    const outdir = path.join(dir, 'dist');
    const previous = process.env.CDK8S_OUTDIR;
    process.env.CDK8S_OUTDIR = outdir;
    try {
      jest.isolateModules(() => require(files[0]));
    } finally {
      if (previous === undefined) delete process.env.CDK8S_OUTDIR;
      else process.env.CDK8S_OUTDIR = previous;
    }
    const yaml = fs
      .readdirSync(outdir)
      .map((f) => fs.readFileSync(path.join(outdir, f), 'utf8'))
      .join('\n');
    expect(yaml).toMatch(/^kind: DaemonSet$/m);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('GIVEN --format json WHEN imported with --check THEN the report is JSON with the chosen kind and zero unexplained', async () => {
    const run = await runCli(['import', FIXTURE, '--out', OUT, '--check', '--format', 'json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out);
    expect(report.checked).toBe(true);
    expect(report.unexplained).toBe(0);
    expect(report.services.map((s: any) => [s.daemonSet, s.construct, s.kind])).toEqual([
      ['logging/log-agent', 'NodeService', 'log-agent'],
    ]);
  }, 60_000);

  test('GIVEN the chart render WHEN imported with --check THEN the cluster-scoped objects the report names have no namespace', async () => {
    const run = await runCli(['import', FIXTURE, '--out', OUT, '--check', '--format', 'json']);
    expect(run.code).toBe(0);
    const added: string[] = JSON.parse(run.out).objectsAdded;
    // The library creates a ClusterRole and a ClusterRoleBinding for the apiAccess of the chart's ServiceAccount.
    expect(added.filter((o) => /^ClusterRole(Binding)? /.test(o)).length).toBe(2);
    for (const o of added) expect({ o, namespaced: o.includes('/') }).toEqual({ o, namespaced: !/^Cluster/.test(o) });
  }, 60_000);

  test('GIVEN import --help WHEN docs/cli.md is read THEN its import table has a row for every option', async () => {
    const help = (await runCli(['import', '--help'])).out;
    const flags = [...help.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]).filter((f) => f !== '--help');
    expect(flags).toEqual(expect.arrayContaining(['--out', '--nodes', '--kubernetes-version', '--check']));
    const cli = fs.readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8');
    const section = cli.slice(cli.indexOf('## `node-services import'));
    const rows = section.split('\n').filter((l) => l.startsWith('| `'));
    const missing = flags.filter((f) => !rows.some((r) => r.split('|')[1].includes(f)));
    expect(missing).toEqual([]);
  });

  test('GIVEN the 1.30 cilium render WHEN imported with --kubernetes-version 1.28 THEN the field 1.28 lacks is reported with its file and 1.30, and the import exits 1', async () => {
    const dir = path.join(OUT, 'k8s-1.28');
    const run = await runCli([
      'import',
      'test/fixtures/real-world/cilium-agent-helm-k8s-1.30.yaml',
      '--out',
      dir,
      '--kubernetes-version',
      '1.28',
    ]);
    expect(run.code).toBe(1);
    expect(run.out).toContain('Target: Kubernetes 1.28, as asked for; the lowest version whose API has every field of the input is 1.30');
    expect(run.out).toContain(
      '  DaemonSet kube-system/cilium in test/fixtures/real-world/cilium-agent-helm-k8s-1.30.yaml: unknown field "spec.template.spec.securityContext.appArmorProfile": appArmorProfile exists from Kubernetes 1.30; the target is 1.28\n',
    );
  }, 60_000);

  test('GIVEN an unsupported --kubernetes-version WHEN imported THEN it is a usage error (exit 2) naming the supported versions, and nothing is written', async () => {
    const dir = path.join(OUT, 'bad-version');
    fs.rmSync(dir, { recursive: true, force: true });
    const run = await runCli(['import', FIXTURE, '--out', dir, '--kubernetes-version', '1.3']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('--kubernetes-version "1.3"');
    expect(run.err).toContain('1.28, 1.29, 1.30, 1.31, 1.32, 1.33');
    expect(fs.existsSync(dir)).toBe(false);
  });

  test('GIVEN --kind WHEN the DaemonSet has no kind annotation THEN the option decides the kind and the report says so', async () => {
    const run = await runCli(['import', FIXTURE, '--out', OUT, '--kind', 'node-service', '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).services[0].reason).toBe('--kind node-service was given');
  }, 60_000);

  test('GIVEN an input without a DaemonSet WHEN imported THEN it is refused with exit 2 and nothing is written', async () => {
    const dir = path.join(OUT, 'none');
    fs.rmSync(dir, { recursive: true, force: true });
    const run = await runCli(['import', '-', '--out', dir], { stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n' });
    expect(run.code).toBe(2);
    expect(run.err).toContain('no DaemonSet to import');
    expect(fs.existsSync(dir)).toBe(false);
  });

  test('GIVEN an unknown --kind WHEN imported THEN it is a usage error (exit 2)', async () => {
    const run = await runCli(['import', FIXTURE, '--out', OUT, '--kind', 'log']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('log-agent');
  });

  test('GIVEN a live dump (kubectl get -o yaml) WHEN imported THEN the server-set fields are stripped and listed', async () => {
    const dump = fs
      .readFileSync(path.join(ROOT, FIXTURE), 'utf8')
      .replace(
        'kind: DaemonSet\nmetadata:\n',
        'kind: DaemonSet\nmetadata:\n  uid: 0d5d1c1e-0000-4000-8000-000000000000\n  resourceVersion: "4711"\n  generation: 3\n' +
          '  creationTimestamp: "2026-01-01T00:00:00Z"\n  managedFields: [{manager: kubectl, operation: Update}]\n' +
          '  annotations:\n    deprecated.daemonset.template.generation: "3"\n',
      )
      .concat('status:\n  desiredNumberScheduled: 3\n  numberReady: 3\n');
    const run = await runCli(['import', '-', '--out', OUT, '--check', '--format', 'json'], { stdin: dump });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out);
    expect(report.unexplained).toBe(0);
    expect(report.stripped.map((s: any) => s.field).sort()).toEqual(
      [
        'metadata.annotations["deprecated.daemonset.template.generation"]',
        'metadata.creationTimestamp',
        'metadata.generation',
        'metadata.managedFields',
        'metadata.resourceVersion',
        'metadata.uid',
        'status',
      ].sort(),
    );
  }, 60_000);
});
