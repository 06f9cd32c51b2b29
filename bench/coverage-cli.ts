/**
 * Benchmark of the `node-services coverage` CLI end to end (read, analyze, format), at two sizes:
 *
 * (a) 10,000 generated nodes × 100 DaemonSets, in this process: the CLI (streaming the nodes file, parsing the
 *     DaemonSet YAML once, analysing, formatting the report into discarded output) against `JSON.parse` of the nodes
 *     file's text, medians of several interleaved repetitions (target ≤ 1.5×). Text (the default), `--output json` and
 *     `--output jsonl` are timed; the headline is the text report.
 * (b) 100,000 nodes × 300 DaemonSets (a ~600 MB kubectl-style file), in a process of its own: its peak RSS (target
 *     ≤ 2 GiB) and its time per node-DaemonSet pair against the same measure of a 10,000 × 100 run in a process of its
 *     own (target ≤ 1.2×: the CLI scales linearly). Each of the two processes first runs the CLI once, unmeasured, on
 *     500 nodes with the same DaemonSets, so that neither time is mostly start-up and compilation (which would make
 *     the small run look slow per pair and the ratio look better than the scaling is).
 *
 * Both sizes run the CLI as users run it: its bundle, lib/cli/node-services.js (built first when older than src/), not
 * the TypeScript sources through the bench's loader (which adds code of its own to every function it compiles).
 *
 * The inputs are generated into a temporary folder and removed afterwards. Run alone with `npx tsx bench/coverage-cli.ts`.
 */

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generateDaemonSets, rng, writeNodeList } from './coverage';
import { ensureBuilt, load1, Measure, ROOT, round, row, spread } from './measure';

/** The CLI's entry point, from its bundle (see the file comment); loaded on first use, after {@link ensureBuilt}. */
let cliMain: typeof import('../src/cli/main').main | undefined;
function main(...args: Parameters<typeof import('../src/cli/main').main>): ReturnType<typeof import('../src/cli/main').main> {
  if (cliMain === undefined) {
    ensureBuilt();
    cliMain = (require(path.join(ROOT, 'lib', 'cli', 'node-services.js')) as typeof import('../src/cli/main')).main;
  }
  return cliMain(...args);
}

/** What one CLI run in a process of its own measured. */
export interface CliProcessRun {
  readonly nodes: number;
  readonly daemonSets: number;
  /** Milliseconds from the command's start to its end (read, analyze, format). */
  readonly ms: number;
  /** Peak resident set size of the process, MiB. */
  readonly peakRssMiB: number;
  /** Bytes of the report. */
  readonly outputBytes: number;
  /** Nanoseconds per node-DaemonSet pair. */
  readonly nsPerPair: number;
}

/** What {@link benchCoverageCli} measured. */
export interface CoverageCliBenchResult {
  readonly nodes: number;
  readonly daemonSets: number;
  readonly nodesFileBytes: number;
  readonly repetitions: number;
  readonly jsonParseMs: number;
  /** Median ms of the CLI with the text report. */
  readonly textMs: number;
  readonly textRatio: number;
  readonly jsonMs: number;
  readonly jsonRatio: number;
  readonly jsonlMs: number;
  readonly jsonlRatio: number;
  /** CPU time (user + system) of the text run ÷ CPU time of JSON.parse, medians: less sensitive to a shared machine. */
  readonly textCpuRatio: number;
  /** The 10k × 100 run in a process of its own (the baseline of the scaling ratio). */
  readonly small: CliProcessRun;
  /** The 100k × 300 run in a process of its own. */
  readonly large: CliProcessRun;
  /** large.nsPerPair / small.nsPerPair. */
  readonly scalingRatio: number;
  /** Every timed repetition (wall and CPU milliseconds), paired by round. */
  readonly samples: { readonly text: number[]; readonly parse: number[]; readonly textCpu: number[]; readonly parseCpu: number[] };
}

function median(values: number[]): number {
  return spread(values).median;
}

