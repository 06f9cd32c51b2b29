/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The report of the examples' `dist/` over the test fixtures' nodes and pods, as HTML and as JSON (one CLI run each),
 * and what the HTML page shows once Chromium has loaded it. Shared by the browser test and the README screenshot.
 */

import * as fs from 'fs';
import * as path from 'path';
import type { Page } from 'playwright-core';
import { runCli } from '../support/cli';

export const ROOT = path.join(__dirname, '..', '..');
export const DIST = path.join(ROOT, 'dist');
/** The single-cluster example's manifests (dist/*.k8s.yaml; the example fleet's clusters are in folders below). */
export const PLATFORM_MANIFESTS = fs
  .readdirSync(DIST)
  .filter((f) => f.endsWith('.k8s.yaml'))
  .sort()
  .map((f) => path.join(DIST, f));
export const NODES = path.join(ROOT, 'test', 'fixtures', 'nodes.json');
export const PODS = path.join(ROOT, 'test', 'fixtures', 'coverage', 'pods.json');
/** The pool label of the fixture nodes. */
export const POOL_LABEL = 'node.kubernetes.io/instance-type';

/** The examples' coverage report with a node-tax budget, in the given format (`html` or `json`). */
export async function exampleReport(output: 'html' | 'json'): Promise<string> {
  const run = await runCli([
    'coverage',
    ...PLATFORM_MANIFESTS,
    '--nodes',
    NODES,
    '--pods',
    PODS,
    '--pool-label',
    POOL_LABEL,
    '--budget',
    'cpu=15%,memory=20%',
    '--output',
    output,
  ]);
  if (run.code !== 0) throw new Error(`node-services coverage exited ${run.code}: ${run.err}`);
  return run.out;
}

/** Writes the examples' HTML report to `file`. */
export async function writeExampleReport(file: string): Promise<void> {
  fs.writeFileSync(file, await exampleReport('html'));
}

/** The matrix as the page shows it: its pools (rows), services (columns) and each cell's counts by status. */
export interface ShownMatrix {
  readonly pools: string[];
  readonly services: string[];
  /**
   * `cells[pool][service]`: count → number, as the cell's text says it (`7 running`, `1 not targeted`, `2 excluded by
   * taints`, `1 pending`, `1 not running`); a line of other words is kept as `unknown line: …`.
   */
  readonly cells: Record<string, Record<string, Record<string, number>>>;
  /** `verdicts[pool][service]`: the cell's verdict as shown, icon included (`✕ gap`). */
  readonly verdicts: Record<string, Record<string, string>>;
  /** Whether each cell's link leads to an element of the page. */
  readonly brokenLinks: string[];
}

/** The words of a cell's count lines, by the count they show (singular and plural). */
const WORDS: Record<string, string> = {
  running: 'running',
  'not targeted': 'notTargeted',
  'excluded by a taint': 'taint',
  'excluded by taints': 'taint',
  pending: 'pending',
  'not running': 'notRunning',
};

/** Reads the matrix from the page's DOM (its visible text, not the data attributes). */
export async function shownMatrix(page: Page): Promise<ShownMatrix> {
  const raw = await page.evaluate(() => {
    const table = document.querySelector('table.matrix')!;
    const services = [...table.querySelectorAll('thead th[scope=col]')].slice(1).map((th) => (th.textContent ?? '').trim());
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) => ({
      pool: (tr.querySelector('th[scope=row] code')?.textContent ?? '').trim(),
      cells: [...tr.querySelectorAll('td')].map((td) => ({
        lines: [...td.querySelectorAll('a > span:not(.verdict)')].map((s) => (s.textContent ?? '').trim()),
        verdict: (td.querySelector('a .verdict')?.textContent ?? '').trim(),
        target: (td.querySelector('a')?.getAttribute('href') ?? '').slice(1),
      })),
    }));
    const broken = rows.flatMap((r) => r.cells.map((c) => c.target)).filter((id) => document.getElementById(id) === null);
    return { services, rows, broken };
  });
  const cells: ShownMatrix['cells'] = {};
  const verdicts: ShownMatrix['verdicts'] = {};
  for (const row of raw.rows) {
    cells[row.pool] = {};
    verdicts[row.pool] = {};
    row.cells.forEach((cell, k) => {
      verdicts[row.pool][raw.services[k]] = cell.verdict;
      const counts: Record<string, number> = {};
      for (const line of cell.lines) {
        const m = /^(\d+) (.+)$/.exec(line);
        counts[m && WORDS[m[2]] !== undefined ? WORDS[m[2]] : `unknown line: ${line}`] = m ? Number(m[1]) : NaN;
      }
      cells[row.pool][raw.services[k]] = counts;
    });
  }
  return { pools: raw.rows.map((r) => r.pool), services: raw.services, cells, verdicts, brokenLinks: raw.broken };
}
