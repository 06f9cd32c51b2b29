/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { openReport, requireChromium } from '../support/browser';
import { runCli } from '../support/cli';
import { NODES, POOL_LABEL, exampleReport, shownMatrix } from './support';

// Each test starts a browser on a shared machine: time is not what these tests check.
jest.setTimeout(120_000);

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-report-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The counts per (pool, service) of the JSON output, with each node's pool read from the fixture's labels. */
function jsonMatrix(json: any, nodes: any[]): Record<string, Record<string, Record<string, number>>> {
  const poolOf = new Map<string, string>(nodes.map((n) => [n.metadata.name, n.metadata.labels[POOL_LABEL]]));
  const out: Record<string, Record<string, Record<string, number>>> = {};
  for (const pool of poolOf.values()) out[pool] = {};
  for (const w of json.workloads) {
    for (const pool of Object.keys(out)) out[pool][`${w.namespace}/${w.name}`] = {};
    for (const n of w.nodes) {
      const cell = out[poolOf.get(n.node)!][`${w.namespace}/${w.name}`];
      cell[n.status] = (cell[n.status] ?? 0) + 1;
    }
  }
  return out;
}

describe('without Chromium', () => {
  test('GIVEN the browser is missing THEN the browser check fails and says how to install it (it never skips)', () => {
    expect(() => requireChromium(path.join(dir, 'no-chromium'))).toThrow(/no-chromium is missing: .*`npm ci` installs one/);
  });
});

describe('the HTML coverage report in headless Chromium', () => {
  test('GIVEN the examples and the fixture cluster THEN the matrix has a row per pool, a column per service and the counts of the JSON output', async () => {
    // GIVEN the report of the examples' dist/ as HTML and as JSON
    const file = path.join(dir, 'report.html');
    fs.writeFileSync(file, await exampleReport('html'));
    const json = JSON.parse(await exampleReport('json'));
    const nodes = JSON.parse(fs.readFileSync(NODES, 'utf8')).items;
    // WHEN Chromium opens it
    const opened = await openReport(file, shownMatrix, { screenshot: path.join(dir, 'report.png') });
    // THEN the page requests nothing but itself and logs no error
    expect(opened.requests).toEqual([`file://${file}`]);
    expect(opened.errors).toEqual([]);
    // AND a screenshot was taken (a PNG)
    expect(fs.readFileSync(path.join(dir, 'report.png')).subarray(1, 4).toString()).toBe('PNG');
    // AND one row per pool of the cluster, one column per DaemonSet of the JSON output
    const expected = jsonMatrix(json, nodes);
    const m = opened.result;
    expect([...m.pools].sort()).toEqual(Object.keys(expected).sort());
    expect(m.pools.length).toBe(5);
    expect(m.services).toEqual(json.workloads.map((w: any) => `${w.namespace}/${w.name}`));
    // AND every cell shows the counts by status of the JSON output's nodes of that pool
    expect(m.cells).toEqual(expected);
    // AND every cell links to an element of the page (the nodes and reasons behind it)
    expect(m.brokenLinks).toEqual([]);
  });

  test('GIVEN node names and pool labels with markup THEN the page shows them as text and runs nothing', async () => {
    // GIVEN a node named like a script tag, in a pool whose label value is an image tag with an error handler
    const hostile = '<script>document.title="pwned"</script>';
    const pool = '<img src=x onerror="document.title=\'pwned\'">';
    const nodes = {
      kind: 'NodeList',
      items: [
        {
          kind: 'Node',
          metadata: { name: hostile, labels: { pool, 'kubernetes.io/os': 'linux' } },
          status: { allocatable: { cpu: '2', memory: '4Gi', pods: '110' } },
        },
      ],
    };
    const nodesFile = path.join(dir, 'hostile-nodes.json');
    fs.writeFileSync(nodesFile, JSON.stringify(nodes));
    const manifests = path.join(__dirname, '..', 'fixtures', 'coverage', 'daemonsets.yaml');
    const run = await runCli(['coverage', manifests, '--nodes', nodesFile, '--pool-label', 'pool', '--output', 'html']);
    expect(run.code).toBe(0);
    const file = path.join(dir, 'hostile.html');
    fs.writeFileSync(file, run.out);
    // WHEN Chromium opens it
    const opened = await openReport(file, (page) =>
      page.evaluate(() => ({
        title: document.title,
        scripts: document.querySelectorAll('script').length,
        images: document.querySelectorAll('img').length,
        pools: [...document.querySelectorAll('table.matrix tbody th[scope=row] code')].map((c) => c.textContent),
        text: document.body.textContent ?? '',
      })),
    );
    // THEN no script ran, no element came from the input, and the names read as written
    expect(opened.result.title).toBe('Node-service coverage');
    expect(opened.result.scripts).toBe(0);
    expect(opened.result.images).toBe(0);
    expect(opened.result.pools).toEqual([pool]);
    expect(opened.result.text).toContain(hostile);
    expect(opened.requests).toEqual([`file://${file}`]);
    expect(opened.errors).toEqual([]);
  });

  test('GIVEN a matrix cell far above its details THEN following its link shows the detail section, rendered, in view', async () => {
    // GIVEN the examples' report, whose detail sections are laid out only when they come into view
    const file = path.join(dir, 'report-links.html');
    fs.writeFileSync(file, await exampleReport('html'));
    // WHEN the last cell of the matrix is followed
    const opened = await openReport(file, async (page) => {
      const links = page.locator('table.matrix a.cell');
      const href = await links.last().getAttribute('href');
      await links.last().click();
      return page.evaluate((id) => {
        const target = document.querySelector(id!)!;
        const box = target.getBoundingClientRect();
        return {
          id,
          target: location.hash,
          top: box.top,
          height: box.height,
          viewport: innerHeight,
          text: (target as HTMLElement).innerText,
        };
      }, href);
    });
    // THEN the page moved to the section, which is in view, has its height, and shows its text
    const r = opened.result;
    expect(r.target).toBe(r.id);
    expect(r.top).toBeGreaterThanOrEqual(0);
    expect(r.top).toBeLessThan(r.viewport);
    expect(r.height).toBeGreaterThan(20);
    expect(r.text).toMatch(/ on pool /);
    expect(r.text).toMatch(/\d+ nodes?/);
  });
});
