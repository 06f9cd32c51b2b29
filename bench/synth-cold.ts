/**
 * The first synthesis in a fresh process, the one `cdk8s synth` pays: the same two workloads as bench/synth.ts, each
 * in its own child process (the node services and the cdk8s-plus DaemonSets alternate which starts first). A child
 * loads cdk8s, cdk8s-plus-28 and the compiled library (timed apart, the same modules for both sides), then times one
 * synthesis, and reports its peak resident memory, so the memory of each side is measured in a process of its own.
 *
 * Run alone with `npx tsx bench/synth-cold.ts`.
 */

import { spawnSync } from 'child_process';
import { bytes, ensureBuilt, load1, Measure, mib, ROOT, round, row, runStandalone, spread } from './measure';

/** What one child process measured. */
interface ColdSample {
  readonly loadMs: number;
  readonly synthMs: number;
  readonly synthCpuMs: number;
  readonly bytes: number;
  readonly peakRssBytes: number;
}

/** What the cold synth measure found (`results.synthCold` in bench/results.json). */
export interface ColdSynthBenchResult {
  readonly services: number;
  /** Child processes per side. */
  readonly processes: number;
  readonly nodeServicesMs: number;
  readonly cdk8sPlusMs: number;
  readonly ratio: number;
  readonly nodeServicesMinMs: number;
  readonly nodeServicesMaxMs: number;
  readonly cdk8sPlusMinMs: number;
  readonly cdk8sPlusMaxMs: number;
  /** Median milliseconds to load cdk8s, cdk8s-plus-28 and the library (the same for both sides). */
  readonly loadMs: number;
  /** Median peak resident set size of a child, MiB. */
  readonly nodeServicesPeakRssMiB: number;
  readonly cdk8sPlusPeakRssMiB: number;
  readonly nodeServicesBytes: number;
  readonly cdk8sPlusBytes: number;
}

const SERVICES = 200;
type Side = 'ours' | 'plain';

function child(side: Side): ColdSample {
  const r = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--child', side], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cold synth child (${side}) exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as ColdSample;
}

export const measure: Measure = {
  name: 'synth (cold)',
  async run() {
    ensureBuilt();
    const start = load1();
    const processes = 7;
    const ours: ColdSample[] = [];
    const plain: ColdSample[] = [];
    child('ours'); // warms the file system cache and tsx's transform cache; not counted
    for (let i = 0; i < processes; i++) {
      if (i % 2 === 0) {
        ours.push(child('ours'));
        plain.push(child('plain'));
      } else {
        plain.push(child('plain'));
        ours.push(child('ours'));
      }
    }
    const end = load1();
    const s = spread(ours.map((x) => x.synthMs));
    const p = spread(plain.map((x) => x.synthMs));
    const oursRss = ours.map((x) => mib(x.peakRssBytes));
    const plainRss = plain.map((x) => mib(x.peakRssBytes));
    const result: ColdSynthBenchResult = {
      services: SERVICES,
      processes,
      nodeServicesMs: round(s.median),
      cdk8sPlusMs: round(p.median),
      ratio: round(s.median / p.median),
      nodeServicesMinMs: round(s.min),
      nodeServicesMaxMs: round(s.max),
      cdk8sPlusMinMs: round(p.min),
      cdk8sPlusMaxMs: round(p.max),
      loadMs: round(spread([...ours, ...plain].map((x) => x.loadMs)).median),
      nodeServicesPeakRssMiB: round(spread(oursRss).median),
      cdk8sPlusPeakRssMiB: round(spread(plainRss).median),
      nodeServicesBytes: ours[0].bytes,
      cdk8sPlusBytes: plain[0].bytes,
    };
    return {
      rows: [
        row(
          `synth ${SERVICES} node services ÷ ${SERVICES} cdk8s-plus DaemonSets, first synthesis in a fresh process`,
          ours.map((x) => x.synthMs),
          plain.map((x) => x.synthMs),
          {
            target: 1.1,
            load: [start, end],
            cpu: { subject: ours.map((x) => x.synthCpuMs), baseline: plain.map((x) => x.synthCpuMs) },
            notes: [
              `output ${bytes(result.nodeServicesBytes)} ÷ ${bytes(result.cdk8sPlusBytes)}; ` +
                `loading cdk8s + cdk8s-plus-28 + the library before it (not timed above, same for both): ${result.loadMs.toFixed(0)} ms`,
            ],
          },
        ),
        row('  peak memory of that process (node services ÷ cdk8s-plus)', oursRss, plainRss, { unit: 'MiB', load: [start, end] }),
      ],
      results: { synthCold: result },
    };
  },
};

if (require.main === module) {
  const side = process.argv[process.argv.indexOf('--child') + 1] as Side;
  if (process.argv.includes('--child')) {
    let t0 = performance.now();
    const workloads: typeof import('./workloads') = require('./workloads');
    const loadMs = performance.now() - t0;
    t0 = performance.now();
    const cpu = process.cpuUsage();
    const yaml = side === 'ours' ? workloads.nodeServices(SERVICES) : workloads.plainDaemonSets(SERVICES);
    const synthMs = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    const synthCpuMs = (used.user + used.system) / 1000;
    workloads.checkOutput(yaml, SERVICES);
    const sample: ColdSample = {
      loadMs,
      synthMs,
      synthCpuMs,
      bytes: Buffer.byteLength(yaml),
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    };
    process.stdout.write(`${JSON.stringify(sample)}\n`);
  } else {
    runStandalone(measure);
  }
}
