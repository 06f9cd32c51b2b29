/**
 * Where a synthesis of the synth benchmarks' workload spends its CPU time, phase by phase, for both sides (the node
 * services and the plain cdk8s-plus-28 DaemonSets of bench/workloads.ts): constructing the App, the node-services
 * policy checks at synthesis, the other validations, rendering objects (`toJson`), cdk8s's tree walks around them,
 * the YAML emit (`Yaml.stringify`) and writing the file. It measures a warm synthesis (in this process, after
 * warm-up rounds, the sides alternating) and the first synthesis in a fresh process (a child process per sample, the
 * sides alternating which starts first), and prints CPU milliseconds per phase as median [min–max] over the
 * repetitions, with the modules a first synthesis loads on the way.
 *
 * With `--packages` it also samples the CPU (the V8 profiler, in process) and sums self time by owner: this
 * library's compiled code (`lib/`), each package under `node_modules`, Node.js internals, garbage collection, so that
 * the part we own shows apart from the part we do not.
 *
 * It is a diagnosis, not a measure: the phase timers cost a little, and `bench/synth.ts` / `bench/synth-cold.ts`
 * remain the figures. Run after `npm run build`:
 *
 *   node --expose-gc --import tsx bench/profile-synth.ts [--services 200] [--repetitions 7] [--processes 5] [--packages]
 */

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as inspector from 'inspector';
import * as os from 'os';
import * as path from 'path';
import { collect, ensureBuilt, ROOT, Spread, spread } from './measure';

/** The phases of one synthesis, in the order they are printed. */
const PHASES = ['construct', 'checks', 'validations', 'toJson', 'tree', 'yaml', 'write'] as const;
type Phase = (typeof PHASES)[number];

const PHASE_TEXT: Record<Phase, string> = {
  construct: 'constructing the App',
  checks: 'node-services checks (NodeServiceChecks.validate)',
  validations: 'other validations (node.validate)',
  toJson: 'rendering objects (toJson, resolve)',
  tree: 'cdk8s tree walks, dependencies, sort',
  yaml: 'YAML emit (Yaml.stringify)',
  write: 'writing the file',
};

type Side = 'ours' | 'plain';
const SIDES: readonly Side[] = ['ours', 'plain'];
const SIDE_TEXT: Record<Side, string> = { ours: 'node services', plain: 'cdk8s-plus' };

/** CPU (and wall-clock) milliseconds of each phase of one synthesis, with what it loaded and produced. */
interface Sample {
  readonly cpu: Record<Phase, number>;
  readonly wall: Record<Phase, number>;
  /** Modules added to `require.cache` while constructing and synthesizing. */
  readonly modulesLoaded: number;
  readonly bytes: number;
}

/** CPU milliseconds of this process (user + system, every thread). */
function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function zeros(): Record<Phase, number> {
  return Object.fromEntries(PHASES.map((p) => [p, 0])) as Record<Phase, number>;
}

/**
 * Exclusive time per phase: entering a phase charges the time since the last boundary to the phase that was running,
 * so that nested phases (a `toJson` inside a validation) are counted once, in the innermost one.
 */
class PhaseClock {
  private readonly stack: Phase[] = [];
  private lastCpu = 0;
  private lastWall = 0;
  public cpu = zeros();
  public wall = zeros();

  public reset(): void {
    this.cpu = zeros();
    this.wall = zeros();
  }

  public enter(phase: Phase): void {
    this.charge();
    this.stack.push(phase);
  }

  public exit(): void {
    this.charge();
    this.stack.pop();
  }

  private charge(): void {
    const cpu = cpuNow();
    const wall = performance.now();
    const top = this.stack[this.stack.length - 1];
    if (top !== undefined) {
      this.cpu[top] += cpu - this.lastCpu;
      this.wall[top] += wall - this.lastWall;
    }
    this.lastCpu = cpu;
    this.lastWall = wall;
  }

  public time<T>(phase: Phase, fn: () => T): T {
    this.enter(phase);
    try {
      return fn();
    } finally {
      this.exit();
    }
  }
}

const clock = new PhaseClock();
const WRAPPED = new WeakSet<object>();

/** Replaces `owner[key]` (a method) by one that runs in `phase`. */
function wrap(owner: object, key: string, phase: Phase): void {
  const target = owner as Record<string, unknown>;
  const original = target[key];
  if (typeof original !== 'function' || WRAPPED.has(original)) return;
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    return clock.time(phase, () => original.apply(this, args));
  };
  WRAPPED.add(wrapped);
  target[key] = wrapped;
}

/** Times the validations, the checks and the YAML emit (modules loaded by then: cdk8s, constructs, the library). */
function instrument(): void {
  const cdk8s: typeof import('cdk8s') = require('cdk8s');
  const constructs: typeof import('constructs') = require('constructs');
  const lib: typeof import('../src') = require(path.join(ROOT, 'lib'));
  wrap(cdk8s.Yaml, 'stringify', 'yaml');
  wrap(constructs.Node.prototype, 'validate', 'validations');
  wrap(lib.NodeServiceChecks.prototype, 'validate', 'checks');
  wrap(cdk8s.ApiObject.prototype, 'toJson', 'toJson');
}

