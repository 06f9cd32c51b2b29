/**
 * `npm run bench`: every performance target, measured side by side, as ratios with their spread (min / median / max)
 * and the load average while they ran. Prints a table and writes bench/results.json.
 *
 * Each module listed in {@link MEASURES} exports `measure: Measure` (see bench/measure.ts) and runs in a process of
 * its own (`bench/run.ts --measure <module>`), so that no measure inherits another's heap, caches or peak memory.
 * A module also runs alone: `npx tsx --expose-gc bench/<module>.ts`.
 */

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ensureBuilt, load1, Measure, MeasureOutput, Row } from './measure';

/** The measure modules, in the order they run. */
const MEASURES = ['./synth', './synth-cold', './library-load', './lint', './coverage', './coverage-cli', './report', './cdk8s-app'];

function spreadText(r: Row): string {
  const f = (v: number) => v.toFixed(v >= 100 ? 0 : 1);
  return `${f(r.subjectSpread.min)} / ${f(r.subjectSpread.median)} / ${f(r.subjectSpread.max)}`;
}

function baselineText(r: Row): string {
  const f = (v: number) => v.toFixed(v >= 100 ? 0 : 1);
  return `${f(r.baselineSpread.min)} / ${f(r.baselineSpread.median)} / ${f(r.baselineSpread.max)}`;
}

function ratioText(r: Row): string {
  const paired = r.ratioSpread && r.ratioSpread.n > 1 ? ` (${r.ratioSpread.min.toFixed(2)}–${r.ratioSpread.max.toFixed(2)})` : '';
  return `${r.ratio.toFixed(2)}${paired}`;
}

function table(rows: readonly Row[]): string {
  const head = ['measure', 'subject min / median / max', 'baseline min / median / max', 'ratio (pairs)', 'target', 'ok', 'load'];
  const cells = rows.map((r) => [
    r.measure,
    `${spreadText(r)} ${r.unit}`,
    `${baselineText(r)} ${r.unit}`,
    ratioText(r),
    r.target === undefined ? '' : `≤ ${r.target.toFixed(2)}`,
    r.target === undefined ? '' : r.ratio <= r.target ? 'yes' : 'NO',
    `${r.load[0].toFixed(1)}→${r.load[1].toFixed(1)}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  const out = [line(head)];
  rows.forEach((r, i) => {
    out.push(line(cells[i]));
    if (r.subjectCpu && r.baselineCpu && r.cpuRatio !== undefined) {
      const f = (x: { min: number; median: number; max: number }) =>
        `${x.min.toFixed(0)} / ${x.median.toFixed(0)} / ${x.max.toFixed(0)} ms`;
      out.push(`    CPU time: ${f(r.subjectCpu)} ÷ ${f(r.baselineCpu)} = ${r.cpuRatio.toFixed(2)}`);
    }
    for (const note of r.notes) out.push(`    ${note}`);
  });
  return out.join('\n');
}

/** Runs one measure module in this process and writes its output as JSON to `file`. */
async function runOne(module: string, file: string): Promise<void> {
  const { measure } = require(module) as { measure: Measure };
  const out = await measure.run();
  fs.writeFileSync(file, JSON.stringify(out));
}

async function main(): Promise<void> {
  const only = process.argv.indexOf('--measure');
  if (only >= 0) return runOne(process.argv[only + 1], process.argv[only + 2]);

  const started = performance.now();
  const loadStart = os.loadavg();
  ensureBuilt();
  const rows: Row[] = [];
  const results: Record<string, unknown> = {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-run-'));
  try {
    for (const [i, module] of MEASURES.entries()) {
      const file = path.join(dir, `${i}.json`);
      process.stderr.write(`bench: ${module} (load ${load1().toFixed(1)})\n`);
      const r = spawnSync(process.execPath, [...process.execArgv, __filename, '--measure', module, file], {
        cwd: __dirname,
        stdio: 'inherit',
      });
      if (r.status !== 0) throw new Error(`measure ${module} failed (exit ${r.status})`);
      const out = JSON.parse(fs.readFileSync(file, 'utf8')) as MeasureOutput;
      rows.push(...out.rows);
      Object.assign(results, out.results);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const loadEnd = os.loadavg();
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ');
  console.log(table(rows));
  console.log(`load average (1, 5, 15 min): ${load(loadStart)} at the start, ${load(loadEnd)} at the end; ${os.cpus().length} CPUs`);
  const seconds = (performance.now() - started) / 1000;
  console.log(`bench finished in ${seconds.toFixed(1)} s`);
  const out = {
    date: new Date().toISOString(),
    node: process.version,
    seconds,
    loadAverage: { start: loadStart, end: loadEnd, cpus: os.cpus().length },
    rows,
    results,
  };
  fs.writeFileSync(path.join(__dirname, 'results.json'), JSON.stringify(out, null, 2) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
