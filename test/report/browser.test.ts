/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { daemonSet, node } from '../day2/support';
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

/**
 * Where a node stands, from its JSON status and reason: excluded by nodeSelector or node affinity is not targeted (an
 * intended absence), excluded by a taint is a gap, like pending and not running.
 */
function countOf(n: { status: string; reason: string }): string {
  if (n.status !== 'excluded') return n.status;
  return n.reason === 'nodeSelector' || n.reason === 'nodeAffinity' ? 'notTargeted' : 'taint';
}

/** The counts per (pool, service) of the JSON output, with each node's pool read from the fixture's labels. */
function jsonMatrix(json: any, nodes: any[]): Record<string, Record<string, Record<string, number>>> {
  const poolOf = new Map<string, string>(nodes.map((n) => [n.metadata.name, n.metadata.labels[POOL_LABEL]]));
  const out: Record<string, Record<string, Record<string, number>>> = {};
  for (const pool of poolOf.values()) out[pool] = {};
  for (const w of json.workloads) {
    for (const pool of Object.keys(out)) out[pool][`${w.namespace}/${w.name}`] = {};
    for (const n of w.nodes) {
      const cell = out[poolOf.get(n.node)!][`${w.namespace}/${w.name}`];
      cell[countOf(n)] = (cell[countOf(n)] ?? 0) + 1;
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
      // Sections above the target are laid out as they pass into view, which can move it after the jump: give the
      // layout up to 5 s to settle (the assertions below still fail, with the values, if it never does).
      await page
        .waitForFunction(
          (id) => {
            const box = document.querySelector(id!)!.getBoundingClientRect();
            return box.top >= 0 && box.top < innerHeight && box.height > 20;
          },
          href,
          { timeout: 5000 },
        )
        .catch(() => undefined);
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

describe('an intended absence and a gap in headless Chromium', () => {
  test('GIVEN a GPU exporter not on a CPU node and a log agent that does not tolerate the GPU taint THEN the two cells look different, not only by colour, as the legend says', async () => {
    // GIVEN a CPU node and a tainted GPU node; a GPU exporter selecting GPU nodes, a log agent without tolerations
    const nodes = {
      kind: 'NodeList',
      items: [
        node('cpu-1', { labels: { pool: 'cpu' } }),
        node('gpu-1', {
          labels: { pool: 'gpu', 'nvidia.com/gpu.present': 'true' },
          taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }],
        }),
      ],
    };
    const manifests = [
      daemonSet({
        name: 'gpu-exporter',
        spec: {
          nodeSelector: { 'nvidia.com/gpu.present': 'true' },
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
        },
      }),
      daemonSet({ name: 'log-agent' }),
    ];
    const nodesFile = path.join(dir, 'gpu-nodes.json');
    const manifestsFile = path.join(dir, 'gpu-agents.json');
    fs.writeFileSync(nodesFile, JSON.stringify(nodes));
    fs.writeFileSync(manifestsFile, JSON.stringify({ kind: 'List', items: manifests }));
    const run = await runCli(['coverage', manifestsFile, '--nodes', nodesFile, '--pool-label', 'pool', '--output', 'html']);
    expect([run.code, run.err]).toEqual([0, '']);
    const file = path.join(dir, 'gpu.html');
    fs.writeFileSync(file, run.out);
    // WHEN Chromium opens it
    const opened = await openReport(
      file,
      async (page) => ({
        matrix: await shownMatrix(page),
        looks: await page.evaluate(() => {
          const look = (el: Element | null) => {
            const s = getComputedStyle(el!);
            return {
              color: s.backgroundColor,
              pattern: s.backgroundImage,
              border: `${s.borderLeftStyle} ${s.borderLeftColor}`,
              icon: el!.querySelector('.icon')?.textContent ?? '',
            };
          };
          const cell = (pool: string, service: number) =>
            look(document.querySelector(`table.matrix tr[data-pool="${pool}"] td:nth-of-type(${service}) a.cell`));
          const legend = (word: string) =>
            look([...document.querySelectorAll('ul.legend .cell')].find((c) => (c.textContent ?? '').includes(word)) ?? null);
          return {
            absent: cell('cpu', 1),
            gap: cell('gpu', 2),
            covered: cell('cpu', 2),
            legendAbsent: legend('not targeted'),
            legendGap: legend('gap'),
            headline: document.querySelector('p.lead strong')?.textContent,
          };
        }),
      }),
      { screenshot: path.join(dir, 'gpu.png') },
    );
    expect(opened.errors).toEqual([]);
    const { matrix, looks } = opened.result;
    // THEN the GPU exporter on the CPU pool is an intended absence, the log agent on the GPU pool a gap
    expect(matrix.services).toEqual(['ops/gpu-exporter', 'ops/log-agent']);
    expect(matrix.verdicts).toEqual({
      cpu: { 'ops/gpu-exporter': '– not targeted', 'ops/log-agent': '✓ covered' },
      gpu: { 'ops/gpu-exporter': '✓ covered', 'ops/log-agent': '✕ gap' },
    });
    expect(matrix.cells.gpu['ops/log-agent']).toEqual({ taint: 1 });
    expect(matrix.cells.cpu['ops/gpu-exporter']).toEqual({ notTargeted: 1 });
    // AND the two differ in colour, in pattern (the gap is hatched), in border and in icon
    expect(looks.absent.color).not.toBe(looks.gap.color);
    expect(looks.absent.pattern).toBe('none');
    expect(looks.gap.pattern).toMatch(/^repeating-linear-gradient/);
    expect(looks.absent.border).not.toBe(looks.gap.border);
    expect([looks.absent.icon, looks.gap.icon, looks.covered.icon]).toEqual(['–', '✕', '✓']);
    // AND the legend shows each exactly as the matrix does
    expect(looks.legendAbsent).toEqual(looks.absent);
    expect(looks.legendGap).toEqual(looks.gap);
    // AND the headline counts the gap, in words that agree with the count
    expect(looks.headline).toBe('1 DaemonSet has gaps (nodes it targets but cannot run on).');
  });
});