/** Times every `toJson` of the ApiObjects of `app` (each class of the prototype chain that defines its own). */
function instrumentObjects(app: import('cdk8s').App): void {
  const { ApiObject } = require('cdk8s') as typeof import('cdk8s');
  for (const c of app.node.findAll()) {
    if (!ApiObject.isApiObject(c)) continue;
    for (let proto = Object.getPrototypeOf(c); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      if (Object.prototype.hasOwnProperty.call(proto, 'toJson')) wrap(proto, 'toJson', 'toJson');
    }
  }
}

const OUT_FILE = path.join(os.tmpdir(), `node-services-profile-synth-${process.pid}.k8s.yaml`);

/** One synthesis of `side`, split into phases (what `bench/synth.ts` times, plus writing the YAML out). */
function synthesize(side: Side, services: number): Sample {
  const workloads: typeof import('./workloads') = require('./workloads');
  const modules = Object.keys(require.cache).length;
  clock.reset();
  const app = clock.time('construct', () =>
    side === 'ours' ? workloads.nodeServicesApp(services) : workloads.plainDaemonSetsApp(services),
  );
  instrumentObjects(app);
  const yaml = clock.time('tree', () => app.synthYaml());
  clock.time('write', () => fs.writeFileSync(OUT_FILE, yaml));
  fs.rmSync(OUT_FILE, { force: true });
  workloads.checkOutput(yaml, services);
  return {
    cpu: { ...clock.cpu },
    wall: { ...clock.wall },
    modulesLoaded: Object.keys(require.cache).length - modules,
    bytes: Buffer.byteLength(yaml),
  };
}

/** CPU self time by owner of the code, from V8 CPU profiles taken in this process. */
class PackageSampler {
  private readonly session = new inspector.Session();
  public readonly ms = new Map<string, number>();
  private runs = 0;

  public constructor() {
    this.session.connect();
    this.post('Profiler.enable');
    this.post('Profiler.setSamplingInterval', { interval: 100 });
  }

  private post(method: string, params?: object): any {
    let result: any;
    let error: Error | null = null;
    // An in-process session answers synchronously.
    this.session.post(method, params, (e, r) => {
      error = e;
      result = r;
    });
    if (error) throw error;
    return result;
  }

  public sample<T>(fn: () => T): T {
    this.post('Profiler.start');
    try {
      return fn();
    } finally {
      this.add(this.post('Profiler.stop').profile as inspector.Profiler.Profile);
    }
  }

