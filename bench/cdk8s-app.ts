/**
 * The cdk8s app command end to end: `npx cdk8s synth` of the examples (cdk8s.yaml → examples/app.js) ÷
 * `npx cdk8s --version` (the cdk8s CLI's own start-up), alternating. The app's bundle cache is warm (one unmeasured
 * synth first), as it is for every synth after the first; the output is checked against dist/ each time.
 * Also measured: the app process alone (`node examples/app.js`) against `node -e 0`, and its peak memory.
 *
 * Run alone with `npx tsx bench/cdk8s-app.ts`.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { bytes, cpuOf, load1, Measure, mib, peakRss, ROOT, round, rotate, row, runProcess, runStandalone, spread } from './measure';

/** What the cdk8s app measure found (`results.cdk8sCli` in bench/results.json). */
export interface CliSynthBenchResult {
  readonly runs: number;
  /** Median milliseconds of `npx cdk8s synth`. */
  readonly synthMs: number;
  /** Median milliseconds of `npx cdk8s --version`. */
  readonly versionMs: number;
  /** synthMs / versionMs. */
  readonly ratio: number;
  readonly synthMinMs: number;
  readonly synthMaxMs: number;
  readonly versionMinMs: number;
  readonly versionMaxMs: number;
  /** Median milliseconds of `node examples/app.js` alone, and of `node -e 0`. */
  readonly appMs: number;
  readonly nodeMs: number;
  /** Peak resident set size of the app process, MiB. */
  readonly appPeakRssMiB: number;
  /** Bytes of YAML the examples synthesize. */
  readonly outputBytes: number;
}

/** Every file below `dir` (the fleet's clusters/<name>/ and gitops/ folders included), by its path relative to `dir`. */
function files(dir: string, prefix = '', out = new Map<string, Buffer>()): Map<string, Buffer> {
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = path.join(prefix, entry.name);
    if (entry.isDirectory()) files(dir, relative, out);
    else out.set(relative, fs.readFileSync(path.join(dir, relative)));
  }
  return out;
}

/** Throws unless `out` holds exactly the files of dist/, byte for byte. */
function checkOutput(out: string): number {
  const expected = files(path.join(ROOT, 'dist'));
  const actual = files(out);
  const same = expected.size === actual.size && [...expected].every(([f, b]) => actual.get(f)?.equals(b));
  if (!same) throw new Error(`npx cdk8s synth wrote other files than dist/ (run 'npx cdk8s synth --no-check-upgrade' and commit dist/)`);
  return [...actual.values()].reduce((n, b) => n + b.length, 0);
}

export const measure: Measure = {
  name: 'cdk8s app',
  async run() {
    const runs = 6;
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-bench-cli-'));
    try {
      const synth = () => {
        fs.rmSync(out, { recursive: true, force: true });
        return runProcess('npx', ['cdk8s', 'synth', '--no-check-upgrade', '--output', out]);
      };
      const start = load1();
      const cdk8s = await rotate([synth, () => runProcess('npx', ['cdk8s', '--version'])], { repetitions: runs, warmup: 1 });
      const [synthTimes, versionTimes] = cdk8s.wall;
      const outputBytes = checkOutput(out);
      const cli: [number, number] = [start, load1()];

      const appStart = load1();
      const appEnv = { CDK8S_OUTDIR: out };
      const alone = await rotate(
        [
          () => runProcess(process.execPath, [path.join('examples', 'app.js')], [0], appEnv),
          () => runProcess(process.execPath, ['-e', '0']),
        ],
        { repetitions: runs, warmup: 1 },
      );
      const [appTimes, nodeTimes] = alone.wall;
      const appRss = peakRss(process.execPath, [path.join('examples', 'app.js')], [0], appEnv);
      const app: [number, number] = [appStart, load1()];
      const s = spread(synthTimes);
      const v = spread(versionTimes);
      const result: CliSynthBenchResult = {
        runs,
        synthMs: round(s.median),
        versionMs: round(v.median),
        ratio: round(s.median / v.median),
        synthMinMs: round(s.min),
        synthMaxMs: round(s.max),
        versionMinMs: round(v.min),
        versionMaxMs: round(v.max),
        appMs: round(spread(appTimes).median),
        nodeMs: round(spread(nodeTimes).median),
        appPeakRssMiB: round(mib(appRss)),
        outputBytes,
      };
      return {
        rows: [
          row('npx cdk8s synth (examples) ÷ npx cdk8s --version', synthTimes, versionTimes, {
            target: 1.25,
            load: cli,
            cpu: cpuOf(cdk8s, 0, 1),
            notes: [`output ${bytes(outputBytes)} (identical to dist/)`],
          }),
          row('  node examples/app.js alone ÷ node -e 0 (reference)', appTimes, nodeTimes, {
            load: app,
            cpu: cpuOf(alone, 0, 1),
            notes: [`peak RSS of the app process ${mib(appRss).toFixed(0)} MiB`],
          }),
        ],
        results: { cdk8sCli: result },
      };
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  },
};

if (require.main === module) runStandalone(measure);
