/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { stringify } from 'yaml';
import { daemonSet, node, podOf } from '../day2/support';
import { openReport } from '../support/browser';
import { runCli } from '../support/cli';

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, '..', '..');
const OLD = path.join(ROOT, 'test/fixtures/day2/examples-old');
const NEW = path.join(ROOT, 'test/fixtures/day2/examples-new');
const NODES = path.join(ROOT, 'test/fixtures/nodes.json');

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-plan-report-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What the page shows per DaemonSet: outcome, the waves' node counts, and the problems marked on the timeline. */
async function shownPlan(file: string) {
  return openReport(file, (page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('section.rollout')].map((s) => ({
        service: (s.querySelector('h2 code')?.textContent ?? '').trim(),
        outcome: s.getAttribute('data-outcome'),
        waves: [...s.querySelectorAll('li.wave[data-wave]')].map((w) => Number(/(\d+) nodes?/.exec(w.textContent ?? '')?.[1])),
        deadlock: s.querySelectorAll('[data-problem=deadlock]').length,
        unfit: [...s.querySelectorAll('[data-problem=unfit]')].map((li) => Number(/^(\d+) node/.exec(li.textContent ?? '')?.[1])),
      })),
    ),
  );
}

function expectedOf(json: any) {
  return json.daemonSets.map((d: any) => ({
    service: `${d.namespace}/${d.name}`,
    outcome: d.outcome,
    waves: d.waves.map((w: any) => w.nodes.length),
    deadlock: d.outcome === 'stuck' ? 1 : 0,
    unfit: d.unfit.length > 0 ? [d.unfit.length] : [],
  }));
}

describe('the HTML rollout plan in headless Chromium', () => {
  test('GIVEN the examples change THEN each DaemonSet shows its waves and the deadlock of the JSON output', async () => {
    const args = ['plan', NEW, '--old', OLD, '--nodes', NODES];
    const html = await runCli([...args, '--output', 'html']);
    const json = JSON.parse((await runCli([...args, '--format', 'json'])).out);
    expect(html.code).toBe(0);
    const file = path.join(dir, 'plan.html');
    fs.writeFileSync(file, html.out);
    const opened = await shownPlan(file);
    expect(opened.requests).toEqual([`file://${file}`]);
    expect(opened.errors).toEqual([]);
    expect(opened.result).toEqual(expectedOf(json));
    // the examples' node-exporter cannot get past the NotReady node
    expect(opened.result.find((d) => d.service === 'node-services/node-exporter')?.deadlock).toBe(1);
  });

  test('GIVEN a surge pod that cannot fit THEN it is marked with its node count', async () => {
    const old = daemonSet({ memory: '900Mi' });
    const surging = daemonSet({
      image: 'x:2',
      memory: '900Mi',
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
    });
    const cluster = [node('small', { allocatable: { cpu: '2', memory: '1Gi', pods: '110' } }), node('node-1'), node('node-2')];
    const files = {
      old: path.join(dir, 'old.yaml'),
      new: path.join(dir, 'new.yaml'),
      nodes: path.join(dir, 'n.json'),
      pods: path.join(dir, 'p.json'),
    };
    fs.writeFileSync(files.old, stringify(old));
    fs.writeFileSync(files.new, stringify(surging));
    fs.writeFileSync(files.nodes, JSON.stringify({ kind: 'NodeList', items: cluster }));
    fs.writeFileSync(files.pods, JSON.stringify({ kind: 'PodList', items: cluster.map((n) => podOf(old, n.metadata.name)) }));
    const args = ['plan', files.new, '--old', files.old, '--nodes', files.nodes, '--pods', files.pods];
    const json = JSON.parse((await runCli([...args, '--format', 'json'])).out);
    const file = path.join(dir, 'surge.html');
    fs.writeFileSync(file, (await runCli([...args, '--format', 'html'])).out);
    const opened = await shownPlan(file);
    expect(opened.errors).toEqual([]);
    expect(opened.result).toEqual(expectedOf(json));
    expect(opened.result[0].unfit).toEqual([1]);
  });
});

describe('node-services plan --output', () => {
  test('GIVEN --output and --format that disagree THEN a usage error', async () => {
    const run = await runCli(['plan', NEW, '--old', OLD, '--nodes', NODES, '--output', 'html', '--format', 'json']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('--output html and --format json disagree');
  });
});
