import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { stringify } from 'yaml';
import { Run, runCli } from '../support/cli';
import { daemonSet } from '../day2/support';
import { mergeShapes, readmeBlock, shapeLines, shapeOf } from '../day2/shape';

// Several CLI runs per test on a shared machine: time is not what these tests check.
jest.setTimeout(60_000);

const ROOT = path.join(__dirname, '..', '..');
const rel = (p: string) => path.relative(process.cwd(), path.join(ROOT, p));
const OLD = rel('test/fixtures/day2/examples-old');
const NEW = rel('test/fixtures/day2/examples-new');
const NODES = rel('test/fixtures/nodes.json');

function diff(args: string[], stdin?: string): Promise<Run> {
  return runCli(['diff', ...args], { stdin });
}

function tempFiles(files: Record<string, unknown[]>): Record<string, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-test-'));
  const out: Record<string, string> = {};
  for (const [name, objects] of Object.entries(files)) {
    out[name] = path.join(dir, `${name}.yaml`);
    fs.writeFileSync(out[name], objects.map((o) => stringify(o)).join('---\n'));
  }
  return out;
}

describe('node-services diff: the examples app', () => {
  test('GIVEN the change to the examples THEN the text names each DaemonSet, how it changed and the nodes per pool', async () => {
    const run = await diff([OLD, NEW, '--nodes', NODES]);
    expect(run.code).toBe(0);
    expect(run.out).toContain('DaemonSet node-services/fluent-bit: configuration only (config hash moved): rollout');
    expect(run.out).toContain('DaemonSet node-services/node-exporter: pod template changed: rollout');
    expect(run.out).toContain(
      '  ~ spec.template.spec.containers[exporter].image: "quay.io/prometheus/node-exporter:v1.8.2" → "quay.io/prometheus/node-exporter:v1.8.3"',
    );
    expect(run.out).toContain('    node.example.com/pool=gpu: gpu-a-1');
    expect(run.out).toContain('  WIDENING rbac: may now create, patch events (ServiceAccount node-services/ebs-csi-node)');
    expect(run.out).toContain(
      'DaemonSets: 0 added, 0 removed, 2 rolled out (1 configuration only), 1 changed without a rollout, 3 unchanged;',
    );
    expect(run.err).toBe('');
  });

  test('GIVEN --format markdown THEN the output is the README example, byte for byte', async () => {
    const run = await diff([OLD, NEW, '--nodes', NODES, '--format', 'markdown']);
    expect(run.code).toBe(0);
    expect(run.out).toBe(readmeBlock('diff-markdown-example', 'markdown'));
  });

  test('GIVEN --format json THEN its shape is exactly the one documented in the README', async () => {
    // GIVEN runs that together produce every field: the examples (nodes, rollout, rbac) and a hand-made change
    // with a host path, a selector change, a removed and an added DaemonSet (start / stop nodes).
    const before = daemonSet();
    const after = daemonSet({
      image: 'x:2',
      spec: { nodeSelector: { 'kubernetes.io/hostname': 'worker-a-1' }, volumes: [{ name: 'h', hostPath: { path: '/run/udev' } }] },
      container: { volumeMounts: [{ name: 'h', mountPath: '/h', readOnly: true }] },
    });
    after.spec.selector.matchLabels.extra = 'x';
    const wide = daemonSet({ name: 'wide', spec: { tolerations: [{ operator: 'Exists' }] } });
    const files = tempFiles({ old: [before, daemonSet({ name: 'wide' }), daemonSet({ name: 'gone' })], new: [after, wide] });
    const runs = [
      await diff([OLD, NEW, '--nodes', NODES, '--format', 'json']),
      await diff([files.old, files.new, '--nodes', NODES, '--format', 'json']),
    ];
    const outputs = runs.map((r) => JSON.parse(r.out));
    const opaque = ['$.daemonSets[].changes[].old', '$.daemonSets[].changes[].new'];
    const actual = mergeShapes(outputs.map((o) => shapeOf(o, opaque)));
    const documented = shapeOf(JSON.parse(readmeBlock('diff-json-shape', 'json')), opaque);
    // THEN the paths and their types are the documented ones (changed values may be any JSON)
    const lines = (s: Map<string, Set<string>>) =>
      shapeLines(s).map((l) => (opaque.some((o) => l.startsWith(`${o}:`)) ? l.split(':')[0] : l));
    expect(lines(actual)).toEqual(lines(documented));
    // AND the hand-made change shows what it should
    const byName = new Map(outputs[1].daemonSets.map((d: any) => [d.name, d]));
    expect((byName.get('agent') as any).selectorChanged).toBe(true);
    expect((byName.get('agent') as any).nodes.stop[0].nodes).toContain('worker-b-1');
    expect((byName.get('wide') as any).nodes.start.map((p: any) => p.nodes).flat()).toContain('cp-1');
    expect((byName.get('gone') as any).change).toBe('removed');
  });

  test('GIVEN --format sarif THEN a SARIF 2.1.0 log with the widening as a warning on the new file', async () => {
    const run = await diff([OLD, NEW, '--format', 'sarif']);
    const log = JSON.parse(run.out);
    expect(log.version).toBe('2.1.0');
    const results = log.runs[0].results;
    expect(results.map((r: any) => [r.ruleId, r.level])).toEqual([
      ['daemonset-rollout', 'note'],
      ['daemonset-rollout', 'note'],
      ['daemonset-security-widening', 'warning'],
    ]);
    expect(results[2].locations[0].physicalLocation.artifactLocation.uri).toBe(`${NEW.replace(/\\/g, '/')}/0001-node-agents.k8s.yaml`);
    expect(results[2].locations[0].physicalLocation.region.startLine).toBe(765);
  });
});

