/**
 * Loading the library: `require('cdk8s-node-services')` (the built package, lib/) ÷ `require('cdk8s-plus-28')`, each
 * in a fresh `node` process (no module cache; the library's V8 code cache, lib/library.js.cache, as an earlier process
 * left it, the way a user's second run finds it), timed inside the process around the `require` call alone:
 * wall-clock and CPU milliseconds. The library loads cdk8s-plus-28 itself, so the ratio is what a construct
 * user pays on top of cdk8s-plus. Subject and baseline alternate (each goes first in half the rounds); one unmeasured
 * round of each first warms the file system cache. Also reported: how many modules each loads.
 *
 * Run alone with `npx tsx bench/library-load.ts`.
 */

import { spawnSync } from 'child_process';
import { cpuOf, ensureBuilt, load1, Measure, ROOT, round, rotate, row, runStandalone, spread } from './measure';

/** What the library-load measure found (`results.libraryLoad` in bench/results.json). */
export interface LibraryLoadBenchResult {
  readonly runs: number;
  /** Median milliseconds of `require('cdk8s-node-services')`, and of `require('cdk8s-plus-28')`. */
  readonly libraryMs: number;
  readonly cdk8sPlusMs: number;
  /** libraryMs / cdk8sPlusMs. */
  readonly ratio: number;
  /** Median CPU milliseconds of the same calls, and their ratio. */
  readonly libraryCpuMs: number;
  readonly cdk8sPlusCpuMs: number;
  readonly cpuRatio: number;
  /** Modules in the require cache after each (the library's own files included). */
  readonly libraryModules: number;
  readonly cdk8sPlusModules: number;
}

/** The script a fresh process runs: requires `target` (resolved from the repository root) and prints its timing. */
function script(target: string): string {
  return [
    `const t0 = process.hrtime.bigint(), c0 = process.cpuUsage();`,
    `require(require.resolve(${JSON.stringify(target)}, { paths: [${JSON.stringify(ROOT)}] }));`,
    `const c = process.cpuUsage(c0), ms = Number(process.hrtime.bigint() - t0) / 1e6;`,
    `process.stdout.write(JSON.stringify({ ms, cpuMs: (c.user + c.system) / 1000, modules: Object.keys(require.cache).length }));`,
  ].join('\n');
}

/** Requires `target` in a fresh process: the `require` call's wall and CPU milliseconds, and the modules loaded. */
function load(target: string): { ms: number; cpuMs: number; modules: number } {
  const r = spawnSync(process.execPath, ['-e', script(target)], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  if (r.status !== 0) throw new Error(`require('${target}') failed in a fresh process: ${r.stderr}`);
  return JSON.parse(r.stdout) as { ms: number; cpuMs: number; modules: number };
}

export const measure: Measure = {
  name: 'library load',
  async run() {
    ensureBuilt();
    const runs = Number(process.env.BENCH_LIBRARY_LOAD_RUNS ?? 15);
    const modules: number[][] = [[], []];
    const timed = (target: string, i: number) => () => {
      const r = load(target);
      modules[i].push(r.modules);
      return { ms: r.ms, cpuMs: r.cpuMs };
    };
    const start = load1();
    const samples = await rotate([timed(ROOT, 0), timed('cdk8s-plus-28', 1)], { repetitions: runs, warmup: 1 });
    const [ours, plus] = samples.wall;
    const [oursCpu, plusCpu] = samples.cpu;
    const result: LibraryLoadBenchResult = {
      runs,
      libraryMs: round(spread(ours).median),
      cdk8sPlusMs: round(spread(plus).median),
      ratio: round(spread(ours).median / spread(plus).median),
      libraryCpuMs: round(spread(oursCpu).median),
      cdk8sPlusCpuMs: round(spread(plusCpu).median),
      cpuRatio: round(spread(oursCpu).median / spread(plusCpu).median),
      libraryModules: modules[0][modules[0].length - 1],
      cdk8sPlusModules: modules[1][modules[1].length - 1],
    };
    return {
      rows: [
        row("require('cdk8s-node-services') ÷ require('cdk8s-plus-28'), each in a fresh process", ours, plus, {
          target: 1.2,
          load: [start, load1()],
          cpu: cpuOf(samples, 0, 1),
          notes: [`modules loaded: ${result.libraryModules} ÷ ${result.cdk8sPlusModules} (the library loads cdk8s-plus-28 too)`],
        }),
      ],
      results: { libraryLoad: result },
    };
  },
};

if (require.main === module) runStandalone(measure);