/** Runs the CLI in this process with discarded output; returns the milliseconds and the output size. */
async function runCli(args: string[]): Promise<{ ms: number; cpuMs: number; bytes: number; code: number }> {
  let bytes = 0;
  const io = { out: (t: string) => void (bytes += t.length), err: () => undefined, readStdin: async () => '', isTTY: false };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const code = await main(['coverage', ...args], io);
  return { ms: performance.now() - t0, cpuMs: cpuMs(process.cpuUsage(cpu0)), bytes, code };
}

/** `JSON.parse` of the nodes file text, timed; only the item count survives it. */
function timeParse(text: string, expected: number): { ms: number; cpu: number } {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const parsed = JSON.parse(text);
  const ms = performance.now() - t0;
  const cpu = cpuMs(process.cpuUsage(cpu0));
  if (parsed.items.length !== expected) throw new Error('the nodes file did not round-trip');
  return { ms, cpu };
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/** Writes the inputs of one size into `dir`. */
function generate(dir: string, nodes: number, daemonSets: number): { nodesFile: string; manifestsFile: string } {
  const random = rng(20241128);
  const manifests = generateDaemonSets(daemonSets, random);
  const nodesFile = path.join(dir, `nodes-${nodes}.json`);
  const manifestsFile = path.join(dir, `daemonsets-${daemonSets}.yaml`);
  fs.writeFileSync(manifestsFile, manifests);
  writeNodeList(nodesFile, nodes, random);
  return { nodesFile, manifestsFile };
}

/**
 * Runs one CLI run in a fresh process (this file with `--child`), after an unmeasured warm-up run on `warmNodesFile`
 * with the same DaemonSets, and returns what it measured.
 */
function childRun(nodesFile: string, manifestsFile: string, nodes: number, daemonSets: number, warmNodesFile: string): CliProcessRun {
  const child = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--child', nodesFile, manifestsFile, warmNodesFile], {
    cwd: path.join(__dirname, '..'),
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) throw new Error(`the CLI child failed (${child.status}): ${child.stderr}`);
  const { ms, peakRssMiB, outputBytes } = JSON.parse(child.stdout.trim().split('\n').pop()!);
  return {
    nodes,
    daemonSets,
    ms: round(ms),
    peakRssMiB: round(peakRssMiB),
    outputBytes,
    nsPerPair: round((ms * 1e6) / (nodes * daemonSets)),
  };
}

