import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../support/cli';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const NODES = path.join(FIXTURES, 'nodes.json');
const MANIFESTS = path.join(FIXTURES, 'coverage', 'daemonsets.yaml');

jest.setTimeout(60_000);

describe('node-services coverage --output html', () => {
  test('GIVEN the fixture cluster THEN one page with inline CSS and nothing to load', async () => {
    const run = await runCli(['coverage', MANIFESTS, '--nodes', NODES, '--output', 'html']);
    expect(run.code).toBe(0);
    expect(run.out.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(run.out).toContain('<style>');
    expect(run.out).not.toMatch(/<script|<link|<img|src=|url\(|@import/i);
    expect(run.out).toContain('<table class="matrix"><caption>');
    expect(run.out).toContain('<th scope="col"');
    expect(run.out).toContain('<th scope="row"');
  });

  test('GIVEN a fleet of 3000 nodes THEN the page aggregates: it lists a bounded sample of node names, not every node', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverage-html-'));
    const items = Array.from({ length: 3000 }, (_, i) => ({
      kind: 'Node',
      metadata: { name: `node-${i}`, labels: { 'kubernetes.io/os': 'linux', pool: `pool-${i % 3}` } },
      status: { allocatable: { cpu: '4', memory: '16Gi', pods: '110' } },
    }));
    const nodes = path.join(dir, 'nodes.json');
    fs.writeFileSync(nodes, JSON.stringify({ kind: 'NodeList', items }));
    const run = await runCli(['coverage', MANIFESTS, '--nodes', nodes, '--pool-label', 'pool', '--output', 'html']);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(run.code).toBe(0);
    const named = new Set(run.out.match(/node-\d+/g));
    // 3 pools × 4 DaemonSets × a few groups × 5 names, at most
    expect(named.size).toBeLessThan(200);
    expect(run.out).toContain('and 995 more');
  });

  test('GIVEN stderr is a terminal THEN progress on stderr; GIVEN it is not THEN nothing', async () => {
    const args = ['coverage', MANIFESTS, '--nodes', NODES, '--output', 'html'];
    const tty = await runCli(args, { errIsTTY: true });
    expect(tty.err).toContain('node-services: reading nodes');
    expect(tty.err).toContain('node-services: analyzing 9 nodes');
    expect(tty.err).toContain('node-services: writing the html report');
    const piped = await runCli(args, { errIsTTY: false });
    expect(piped.err).not.toContain('node-services: reading');
    expect(piped.err).not.toContain('analyzing');
    // the report is the same either way
    expect(piped.out).toBe(tty.out);
  });

  test('GIVEN plan and stderr a terminal THEN progress; GIVEN not THEN nothing', async () => {
    const root = path.join(__dirname, '..', '..');
    const args = ['plan', path.join(root, 'test/fixtures/day2/examples-new'), '--old', path.join(root, 'test/fixtures/day2/examples-old')];
    const tty = await runCli([...args, '--nodes', NODES], { errIsTTY: true });
    expect(tty.err).toContain('node-services: planning the rollouts over 9 nodes');
    const piped = await runCli([...args, '--nodes', NODES]);
    expect(piped.err).toBe('');
  });
});
