/**
 * What every benchmark module shares: the shape of a measure, spread statistics, order-alternating repetition of a
 * subject against its baseline, child processes (timed, or with their peak memory) and the CLI build check.
 *
 * A measure module exports `measure: Measure`; `bench/run.ts` lists the modules and runs each in its own process.
 */

import { spawnSync, SpawnSyncOptions } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The repository root. */
export const ROOT = path.join(__dirname, '..');

/** Minimum, median and maximum of a sample. */
export interface Spread {
  readonly min: number;
  readonly median: number;
  readonly max: number;
  /** Sample size. */
  readonly n: number;
}

/** One line of the results table (and of `rows` in bench/results.json). */
export interface Row {
  /** What is measured, subject ÷ baseline. */
  readonly measure: string;
  /** Median of the subject, formatted (e.g. `12.3 ms`). */
  readonly subject: string;
  /** Median of the baseline, formatted. */
  readonly baseline: string;
  /** Median subject ÷ median baseline. */
  readonly ratio: number;
  /** The target for {@link ratio} (`undefined`: reported for reference only). */
  readonly target?: number;
  /** Subject milliseconds (or other unit, see {@link unit}). */
  readonly subjectSpread: Spread;
  /** Baseline milliseconds (or other unit). */
  readonly baselineSpread: Spread;
  /** The ratio of each repetition's pair (subject and baseline measured back to back). */
  readonly ratioSpread?: Spread;
  /** Unit of the spreads. */
  readonly unit: 'ms' | 'MiB';
  /** 1-minute load average when the measure started and ended. */
  readonly load: readonly [number, number];
  /** Facts that belong next to the numbers (output sizes, memory). */
  readonly notes: readonly string[];
  /**
   * CPU milliseconds (user + system, every thread of the process or process tree) of the same runs, when measured:
   * on a shared machine the wall-clock time includes waiting for a core, the CPU time does not.
   */
  readonly subjectCpu?: Spread;
  readonly baselineCpu?: Spread;
  /** Median subject CPU ÷ median baseline CPU. */
  readonly cpuRatio?: number;
}

/** What a measure module returns: its table rows and its section(s) of `results` in bench/results.json. */
export interface MeasureOutput {
  readonly rows: Row[];
  readonly results: Record<string, unknown>;
}

/** A benchmark module's export. */
export interface Measure {
  /** Short name, used in progress messages. */
  readonly name: string;
  run(): Promise<MeasureOutput>;
}

/** The spread of `values`. */
export function spread(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error('no samples');
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return { min: s[0], median: s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2, max: s[s.length - 1], n: s.length };
}

/** The 1-minute load average. */
export function load1(): number {
  return Math.round(os.loadavg()[0] * 100) / 100;
}

/** Rounds to two decimals (for results.json). */
export function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Runs a full garbage collection when the process runs with `--expose-gc` (outside timed sections only). */
export function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}

/** One run of a subject: its wall-clock milliseconds, and its CPU milliseconds when the subject measured them. */
export type Timing = number | { readonly ms: number; readonly cpuMs: number };

/** Wall-clock and CPU milliseconds of several subjects, one array per subject. */
export interface Samples {
  readonly wall: number[][];
  readonly cpu: number[][];
}

/**
 * Runs `warmup` unmeasured rounds and `repetitions` measured rounds of every function; round `r` starts with function
 * `r mod n` and continues in order, so that each one runs first, second, … equally often and none always pays for
 * the garbage or the cache state the other left behind. A full collection (when available) precedes every timed
 * call. Each function returns its own milliseconds (so that it may time only part of its work); a function that
 * returns a plain number has its CPU time taken as this process' CPU time during the call.
 */
export async function rotate(
  fns: ReadonlyArray<() => Timing | Promise<Timing>>,
  options: { repetitions: number; warmup: number },
): Promise<Samples> {
  const wall: number[][] = fns.map(() => []);
  const cpu: number[][] = fns.map(() => []);
  for (let round = -options.warmup; round < options.repetitions; round++) {
    const first = ((round % fns.length) + fns.length) % fns.length;
    for (let k = 0; k < fns.length; k++) {
      const i = (first + k) % fns.length;
      collect();
      const before = process.cpuUsage();
      const t = await fns[i]();
      const used = process.cpuUsage(before);
      if (round < 0) continue;
      wall[i].push(typeof t === 'number' ? t : t.ms);
      cpu[i].push(typeof t === 'number' ? (used.user + used.system) / 1000 : t.cpuMs);
    }
  }
  return { wall, cpu };
}