  private add(profile: inspector.Profiler.Profile): void {
    this.runs++;
    const owner = new Map(profile.nodes.map((n) => [n.id, ownerOf(n.callFrame)]));
    const deltas = profile.timeDeltas ?? [];
    (profile.samples ?? []).forEach((id, i) => {
      const key = owner.get(id) ?? '?';
      this.ms.set(key, (this.ms.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
    });
  }

  /** Milliseconds per run, largest first. */
  public perRun(): Array<[string, number]> {
    return [...this.ms].map(([k, v]): [string, number] => [k, v / Math.max(1, this.runs)]).sort((a, b) => b[1] - a[1]);
  }
}

/** Who owns the code of a profile node: `ours (lib/)`, a package, `node internals`, or a V8 pseudo-frame. */
function ownerOf(frame: inspector.Runtime.CallFrame): string {
  const url = frame.url.replace(/^file:\/\//, '');
  if (url === '') return frame.functionName.startsWith('(') ? frame.functionName : 'V8 builtins';
  if (url.startsWith('node:') || !url.startsWith('/')) return 'node internals';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith(path.join(ROOT, 'lib') + path.sep)) return 'ours (lib/)';
  if (url.startsWith(path.join(ROOT, 'bench') + path.sep)) return 'bench workload';
  return url;
}

/** Warm samples of both sides, alternating which runs first, after `warmup` unmeasured rounds of each. */
function warm(services: number, repetitions: number, sampler?: Map<Side, PackageSampler>): Map<Side, Sample[]> {
  const samples = new Map<Side, Sample[]>(SIDES.map((s) => [s, []]));
  const warmup = 4;
  for (let round = -warmup; round < repetitions; round++) {
    const order = ((round % 2) + 2) % 2 === 0 ? SIDES : [...SIDES].reverse();
    for (const side of order) {
      collect();
      const s = round >= 0 && sampler ? sampler.get(side)!.sample(() => synthesize(side, services)) : synthesize(side, services);
      if (round >= 0) samples.get(side)!.push(s);
    }
  }
  return samples;
}

/** First-synthesis samples: a child process per sample, the sides alternating which starts first. */
function cold(
  services: number,
  processes: number,
  packages: boolean,
): { samples: Map<Side, Sample[]>; owners: Map<Side, Map<string, number[]>> } {
  const samples = new Map<Side, Sample[]>(SIDES.map((s) => [s, []]));
  const owners = new Map<Side, Map<string, number[]>>(SIDES.map((s) => [s, new Map()]));
  const run = (side: Side): void => {
    const args = ['--import', 'tsx', __filename, '--child', side, '--services', String(services), ...(packages ? ['--packages'] : [])];
    const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`profile child (${side}) exited ${r.status}: ${r.stderr}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { sample: Sample; owners?: Array<[string, number]> };
    samples.get(side)!.push(out.sample);
    for (const [owner, ms] of out.owners ?? []) owners.get(side)!.set(owner, [...(owners.get(side)!.get(owner) ?? []), ms]);
  };
  run('ours'); // warms the file system cache and tsx's transform cache; not counted
  for (let i = 0; i < processes; i++) (i % 2 === 0 ? SIDES : [...SIDES].reverse()).forEach(run);
  return { samples, owners };
}

function cell(s: Spread): string {
  return `${s.median.toFixed(1)} [${s.min.toFixed(1)}–${s.max.toFixed(1)}]`;
}

function printPhases(title: string, samples: Map<Side, Sample[]>): void {
  const lines = [title, `  ${'phase'.padEnd(52)}${SIDES.map((s) => SIDE_TEXT[s].padStart(24)).join('')}`];
  const total = (s: Sample): number => PHASES.reduce((sum, p) => sum + s.cpu[p], 0);
  for (const phase of PHASES) {
    const cells = SIDES.map((side) => cell(spread(samples.get(side)!.map((s) => s.cpu[phase]))).padStart(24));
    lines.push(`  ${PHASE_TEXT[phase].padEnd(52)}${cells.join('')}`);
  }
  lines.push(`  ${'total'.padEnd(52)}${SIDES.map((side) => cell(spread(samples.get(side)!.map(total))).padStart(24)).join('')}`);
  const synth = (s: Sample): number => total(s) - s.cpu.construct - s.cpu.write;
  lines.push(
    `  ${'  of which synthYaml()'.padEnd(52)}${SIDES.map((side) => cell(spread(samples.get(side)!.map(synth))).padStart(24)).join('')}`,
  );
  const mods = SIDES.map((side) => String(spread(samples.get(side)!.map((s) => s.modulesLoaded)).median).padStart(24));
  lines.push(`  ${'modules loaded during construct + synth'.padEnd(52)}${mods.join('')}`);
  const out = SIDES.map((side) => `${(samples.get(side)![0].bytes / 1000).toFixed(1)} kB`.padStart(24));
  lines.push(`  ${'output'.padEnd(52)}${out.join('')}`);
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

function printOwners(title: string, perSide: Map<Side, Array<[string, number]>>): void {
  const lines = [title];
  for (const side of SIDES) {
    const rows = perSide.get(side)!;
    const sum = rows.reduce((n, [, ms]) => n + ms, 0);
    lines.push(`  ${SIDE_TEXT[side]} (${sum.toFixed(1)} ms sampled):`);
    for (const [owner, ms] of rows.filter(([, ms]) => ms >= 0.5)) lines.push(`    ${owner.padEnd(40)}${ms.toFixed(1).padStart(9)} ms`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

function child(side: Side, services: number, packages: boolean): void {
  require('./workloads');
  instrument();
  const sampler = packages ? new PackageSampler() : undefined;
  const sample = sampler ? sampler.sample(() => synthesize(side, services)) : synthesize(side, services);
  process.stdout.write(`${JSON.stringify({ sample, owners: sampler?.perRun() })}\n`);
}

function main(): void {
  const services = option('--services', 200);
  const packages = process.argv.includes('--packages');
  if (process.argv.includes('--child')) {
    child(process.argv[process.argv.indexOf('--child') + 1] as Side, services, packages);
    return;
  }
  ensureBuilt();
  const repetitions = option('--repetitions', 7);
  const processes = option('--processes', 5);
  instrument();
  const samplers = packages ? new Map(SIDES.map((s) => [s, new PackageSampler()])) : undefined;
  const head = `${services} services, CPU ms median [min–max]`;
  printPhases(`Warm synthesis (${repetitions} rounds after 4 warm-up rounds, ${head}):`, warm(services, repetitions, samplers));
  if (samplers)
    printOwners('Warm synthesis, sampled CPU self time per run by owner:', new Map(SIDES.map((s) => [s, samplers.get(s)!.perRun()])));
  const first = cold(services, processes, packages);
  printPhases(`First synthesis in a fresh process (${processes} processes per side, ${head}):`, first.samples);
  if (packages) {
    const medians = new Map(
      SIDES.map((s): [Side, Array<[string, number]>] => [
        s,
        [...first.owners.get(s)!].map(([k, v]): [string, number] => [k, spread(v).median]).sort((a, b) => b[1] - a[1]),
      ]),
    );
    printOwners('First synthesis, sampled CPU self time by owner (median over the processes):', medians);
  }
}

main();
