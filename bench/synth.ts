/**
 * Warm synthesis, in one process: 200 node services (every rule enabled) ÷ 200 plain cdk8s-plus-28 DaemonSets with
 * the same containers, mounts and tolerations, each built and rendered to YAML by a fresh App. The two run in
 * alternating order, after a full collection, so that neither always pays for the other's garbage; the first rounds
 * warm the code up and are not counted (the first synthesis in a process is measured by bench/synth-cold.ts).
 *
 * Run alone with `npx tsx --expose-gc bench/synth.ts`.
 */

import { bytes, cpuOf, ensureBuilt, load1, Measure, round, rotate, row, runStandalone, spread, time } from './measure';
import { checkOutput, nodeServices, plainDaemonSets } from './workloads';

/** What the warm synth measure found (`results.synth` in bench/results.json). */
export interface SynthBenchResult {
  readonly services: number;
  readonly repetitions: number;
  /** Median milliseconds of the node services. */
  readonly nodeServicesMs: number;
  /** Median milliseconds of the cdk8s-plus DaemonSets. */
  readonly cdk8sPlusMs: number;
  /** nodeServicesMs / cdk8sPlusMs. */
  readonly ratio: number;
  readonly nodeServicesMinMs: number;
  readonly nodeServicesMaxMs: number;
  readonly cdk8sPlusMinMs: number;
  readonly cdk8sPlusMaxMs: number;
  /** Bytes of YAML each side produced. */
  readonly nodeServicesBytes: number;
  readonly cdk8sPlusBytes: number;
}

const SERVICES = 200;

export const measure: Measure = {
  name: 'synth (warm)',
  async run() {
    ensureBuilt();
    const start = load1();
    const repetitions = 11;
    let oursBytes = 0;
    let plainBytes = 0;
    const samples = await rotate(
      [
        () =>
          time(() => {
            const yaml = nodeServices(SERVICES);
            oursBytes = Buffer.byteLength(yaml);
            checkOutput(yaml, SERVICES);
          }),
        () =>
          time(() => {
            const yaml = plainDaemonSets(SERVICES);
            plainBytes = Buffer.byteLength(yaml);
            checkOutput(yaml, SERVICES);
          }),
      ],
      { repetitions, warmup: 4 },
    );
    const [ours, plain] = samples.wall;
    const s = spread(ours);
    const p = spread(plain);
    const result: SynthBenchResult = {
      services: SERVICES,
      repetitions,
      nodeServicesMs: round(s.median),
      cdk8sPlusMs: round(p.median),
      ratio: round(s.median / p.median),
      nodeServicesMinMs: round(s.min),
      nodeServicesMaxMs: round(s.max),
      cdk8sPlusMinMs: round(p.min),
      cdk8sPlusMaxMs: round(p.max),
      nodeServicesBytes: oursBytes,
      cdk8sPlusBytes: plainBytes,
    };
    return {
      rows: [
        row(`synth ${SERVICES} node services (all rules) ÷ ${SERVICES} cdk8s-plus DaemonSets, warm`, ours, plain, {
          target: 1,
          load: [start, load1()],
          cpu: cpuOf(samples, 0, 1),
          notes: [
            `output ${bytes(oursBytes)} ÷ ${bytes(plainBytes)} = ${(oursBytes / plainBytes).toFixed(2)}× the YAML; ` +
              `per byte of output ${(s.median / oursBytes / (p.median / plainBytes)).toFixed(2)}×`,
          ],
        }),
      ],
      results: { synth: result },
    };
  },
};

if (require.main === module) runStandalone(measure);