/** Times `fn` in milliseconds. */
export function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/** The row of a subject and a baseline sampled pairwise (sample `i` of each taken in the same round). */
export function row(
  measure: string,
  subject: readonly number[],
  baseline: readonly number[],
  options: {
    target?: number;
    unit?: 'ms' | 'MiB';
    load: readonly [number, number];
    notes?: string[];
    cpu?: { readonly subject: readonly number[]; readonly baseline: readonly number[] };
  },
): Row {
  const unit = options.unit ?? 'ms';
  const s = spread(subject);
  const b = spread(baseline);
  const paired = subject.length === baseline.length ? subject.map((v, i) => v / baseline[i]) : undefined;
  const cpu = options.cpu ? { subject: spread(options.cpu.subject), baseline: spread(options.cpu.baseline) } : undefined;
  return {
    measure,
    subject: `${s.median.toFixed(1)} ${unit}`,
    baseline: `${b.median.toFixed(1)} ${unit}`,
    ratio: round(s.median / b.median),
    target: options.target,
    subjectSpread: roundSpread(s),
    baselineSpread: roundSpread(b),
    ratioSpread: paired ? roundSpread(spread(paired)) : undefined,
    unit,
    load: options.load,
    notes: options.notes ?? [],
    subjectCpu: cpu && roundSpread(cpu.subject),
    baselineCpu: cpu && roundSpread(cpu.baseline),
    cpuRatio: cpu && round(cpu.subject.median / cpu.baseline.median),
  };
}

/** The `cpu` option of {@link row} for subjects `i` (subject) and `j` (baseline) of `samples`. */
export function cpuOf(samples: Samples, i: number, j: number): { subject: number[]; baseline: number[] } {
  return { subject: samples.cpu[i], baseline: samples.cpu[j] };
}

function roundSpread(s: Spread): Spread {
  return { min: round(s.min), median: round(s.median), max: round(s.max), n: s.n };
}

/** Bytes as `12.3 kB` / `4.5 MB` (decimal units). */
export function bytes(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(1)} kB`;
}

/** What one Node.js process used. */
export interface ProcessUsage {
  /** The process' `process.argv` (without the node binary). */
  readonly argv: readonly string[];
  /** Peak resident set size in bytes. */
  readonly peakRssBytes: number;
  /** CPU milliseconds, user + system. */
  readonly cpuMs: number;
}

const USAGE = path.join(__dirname, 'process-usage.js');

/**
 * Runs a command to completion; every Node.js process it consists of (the command itself and any Node.js process it
 * starts) records its peak memory and CPU time when it exits (a preloaded module, bench/process-usage.js, the same
 * for subject and baseline). Throws unless the command exits with one of `statuses`.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  statuses: readonly number[] = [0],
  env: NodeJS.ProcessEnv = {},
): { ms: number; cpuMs: number; processes: ProcessUsage[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-usage-'));
  try {
    const file = path.join(dir, 'usage.jsonl');
    const nodeOptions = [process.env.NODE_OPTIONS, `--require ${JSON.stringify(USAGE)}`].filter(Boolean).join(' ');
    const options: SpawnSyncOptions = {
      cwd: ROOT,
      stdio: 'ignore',
      env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false', ...env, NODE_OPTIONS: nodeOptions, BENCH_USAGE_FILE: file },
    };
    const t0 = performance.now();
    const r = spawnSync(command, args, options);
    const ms = performance.now() - t0;
    if (r.error) throw r.error;
    if (!statuses.includes(r.status ?? -1)) throw new Error(`${command} ${args.join(' ')} exited ${r.status}`);
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const processes = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as ProcessUsage);
    return { ms, cpuMs: processes.reduce((sum, p) => sum + p.cpuMs, 0), processes };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The peak resident set size of the largest Node.js process of a command (see {@link runProcess}). */
export function peakRss(command: string, args: readonly string[], statuses: readonly number[] = [0], env: NodeJS.ProcessEnv = {}): number {
  return Math.max(...runProcess(command, args, statuses, env).processes.map((p) => p.peakRssBytes));
}

/** MiB of a byte count. */
export function mib(n: number): number {
  return n / (1024 * 1024);
}

/** Builds the library and the CLI bundle (`npm run build`) when they are missing or older than the sources. */
export function ensureBuilt(): void {
  const built = [path.join(ROOT, 'lib', 'cli', 'node-services.js'), path.join(ROOT, 'lib', 'index.js')];
  const newest = (dir: string): number =>
    fs.readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
      const full = path.join(dir, e.name);
      return Math.max(m, e.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
    }, 0);
  const sources = newest(path.join(ROOT, 'src'));
  if (built.every((f) => fs.existsSync(f) && fs.statSync(f).mtimeMs >= sources)) return;
  spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  for (const f of built) if (!fs.existsSync(f)) throw new Error(`${path.relative(ROOT, f)} is missing after \`npm run build\``);
}

/** Runs a measure module on its own (`npx tsx bench/<module>.ts`): prints its rows and results as JSON. */
export function runStandalone(measure: Measure): void {
  measure
    .run()
    .then((out) => process.stdout.write(`${JSON.stringify(out, null, 2)}\n`))
    .catch((e) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exitCode = 1;
    });
}