/** Measures (a) and (b); see the file comment. */
export async function benchCoverageCli(
  options: { repetitions?: number; largeNodes?: number; largeDaemonSets?: number } = {},
): Promise<CoverageCliBenchResult> {
  const repetitions = options.repetitions ?? 5;
  const largeNodes = options.largeNodes ?? 100_000;
  const largeDaemonSets = options.largeDaemonSets ?? 300;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-cli-bench-'));
  try {
    const small = generate(dir, 10_000, 100);
    const text = fs.readFileSync(small.nodesFile, 'utf8');
    const args = (output: string) => ['--nodes', small.nodesFile, '--output', output, small.manifestsFile];
    const times: Record<string, number[]> = { parse: [], text: [], json: [], jsonl: [], parseCpu: [], textCpu: [] };
    for (let rep = -1; rep < repetitions; rep++) {
      // The parsed nodes are dropped before the CLI runs, so that its collections do not also trace them. (No forced
      // GC: a full collection also drops optimized code, which would measure recompilation.)
      const { ms: parseMs, cpu: parseCpu } = timeParse(text, 10_000);
      const runs: Record<string, number> = {};
      for (const output of ['text', 'json', 'jsonl']) {
        const run = await runCli(args(output));
        if (run.code !== 0) throw new Error(`the CLI exited ${run.code}`);
        runs[output] = run.ms;
        if (output === 'text') runs.textCpu = run.cpuMs;
      }
      if (rep >= 0) {
        times.parse.push(parseMs);
        for (const output of ['text', 'json', 'jsonl']) times[output].push(runs[output]);
        times.parseCpu.push(parseCpu);
        times.textCpu.push(runs.textCpu);
      }
    }
    const jsonParseMs = median(times.parse);
    const warmNodesFile = path.join(dir, 'nodes-warm-up.json');
    writeNodeList(warmNodesFile, 500, rng(20241201));
    const smallRun = childRun(small.nodesFile, small.manifestsFile, 10_000, 100, warmNodesFile);
    fs.rmSync(small.nodesFile);
    const large = generate(dir, largeNodes, largeDaemonSets);
    const largeRun = childRun(large.nodesFile, large.manifestsFile, largeNodes, largeDaemonSets, warmNodesFile);
    return {
      nodes: 10_000,
      daemonSets: 100,
      nodesFileBytes: Buffer.byteLength(text),
      repetitions,
      jsonParseMs: round(jsonParseMs),
      textMs: round(median(times.text)),
      textRatio: round(median(times.text) / jsonParseMs),
      jsonMs: round(median(times.json)),
      jsonRatio: round(median(times.json) / jsonParseMs),
      jsonlMs: round(median(times.jsonl)),
      jsonlRatio: round(median(times.jsonl) / jsonParseMs),
      textCpuRatio: round(median(times.textCpu) / median(times.parseCpu)),
      small: smallRun,
      large: largeRun,
      scalingRatio: round(largeRun.nsPerPair / smallRun.nsPerPair),
      samples: { text: times.text, parse: times.parse, textCpu: times.textCpu, parseCpu: times.parseCpu },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The two coverage CLI measures of `npm run bench` (bench/run.ts runs this module in a process of its own). */
export const measure: Measure = {
  name: 'coverage CLI',
  async run() {
    const start = load1();
    const r = await benchCoverageCli();
    const load: [number, number] = [start, load1()];
    const { samples, ...result } = r;
    return {
      rows: [
        row(
          `coverage CLI ${r.nodes} nodes × ${r.daemonSets} DaemonSets (read, analyze, text) ÷ JSON.parse of the nodes file`,
          samples.text,
          samples.parse,
          {
            target: 1.5,
            load,
            cpu: { subject: samples.textCpu, baseline: samples.parseCpu },
            notes: [`json ${r.jsonRatio.toFixed(2)}×, jsonl ${r.jsonlRatio.toFixed(2)}× JSON.parse (medians)`],
          },
        ),
        row(
          `coverage CLI ${r.large.nodes} × ${r.large.daemonSets}, per node-DaemonSet pair ÷ 10k × 100 per pair (own processes)`,
          [r.large.nsPerPair],
          [r.small.nsPerPair],
          {
            target: 1.2,
            load,
            notes: [`peak RSS of the ${r.large.nodes}-node run ${r.large.peakRssMiB.toFixed(0)} MiB (target ≤ 2048 MiB); ns per pair`],
          },
        ),
      ],
      results: { coverageCli: result },
    };
  },
};

async function child(nodesFile: string, manifestsFile: string, warmNodesFile: string): Promise<void> {
  const warm = await runCli(['--nodes', warmNodesFile, manifestsFile]);
  if (warm.code !== 0) throw new Error(`the CLI exited ${warm.code} on the warm-up input`);
  const run = await runCli(['--nodes', nodesFile, manifestsFile]);
  if (run.code !== 0) throw new Error(`the CLI exited ${run.code}`);
  const peakRssMiB = (process.resourceUsage().maxRSS * 1024) / (1024 * 1024);
  process.stdout.write(`${JSON.stringify({ ms: run.ms, peakRssMiB, outputBytes: run.bytes })}\n`);
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const done =
    argv[0] === '--child'
      ? child(argv[1], argv[2], argv[3])
      : benchCoverageCli().then((result) => void process.stdout.write(`${JSON.stringify(result, null, 2)}\n`));
  done.catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exitCode = 1;
  });
}
