/**
 * Benchmark of the HTML coverage report of a 10,000-node fleet (generated nodes × 30 DaemonSets):
 *
 * - rendering: `coverage --output html` against `--output json` of the same input, in this process, medians of
 *   interleaved repetitions (target ≤ 1.5×: the page costs little beyond the analysis);
 * - the page in headless Chromium: its size (it aggregates, so it stays small) and its load time (navigation to the
 *   `load` event) against the load time of the 9-node fixture report, medians (target ≤ 5×, a few seconds at most).
 *
 * Uses the Chromium of `@sparticuz/chromium` (installed by `npm ci`). Run alone with `npx tsx bench/report.ts`.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generateDaemonSets, rng, writeNodeList } from './coverage';
import { load1, Measure, row } from './measure';
import { main } from '../src/cli/main';
import { openReport } from '../test/support/browser';
import { writeExampleReport } from '../test/report/support';

/** What {@link benchReport} measured. */
export interface ReportBenchResult {
  readonly nodes: number;
  readonly daemonSets: number;
  readonly repetitions: number;
  /** Median ms of `coverage --output html`. */
  readonly htmlMs: number;
  /** Median ms of `coverage --output json`. */
  readonly jsonMs: number;
  readonly renderRatio: number;
  /** Bytes of the HTML report and of the JSON report. */
  readonly htmlBytes: number;
  readonly jsonBytes: number;
  /** Median ms until Chromium's `load` event: the 10k-node report, and the 9-node fixture report. */
  readonly loadMs: number;
  readonly smallLoadMs: number;
  readonly loadRatio: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function render(args: string[], output: string): Promise<{ ms: number; text: string }> {
  const parts: string[] = [];
  const io = { out: (t: string) => void parts.push(t), err: () => undefined, readStdin: async () => '', isTTY: false };
  const t0 = performance.now();
  const code = await main(['coverage', ...args, '--output', output], io);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`coverage --output ${output} exited ${code}`);
  return { ms, text: parts.join('') };
}

/** Generates the fleet, renders both reports and opens both pages; removes its files afterwards. */
export async function benchReport(nodes = 10_000, daemonSets = 30, repetitions = 5): Promise<ReportBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-report-'));
  try {
    const random = rng(19);
    const manifests = path.join(dir, 'daemonsets.yaml');
    fs.writeFileSync(manifests, generateDaemonSets(daemonSets, random));
    const nodesFile = path.join(dir, 'nodes.json');
    writeNodeList(nodesFile, nodes, random);
    const args = ['--nodes', nodesFile, '--budget', 'cpu=10%,memory=10%', manifests];
    const html: number[] = [];
    const json: number[] = [];
    let htmlText = '';
    let jsonBytes = 0;
    for (let i = 0; i < repetitions; i++) {
      const h = await render(args, 'html');
      html.push(h.ms);
      htmlText = h.text;
      const j = await render(args, 'json');
      json.push(j.ms);
      jsonBytes = j.text.length;
    }
    const big = path.join(dir, 'report.html');
    fs.writeFileSync(big, htmlText);
    const small = path.join(dir, 'small.html');
    await writeExampleReport(small);
    const loads: number[] = [];
    const smallLoads: number[] = [];
    for (let i = 0; i < 3; i++) {
      const b = await openReport(big, async () => undefined);
      if (b.errors.length > 0 || b.requests.length !== 1)
        throw new Error(`the 10k-node report: ${b.errors.join('; ')} ${b.requests.join(' ')}`);
      loads.push(b.loadMs);
      smallLoads.push((await openReport(small, async () => undefined)).loadMs);
    }
    const htmlMs = median(html);
    const jsonMs = median(json);
    const loadMs = median(loads);
    const smallLoadMs = median(smallLoads);
    const round = (v: number) => Math.round(v * 100) / 100;
    return {
      nodes,
      daemonSets,
      repetitions,
      htmlMs: round(htmlMs),
      jsonMs: round(jsonMs),
      renderRatio: round(htmlMs / jsonMs),
      htmlBytes: Buffer.byteLength(htmlText),
      jsonBytes,
      loadMs: round(loadMs),
      smallLoadMs: round(smallLoadMs),
      loadRatio: round(loadMs / smallLoadMs),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The HTML report measures of `npm run bench` (bench/run.ts runs this module in a process of its own). */
export const measure: Measure = {
  name: 'coverage HTML report',
  async run() {
    const start = load1();
    const r = await benchReport();
    const load: [number, number] = [start, load1()];
    const kib = (v: number) => `${(v / 1024).toFixed(0)} KiB`;
    const note = `medians of ${r.repetitions} renders and 3 page loads`;
    return {
      rows: [
        row(`coverage ${r.nodes} nodes × ${r.daemonSets} DaemonSets --output html ÷ --output json`, [r.htmlMs], [r.jsonMs], {
          target: 1.5,
          load,
          notes: [`${note}; HTML ${kib(r.htmlBytes)}, JSON ${kib(r.jsonBytes)}`],
        }),
        row(`Chromium load of that report ÷ load of the 9-node fixture report`, [r.loadMs], [r.smallLoadMs], {
          target: 5,
          load,
          notes: [note],
        }),
      ],
      results: { report: r },
    };
  },
};

if (require.main === module) {
  benchReport()
    .then((result) => void process.stdout.write(`${JSON.stringify(result, null, 2)}\n`))
    .catch((e) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exitCode = 1;
    });
}
