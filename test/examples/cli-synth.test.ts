import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const WORK = path.join(ROOT, 'test', '.cli-synth');

/** Runs `npx cdk8s synth` on a TypeScript app that builds the examples platform and then applies `change`. */
function synthWith(name: string, change: string): { status: number | null; output: string } {
  fs.mkdirSync(WORK, { recursive: true });
  const app = path.join(WORK, `${name}.ts`);
  fs.writeFileSync(
    app,
    `import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { NodePool, NodeService, Suppressions } from '../../src';
import { buildPlatform } from '../../examples/platform';
import { synthesize } from '../../examples/synthesize';
const app = new App();
const { agents } = buildPlatform(app);
void kplus; void NodePool; void NodeService; void Suppressions; void Chart;
${change}
synthesize(app);
`,
  );
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-synth-'));
  const r = spawnSync('npx', ['cdk8s', 'synth', '--no-check-upgrade', '--app', `npx tsx ${path.relative(ROOT, app)}`, '--output', out], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  fs.rmSync(out, { recursive: true, force: true });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

afterAll(() => fs.rmSync(WORK, { recursive: true, force: true }));

describe('npx cdk8s synth of the examples', () => {
  const violation = `
const legacy = new kplus.DaemonSet(agents, 'legacy', {
  containers: [{ image: 'registry.example.com/platform/legacy-agent', resources: {} }],
});`;

  test('GIVEN an example that violates an error rule THEN synth fails with the construct path, the rule, the field and the fix', () => {
    const r = synthWith('violation', violation);
    expect(r.status).not.toBe(0);
    // Each finding starts with the construct path once: no '[]' of the App, no '/Resource' of the wrapped object.
    expect(r.output).toContain('\n  [node-agents/legacy] image-not-pinned:');
    expect(r.output).not.toContain('[] ');
    expect(r.output).not.toContain('/Resource]');
    expect(r.output).toMatch(/at spec\.template\.spec\.containers\[0\]\.image\. Fix: /);
    expect(r.output).toContain('memory-limit-missing');
    // The app prints the findings, not a stack trace (the cdk8s CLI adds only its own 'returned a non-zero exit code').
    expect(r.output).not.toContain('at validate');
    expect(r.output).not.toContain('node_modules/cdk8s/');
  }, 60_000);

  test('GIVEN the same violation suppressed with reasons THEN synth passes again', () => {
    const r = synthWith(
      'suppressed',
      `${violation}
Suppressions.add(legacy, 'image-not-pinned', 'the legacy registry only publishes a rolling tag');
Suppressions.add(legacy, 'memory-limit-missing', 'the legacy agent is memory-bounded by its own config');`,
    );
    expect([r.status, r.output]).toEqual([0, expect.stringContaining('Synthesizing application')]);
  }, 60_000);

  test('GIVEN a node service that must cover a pool it cannot THEN synth fails naming the pool and the reason', () => {
    const r = synthWith(
      'coverage',
      `new NodeService(agents, 'edge-agent', {
  name: 'edge-agent',
  containers: [{ name: 'agent', image: 'registry.example.com/edge-agent:1.0.0', readiness: undefined }],
  pools: [NodePool.edge()],
  nodeSelector: { 'kubernetes.io/os': 'linux', 'node.example.com/pool': 'general' },
});`,
    );
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('[node-agents/edge-agent] coverage: DaemonSet edge-agent would not run on node pool "edge": nodeSelector');
    expect(r.output).toContain('Fix:');
  }, 60_000);

  test('GIVEN a construct with invalid props THEN synth prints the error message only (no stack, no dump of its fields)', () => {
    const r = synthWith(
      'bad-props',
      `new NodeService(agents, 'bad', { name: 'Bad_Name', containers: [{ name: 'agent', image: 'registry.example.com/agent:latest' }] });`,
    );
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('Validation failed with the following errors:');
    expect(r.output).toContain('  [node-agents/bad] invalid props (2 problems):');
    expect(r.output).toContain('    - name = "Bad_Name": must consist of lower-case alphanumeric characters');
    // No stack frame of the library or the app (the cdk8s CLI may add its own about the exit code).
    expect(r.output).not.toMatch(/^\s+at .*(src|\.cli-synth)\//m);
    expect(r.output).not.toContain('constructPath:');
    expect(r.output).not.toContain('problems: [');
  }, 60_000);
});
