/**
 * Benchmark of `node-services lint` on a 1,000-DaemonSet multi-document YAML file.
 *
 * Measured in the same run, as medians of several repetitions:
 * (a) reading the file and `yaml` `parseAllDocuments` + `toJS` of every document (the floor any YAML tool pays);
 * (b) the full lint in-process: `main(['lint', file])` — read, parse (with line numbers), run the rule catalogue and
 *     format the text report, without process start;
 * (c) CLI cold start: `node bin/node-services lint <one small file>` against `node -e 0` (needs the CLI bundle; it is
 *     built with `npm run build` when missing or older than the sources).
 * Ratios b / a and c / `node -e 0` are the headline numbers (targets ≤ 2).
 *
 * Run alone with `npx tsx bench/lint.ts`.
 */

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments, stringify } from 'yaml';
import { CliIo } from '../src/cli/io';
import { main } from '../src/cli/main';

/** What {@link benchLint} measured. */
export interface LintBenchResult {
  /** DaemonSets in the generated file. */
  readonly daemonSets: number;
  /** Size of the generated file in bytes. */
  readonly fileBytes: number;
  /** Repetitions each in-process median is taken over. */
  readonly repetitions: number;
  /** Median milliseconds of read + `parseAllDocuments` + `toJS`. */
  readonly parseMs: number;
  /** Median milliseconds of the full in-process lint. */
  readonly lintMs: number;
  /** lintMs / parseMs. */
  readonly ratio: number;
  /** Findings the lint reported (a check that the rules ran on a non-trivial input). */
  readonly findings: number;
  /** Process starts each cold-start median is taken over. */
  readonly processRuns: number;
  /** Median milliseconds of `node bin/node-services lint <small file>`. */
  readonly cliMs: number;
  /** Median milliseconds of `node -e 0`. */
  readonly nodeMs: number;
  /** cliMs / nodeMs. */
  readonly coldStartRatio: number;
}

const ROOT = path.join(__dirname, '..');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A realistic log-agent DaemonSet; every 10th lacks a readiness probe, every 25th uses ':latest'. */
function daemonSet(i: number): any {
  const name = `agent-${i}`;
  const labels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/instance': 'logs' };
  const container: any = {
    name: 'agent',
    image: i % 25 === 0 ? `registry.example.com/agents/${name}:latest` : `registry.example.com/agents/${name}:1.${i % 10}.0`,
    env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
    ports: [{ name: 'http', containerPort: 2020 }],
    readinessProbe: { httpGet: { path: '/api/v1/health', port: 'http' }, periodSeconds: 10 },
    livenessProbe: { httpGet: { path: '/', port: 'http' } },
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
    securityContext: {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'], add: ['DAC_READ_SEARCH'] },
    },
    volumeMounts: [
      { name: 'varlog', mountPath: '/var/log', readOnly: true },
      { name: 'containers', mountPath: '/var/lib/docker/containers', readOnly: true },
    ],
  };
  if (i % 10 === 0) delete container.readinessProbe;
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name,
      namespace: 'logging',
      labels: { ...labels, 'app.kubernetes.io/version': '1.0.0' },
      annotations: { 'node-services.cdk8s.io/kind': 'log-agent' },
    },
    spec: {
      selector: { matchLabels: labels },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 } },
      template: {
        metadata: { labels },
        spec: {
          securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          containers: [container],
          volumes: [
            { name: 'varlog', hostPath: { path: '/var/log', type: 'Directory' } },
            { name: 'containers', hostPath: { path: '/var/lib/docker/containers', type: 'DirectoryOrCreate' } },
          ],
        },
      },
    },
  };
}

/** Builds the CLI bundle (`npm run build`) when it is missing or older than the sources it bundles. */
function ensureBuilt(): void {
  const built = path.join(ROOT, 'lib', 'cli', 'node-services.js');
  const newest = (dir: string): number =>
    fs.readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
      const full = path.join(dir, e.name);
      return Math.max(m, e.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
    }, 0);
  const sources = newest(path.join(ROOT, 'src'));
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sources) return;
  spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (!fs.existsSync(built)) throw new Error('lib/cli/node-services.js is missing after `npm run build`');
}

function timeProcess(args: string[]): { ms: number; status: number | null } {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  return { ms: performance.now() - start, status: r.status };
}

/** Runs the benchmark and returns the medians and ratios. */
export async function benchLint(
  options: { daemonSets?: number; repetitions?: number; processRuns?: number } = {},
): Promise<LintBenchResult> {
  const count = options.daemonSets ?? 1000;
  const repetitions = options.repetitions ?? 7;
  const processRuns = options.processRuns ?? 11;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lint-'));
  try {
    const file = path.join(dir, 'daemonsets.yaml');
    const text = Array.from({ length: count }, (_, i) => stringify(daemonSet(i))).join('---\n');
    fs.writeFileSync(file, text);
    const small = path.join(dir, 'one.yaml');
    fs.writeFileSync(small, stringify(daemonSet(1)));

    const sink: CliIo = { out: () => undefined, err: () => undefined, readStdin: async () => '', isTTY: false };
    let findings = 0;
    const counting: CliIo = { ...sink, out: (t) => void (findings = (t.match(/^ {2}(error|warning|info) /gm) ?? []).length) };
    const parseTimes: number[] = [];
    const lintTimes: number[] = [];
    for (let i = 0; i < repetitions + 2; i++) {
      let start = performance.now();
      const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'));
      const values = (Array.isArray(docs) ? docs : []).map((d) => d.toJS());
      const parseMs = performance.now() - start;
      if (values.length !== count) throw new Error(`parsed ${values.length} documents, expected ${count}`);
      start = performance.now();
      const code = await main(['lint', file], i === 0 ? counting : sink);
      const lintMs = performance.now() - start;
      if (code !== 1) throw new Error(`lint exited ${code}, expected 1 (the file has ':latest' images)`);
      if (i >= 2) {
        parseTimes.push(parseMs);
        lintTimes.push(lintMs);
      }
    }

    ensureBuilt();
    const bin = path.join(ROOT, 'bin', 'node-services');
    const cliTimes: number[] = [];
    const nodeTimes: number[] = [];
    for (let i = 0; i < processRuns + 1; i++) {
      const cli = timeProcess([bin, 'lint', small]);
      const node = timeProcess(['-e', '0']);
      if (cli.status !== 0) throw new Error(`node-services lint exited ${cli.status} on the small file, expected 0`);
      if (i > 0) {
        cliTimes.push(cli.ms);
        nodeTimes.push(node.ms);
      }
    }

    const parseMs = median(parseTimes);
    const lintMs = median(lintTimes);
    const cliMs = median(cliTimes);
    const nodeMs = median(nodeTimes);
    return {
      daemonSets: count,
      fileBytes: Buffer.byteLength(text),
      repetitions,
      parseMs,
      lintMs,
      ratio: lintMs / parseMs,
      findings,
      processRuns,
      cliMs,
      nodeMs,
      coldStartRatio: cliMs / nodeMs,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchLint()
    .then((result) => {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    })
    .catch((e) => {
      console.error(e);
      process.exitCode = 1;
    });
}