describe('node-services diff: exit codes', () => {
  test('GIVEN --fail-on widening THEN 1 on the examples; --fail-on selector,removed THEN 0', async () => {
    expect((await diff([OLD, NEW, '--fail-on', 'widening'])).code).toBe(1);
    expect((await diff([OLD, NEW, '--fail-on', 'rbac'])).code).toBe(1);
    expect((await diff([OLD, NEW, '--fail-on', 'selector,removed'])).code).toBe(0);
    expect((await diff([OLD, NEW, '--fail-on', 'config'])).code).toBe(1);
  });

  test('GIVEN a selector change THEN the report says to re-create the DaemonSet and --fail-on selector exits 1', async () => {
    const after = daemonSet();
    after.spec.selector.matchLabels['app.kubernetes.io/instance'] = 'agent';
    after.spec.template.metadata.labels['app.kubernetes.io/instance'] = 'agent';
    const files = tempFiles({ old: [daemonSet()], new: [after] });
    const run = await diff([files.old, files.new, '--fail-on', 'widening,selector']);
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      'ERROR spec.selector changed: the API server refuses the update (the selector is immutable); delete and re-create the DaemonSet',
    );
    const md = await diff([files.old, files.new, '--format', 'markdown']);
    expect(md.out).toContain('> [!CAUTION]');
  });

  test('GIVEN an unknown --fail-on value THEN 2 with the choices', async () => {
    const run = await diff([OLD, NEW, '--fail-on', 'widening,bogus']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('unknown "bogus"; choose from selector, widening, added, removed, rollout, config, metadata, host-path');
  });

  test('GIVEN unreadable input THEN 2 with the file (missing, malformed, a DaemonSet without containers)', async () => {
    const missing = await diff([OLD, 'no/such/dir']);
    expect([missing.code, missing.err]).toEqual([2, 'node-services: no/such/dir: no such file or directory (<new>)\n']);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-test-'));
    fs.writeFileSync(path.join(dir, 'bad.yaml'), 'kind: DaemonSet\nmetadata: {name: x\n');
    const malformed = await diff([OLD, path.join(dir, 'bad.yaml')]);
    expect(malformed.code).toBe(2);
    expect(malformed.err).toMatch(/bad\.yaml:\d+:\d+: /);
    fs.writeFileSync(path.join(dir, 'empty.yaml'), 'kind: DaemonSet\nmetadata: {name: x}\nspec: {}\n');
    const empty = await diff([OLD, path.join(dir, 'empty.yaml')]);
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('has no spec.template.spec.containers');
    const nodes = await diff([OLD, NEW, '--nodes', path.join(dir, 'empty.yaml')]);
    expect([nodes.code, nodes.err]).toEqual([2, expect.stringContaining('DaemonSet "x", not a Node; --nodes expects Node objects')]);
  });

  test('GIVEN both inputs on standard input THEN 2', async () => {
    const run = await diff(['-', '-']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('standard input (-) can be read only once, but <old> and <new> both use it');
  });

  test('GIVEN one input on standard input THEN it is read', async () => {
    const files = tempFiles({ old: [daemonSet()] });
    const run = await diff([files.old, '-', '--format', 'json'], stringify(daemonSet({ image: 'x:9' })));
    expect(JSON.parse(run.out).daemonSets[0].change).toBe('rollout');
  });

  test('--help describes the command, its formats and --fail-on values', async () => {
    const run = await diff(['--help']);
    expect(run.code).toBe(0);
    expect(run.out).toContain('Usage: node-services diff [options] <old> <new>');
    expect(run.out).toContain('"markdown"');
    expect(run.out).toContain('pod-security');
  });
});

describe('node-services diff: lists with keys', () => {
  test('GIVEN a toleration added in front and two env vars swapped THEN the output is the example of docs/reading-reports.md', async () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'reading-reports.md'), 'utf8');
    const block = /<!-- keyed-diff-example:start -->\s*```console\n\$ node-services diff (\S+) (\S+)\n([\s\S]*?)```/.exec(doc);
    expect(block).not.toBeNull();
    const [, oldFile, newFile, output] = block!;
    const run = await diff([rel(oldFile), rel(newFile)]);
    expect(run.code).toBe(0);
    expect(run.out).toBe(output);
    // AND the added toleration is one added item, not a change of the first toleration
    expect(run.out).not.toContain('tolerations[0]');
    expect(run.out).toContain('  + spec.template.spec.tolerations[key=nvidia.com/gpu,operator=Exists,effect=NoSchedule]: ');
  });
});
