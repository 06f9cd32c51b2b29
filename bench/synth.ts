/**
 * Synthesis benchmarks, measured side by side in one run:
 * - 200 node services (every rule enabled) ÷ 200 plain cdk8s-plus-28 DaemonSets with the same containers, mounts and
 *   tolerations, both built and rendered to YAML in-process;
 * - `npx cdk8s synth` of the examples ÷ `npx cdk8s --version` (the CLI's own start-up).
 */

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { HostPath, NodeService, Probe, Toleration } from '../src';

/** Result of {@link benchSynth}. */
export interface SynthBenchResult {
  readonly services: number;
  readonly repetitions: number;
  readonly nodeServicesMs: number;
  readonly cdk8sPlusMs: number;
  readonly ratio: number;
}

/** Result of {@link benchCdk8sCli}. */
export interface CliSynthBenchResult {
  readonly runs: number;
  readonly synthMs: number;
  readonly versionMs: number;
  readonly ratio: number;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const OUT = path.join(os.tmpdir(), 'node-services-bench-synth');

function nodeServices(count: number): string {
  const app = new App({ outdir: OUT });
  const chart = new Chart(app, 'bench', { namespace: 'node-services' });
  for (let i = 0; i < count; i++) {
    new NodeService(chart, `agent-${i}`, {
      name: `agent-${i}`,
      containers: [
        {
          name: 'agent',
          image: `registry.example.com/agent:1.0.${i}`,
          ports: [{ name: 'http', containerPort: 2020 }],
          readiness: Probe.tcpSocket('http'),
          resources: { cpuRequest: '100m', memoryRequest: '128Mi', memoryLimit: '256Mi' },
          hostPaths: [HostPath.readOnly('/var/log')],
        },
      ],
      tolerations: [Toleration.all()],
      suppressions: [{ ruleId: 'tolerates-all-taints', reason: 'benchmark agents run on every node' }],
    });
  }
  return app.synthYaml();
}

function plainDaemonSets(count: number): string {
  const app = new App({ outdir: OUT });
  const chart = new Chart(app, 'bench', { namespace: 'node-services' });
  for (let i = 0; i < count; i++) {
    // The same container (image, port, probe, resources, security context, mount), labels and toleration as the
    // node service above; only what cdk8s-plus has no API for (update strategy, node selector, annotations) differs.
    const labels = {
      'app.kubernetes.io/name': `agent-${i}`,
      'app.kubernetes.io/instance': `agent-${i}`,
      'app.kubernetes.io/version': `1.0.${i}`,
      'app.kubernetes.io/component': 'node-service',
      'app.kubernetes.io/part-of': 'node-services',
      'app.kubernetes.io/managed-by': 'cdk8s-node-services',
    };
    const ds = new kplus.DaemonSet(chart, `agent-${i}`, { metadata: { name: `agent-${i}`, labels }, podMetadata: { labels } });
    const c = ds.addContainer({
      name: 'agent',
      image: `registry.example.com/agent:1.0.${i}`,
      ports: [{ name: 'http', number: 2020 }],
      readiness: kplus.Probe.fromTcpSocket({ port: 2020 }),
      resources: {
        cpu: { request: kplus.Cpu.millis(100) },
        memory: { request: Size.mebibytes(128), limit: Size.mebibytes(256) },
      },
      securityContext: {
        ensureNonRoot: false,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        privileged: false,
        capabilities: { drop: [kplus.Capability.ALL] },
        seccompProfile: { type: kplus.SeccompProfileType.RUNTIME_DEFAULT },
      },
    });
    const volume = kplus.Volume.fromHostPath(chart, `varlog-${i}`, 'host-var-log', {
      path: '/var/log',
      type: kplus.HostPathVolumeType.DIRECTORY,
    });
    c.mount('/var/log', volume, { readOnly: true });
    ds.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.any()));
  }
  return app.synthYaml();
}

/** Builds and renders `services` node services and as many cdk8s-plus DaemonSets, interleaved, and compares medians. */
export function benchSynth(options: { services?: number; repetitions?: number } = {}): SynthBenchResult {
  const services = options.services ?? 200;
  const repetitions = options.repetitions ?? 9;
  const ours: number[] = [];
  const plain: number[] = [];
  for (let rep = -2; rep < repetitions; rep++) {
    let t0 = performance.now();
    const a = nodeServices(services);
    const oursMs = performance.now() - t0;
    t0 = performance.now();
    const b = plainDaemonSets(services);
    const plainMs = performance.now() - t0;
    if (!a.includes('kind: DaemonSet') || !b.includes('kind: DaemonSet')) throw new Error('synthesis produced no DaemonSet');
    if (rep >= 0) {
      ours.push(oursMs);
      plain.push(plainMs);
    }
  }
  const nodeServicesMs = median(ours);
  const cdk8sPlusMs = median(plain);
  return { services, repetitions, nodeServicesMs, cdk8sPlusMs, ratio: nodeServicesMs / cdk8sPlusMs };
}

function timeCommand(cmd: string, args: string[], cwd: string): number {
  const t0 = performance.now();
  execFileSync(cmd, args, { cwd, stdio: 'pipe', env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false' } });
  return performance.now() - t0;
}

/** Times `npx cdk8s synth` of the examples against `npx cdk8s --version`, interleaved. */
export function benchCdk8sCli(options: { runs?: number } = {}): CliSynthBenchResult {
  const runs = options.runs ?? 5;
  const root = path.join(__dirname, '..');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-bench-cli-'));
  const synth: number[] = [];
  const version: number[] = [];
  try {
    for (let i = -1; i < runs; i++) {
      const s = timeCommand('npx', ['cdk8s', 'synth', '--no-check-upgrade', '--output', out], root);
      const v = timeCommand('npx', ['cdk8s', '--version'], root);
      if (i >= 0) {
        synth.push(s);
        version.push(v);
      }
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
  const synthMs = median(synth);
  const versionMs = median(version);
  return { runs, synthMs, versionMs, ratio: synthMs / versionMs };
}

if (require.main === module) {
  console.log(JSON.stringify({ synth: benchSynth(), cli: benchCdk8sCli() }, null, 2));
}
