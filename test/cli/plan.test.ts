import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { stringify } from 'yaml';
import { Run, runCli } from '../support/cli';
import { daemonSet, node, nodes, podOf } from '../day2/support';
import { mergeShapes, readmeBlock, shapeLines, shapeOf } from '../day2/shape';

// Several CLI runs per test on a shared machine: time is not what these tests check.
jest.setTimeout(60_000);

const ROOT = path.join(__dirname, '..', '..');
const rel = (p: string) => path.relative(process.cwd(), path.join(ROOT, p));
const OLD = rel('test/fixtures/day2/examples-old');
const NEW = rel('test/fixtures/day2/examples-new');
const NODES = rel('test/fixtures/nodes.json');

function plan(args: string[]): Promise<Run> {
  return runCli(['plan', ...args]);
}

function write(dir: string, name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, name.endsWith('.json') ? JSON.stringify(value) : (value as unknown[]).map((o) => stringify(o)).join('---\n'));
  return file;
}

describe('node-services plan: the examples app', () => {
  test('GIVEN the change to the examples THEN the text is the README example', async () => {
    const run = await plan([NEW, '--old', OLD, '--nodes', NODES]);
    expect(run.code).toBe(0);
    expect(run.out).toBe(readmeBlock('plan-text-example', 'text'));
  });

  test('GIVEN --fail-on-stuck THEN 1, because node-exporter cannot get past the NotReady node', async () => {
    const run = await plan([NEW, '--old', OLD, '--nodes', NODES, '--fail-on-stuck']);
    expect(run.code).toBe(1);
    expect(run.out).toContain('DaemonSet node-services/node-exporter: STUCK');
    expect(run.out).toContain('    worker-notready: node is NotReady: its new pod never becomes available');
  });

  test('GIVEN other per-pod estimates THEN the estimate follows: 8 waves × (5 + 5)', async () => {
    const run = await plan([NEW, '--old', OLD, '--nodes', NODES, '--pull-seconds', '5', '--ready-seconds', '5', '--format', 'json']);
    const fluentBit = JSON.parse(run.out).daemonSets.find((d: any) => d.name === 'fluent-bit');
    expect(fluentBit.estimatedSeconds).toBe(80);
  });
});

describe('node-services plan: JSON', () => {
  test('GIVEN runs with stuck, surge, canary and running pods THEN the JSON shape is exactly the documented one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-test-'));
    const old = daemonSet({ memory: '900Mi' });
    const surging = daemonSet({
      image: 'x:2',
      memory: '900Mi',
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
    });
    const canary = daemonSet({
      name: 'agent-canary',
      annotations: { 'node-services.cdk8s.io/canary-of': 'agent', 'node-services.cdk8s.io/canary-label': 'example.com/canary=true' },
    });
    const cluster = [
      node('small', { allocatable: { cpu: '2', memory: '1Gi', pods: '110' } }),
      node('node-1', { labels: { 'example.com/canary': 'true' } }),
      node('node-2'),
    ];
    const pods = [...cluster.map((n) => podOf(old, n.metadata.name, {})), podOf(canary, 'node-1')];
    const files = {
      old: write(dir, 'old.yaml', [old, canary]),
      new: write(dir, 'new.yaml', [surging, canary]),
      nodes: write(dir, 'nodes.json', { kind: 'NodeList', items: cluster }),
      pods: write(dir, 'pods.json', { kind: 'PodList', items: pods }),
    };
    const runs = [
      await plan([NEW, '--old', OLD, '--nodes', NODES, '--format', 'json']),
      await plan([files.new, '--old', files.old, '--nodes', files.nodes, '--pods', files.pods, '--format', 'json']),
    ];
    const outputs = runs.map((r) => JSON.parse(r.out));
    const actual = mergeShapes(outputs.map((o) => shapeOf(o)));
    const documented = shapeOf(JSON.parse(readmeBlock('plan-json-shape', 'json')));
    // `estimatedSeconds` is documented as a number that is null when there is no estimate
    documented.get('$.daemonSets[].estimatedSeconds')!.add('null');
    expect(shapeLines(actual)).toEqual(shapeLines(documented));
    const agent = outputs[1].daemonSets.find((d: any) => d.name === 'agent');
    expect(agent.unfit).toEqual([{ node: 'small', reason: 'resources', detail: 'memory: requested 900Mi, free 124Mi of 1Gi allocatable' }]);
    expect(agent.outcome).toBe('stuck');
    const canaryPlan = outputs[1].daemonSets.find((d: any) => d.name === 'agent-canary');
    expect(canaryPlan.canary.commands).toEqual([
      'kubectl label nodes small example.com/canary=true',
      'kubectl label nodes node-2 example.com/canary=true',
    ]);
  });
});

describe('node-services plan: what changes without --old', () => {
  test('GIVEN running pods of the old image THEN the DaemonSet rolls; GIVEN pods of the new one THEN not', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-test-'));
    const ds = daemonSet({ image: 'x:2', strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } } });
    const cluster = nodes(4);
    const stale = write(dir, 'stale.json', { kind: 'PodList', items: cluster.map((n) => podOf(ds, n.metadata.name, { image: 'x:1' })) });
    const fresh = write(dir, 'fresh.json', { kind: 'PodList', items: cluster.map((n) => podOf(ds, n.metadata.name)) });
    const manifests = write(dir, 'ds.yaml', [ds]);
    const nodesFile = write(dir, 'nodes.json', { kind: 'NodeList', items: cluster });
    const rolling = JSON.parse((await plan([manifests, '--nodes', nodesFile, '--pods', stale, '--format', 'json'])).out).daemonSets[0];
    expect([rolling.outcome, rolling.maxUnavailable, rolling.waves.length]).toEqual(['complete', 2, 2]);
    const done = JSON.parse((await plan([manifests, '--nodes', nodesFile, '--pods', fresh, '--format', 'json'])).out).daemonSets[0];
    expect([done.outcome, done.because]).toEqual(['unchanged', 'every pod in --pods runs the new template']);
  });
});

describe('node-services plan: usage errors', () => {
  test('GIVEN neither --old nor --pods THEN 2 and what to give', async () => {
    const run = await plan([NEW, '--nodes', NODES]);
    expect([run.code, run.err]).toEqual([
      2,
      'node-services: plan needs --old (the previous manifests) or --pods (the running pods) to know which DaemonSets change\n',
    ]);
  });

  test('GIVEN no --nodes, or a bad number THEN 2', async () => {
    expect((await plan([NEW, '--old', OLD])).code).toBe(2);
    const bad = await plan([NEW, '--old', OLD, '--nodes', NODES, '--pull-seconds', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('must be an integer of at least 0');
    expect((await plan([NEW, '--old', OLD, '--nodes', NODES, '--canary-wave-size', '0'])).code).toBe(2);
  });

  test('GIVEN an unreadable --old THEN 2', async () => {
    const run = await plan([NEW, '--old', 'nowhere', '--nodes', NODES]);
    expect([run.code, run.err]).toEqual([2, 'node-services: nowhere: no such file or directory (--old)\n']);
  });

  test('--help documents the per-pod estimates and their defaults', async () => {
    const run = await plan(['--help']);
    expect(run.out).toContain('--pull-seconds <n>');
    expect(run.out).toContain('(default: 30)');
    expect(run.out).toContain('--canary-wave-size <n>');
  });
});
