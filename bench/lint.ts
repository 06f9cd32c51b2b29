/**
 * `node-services lint` on a 1,000-DaemonSet multi-document YAML file, and the CLI's cold start.
 *
 * Measured in one process, in rotating order, as spreads over several repetitions:
 * - the full lint in-process (`main(['lint', file])` of the compiled CLI: read, parse with positions, the rule
 *   catalogue, the text report), without process start;
 * - reading the file and `yaml` `parseAllDocuments` + `toJS` of every document (the parser lint uses today);
 * - reading the file and `js-yaml` `loadAll` (a faster YAML 1.2 parser without positions), on the same file.
 * Peak memory is measured in processes of their own on a 10,000-DaemonSet file (about 22 MB): the lint CLI (as users
 * run it, `bin/node-services` with its code cache and the young generation it keeps from growing for lint), a
 * process that only parses it with `yaml`, one that only loads it with `js-yaml`; each is stated as a multiple of the
 * file size. CLI cold start: `node bin/node-services lint <one small file>` against `node -e 0`, alternating.
 *
 * Run alone with `npx tsx --expose-gc bench/lint.ts`.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as jsYaml from 'js-yaml';
import { parseAllDocuments, stringify } from 'yaml';
import type { CliIo } from '../src/cli/io';
import {
  bytes,
  cpuOf,
  ensureBuilt,
  load1,
  Measure,
  mib,
  peakRss,
  ROOT,
  round,
  rotate,
  row,
  runStandalone,
  spread,
  runProcess,
} from './measure';

/** What the lint measure found (`results.lint` in bench/results.json). */
export interface LintBenchResult {
  /** DaemonSets in the generated file. */
  readonly daemonSets: number;
  /** Size of the generated file in bytes. */
  readonly fileBytes: number;
  /** Repetitions each in-process median is taken over. */
  readonly repetitions: number;
  /** Median milliseconds of read + `yaml` `parseAllDocuments` + `toJS`. */
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
  /** Median milliseconds of read + `js-yaml` `loadAll` of the same file. */
  readonly jsYamlMs: number;
  /** lintMs / jsYamlMs. */
  readonly jsYamlRatio: number;
  /** DaemonSets and bytes of the file the memory is measured on. */
  readonly memoryDaemonSets: number;
  readonly memoryFileBytes: number;
  /** Peak resident set size of `node-services lint` on that file, of a `yaml` parse of it, of a `js-yaml` load of it, MiB. */
  readonly lintPeakRssMiB: number;
  readonly yamlPeakRssMiB: number;
  readonly jsYamlPeakRssMiB: number;
  /** lintPeakRssMiB ÷ the file size. */
  readonly lintPeakRssPerFileSize: number;
  /** Peak resident set size of the CLI linting one small file, and of `node -e 0`, MiB. */
  readonly cliPeakRssMiB: number;
  readonly nodePeakRssMiB: number;
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

export function documents(count: number): string {
  return Array.from({ length: count }, (_, i) => stringify(daemonSet(i))).join('---\n');
}

const sink: CliIo = { out: () => undefined, err: () => undefined, readStdin: async () => '', isTTY: false };

export const measure: Measure = {
  name: 'lint',
  async run() {
    ensureBuilt();
    const count = 1000;
    const memoryCount = 10_000;
    const repetitions = 5;
    const processRuns = 11;
    // The CLI bundle (what bin/node-services runs); lib/ holds no separate compiled CLI modules.
    const { main } = require(path.join(ROOT, 'lib', 'cli', 'node-services.js')) as typeof import('../src/cli/main');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lint-'));
    try {
      const file = path.join(dir, 'daemonsets.yaml');
      const text = documents(count);
      fs.writeFileSync(file, text);
      const small = path.join(dir, 'one.yaml');
      fs.writeFileSync(small, stringify(daemonSet(1)));

      let findings = 0;
      const counting: CliIo = { ...sink, out: (t) => void (findings = (t.match(/^ {2}(error|warning|info) /gm) ?? []).length) };
      const start = load1();
      let firstLint = true;
      const parsing = await rotate(
        [
          async () => {
            const t0 = performance.now();
            const code = await main(['lint', file], firstLint ? counting : sink);
            const ms = performance.now() - t0;
            firstLint = false;
            if (code !== 1) throw new Error(`lint exited ${code}, expected 1 (the file has ':latest' images)`);
            return ms;
          },
          () => {
            const t0 = performance.now();
            const values = parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => d.toJS());
            const ms = performance.now() - t0;
            if (values.length !== count) throw new Error(`yaml parsed ${values.length} documents, expected ${count}`);
            return ms;
          },
          () => {
            const t0 = performance.now();
            const values = jsYaml.loadAll(fs.readFileSync(file, 'utf8'));
            const ms = performance.now() - t0;
            if (values.length !== count) throw new Error(`js-yaml loaded ${values.length} documents, expected ${count}`);
            return ms;
          },
        ],
        { repetitions, warmup: 1 },
      );
      const [lintTimes, parseTimes, jsYamlTimes] = parsing.wall;
      const inProcess: [number, number] = [start, load1()];

      // Peak memory, each in a process of its own, on a file ten times larger.
      const bigFile = path.join(dir, 'large.yaml');
      fs.writeFileSync(bigFile, documents(memoryCount));
      const bigBytes = fs.statSync(bigFile).size;
      const memStart = load1();
      const peak = (args: string[], statuses: number[] = [0]): number => peakRss(process.execPath, args, statuses);
      const bin = path.join(ROOT, 'bin', 'node-services');
      // Unmeasured: the first run of the CLI after a build writes its code cache when it exits (see
      // scripts/code-cache.js; a large input and a small one keep caches of their own, see bin/node-services); the
      // measured runs find them, as every later run of a user does.
      peak([bin, 'lint', bigFile], [1]);
      peak([bin, 'lint', small]);
      const lintRss = peak([bin, 'lint', bigFile], [1]);
      const yamlRss = peak([
        '-e',
        `require('yaml').parseAllDocuments(require('fs').readFileSync(${JSON.stringify(bigFile)}, 'utf8')).map((d) => d.toJS())`,
      ]);
      const jsYamlRss = peak(['-e', `require('js-yaml').loadAll(require('fs').readFileSync(${JSON.stringify(bigFile)}, 'utf8'))`]);
      const cliRss = peak([bin, 'lint', small]);
      const nodeRss = peak(['-e', '0']);
      const memory: [number, number] = [memStart, load1()];

      const coldStart = load1();
      const starts = await rotate(
        [() => runProcess(process.execPath, [bin, 'lint', small]), () => runProcess(process.execPath, ['-e', '0'])],
        {
          repetitions: processRuns,
          warmup: 1,
        },
      );
      const [cliTimes, nodeTimes] = starts.wall;
      const cold: [number, number] = [coldStart, load1()];

      const lint = spread(lintTimes);
      const parse = spread(parseTimes);
      const js = spread(jsYamlTimes);
      const cli = spread(cliTimes);
      const node = spread(nodeTimes);
      const fileMiB = mib(bigBytes);
      const result: LintBenchResult = {
        daemonSets: count,
        fileBytes: Buffer.byteLength(text),
        repetitions,
        parseMs: round(parse.median),
        lintMs: round(lint.median),
        ratio: round(lint.median / parse.median),
        findings,
        processRuns,
        cliMs: round(cli.median),
        nodeMs: round(node.median),
        coldStartRatio: round(cli.median / node.median),
        jsYamlMs: round(js.median),
        jsYamlRatio: round(lint.median / js.median),
        memoryDaemonSets: memoryCount,
        memoryFileBytes: bigBytes,
        lintPeakRssMiB: round(mib(lintRss)),
        yamlPeakRssMiB: round(mib(yamlRss)),
        jsYamlPeakRssMiB: round(mib(jsYamlRss)),
        lintPeakRssPerFileSize: round(lintRss / bigBytes),
        cliPeakRssMiB: round(mib(cliRss)),
        nodePeakRssMiB: round(mib(nodeRss)),
      };
      const times = (x: number) => `${(x / bigBytes).toFixed(1)}× the file`;
      return {
        rows: [
          row(`lint ${count.toLocaleString('en')}-DaemonSet file (${bytes(text.length)}) ÷ yaml parse of it`, lintTimes, parseTimes, {
            target: 0.2,
            load: inProcess,
            cpu: cpuOf(parsing, 0, 1),
            notes: [`${result.findings} findings reported`],
          }),
          row('  js-yaml loadAll of the same file ÷ yaml parse of it (reference: a parser without positions)', jsYamlTimes, parseTimes, {
            load: inProcess,
            cpu: cpuOf(parsing, 2, 1),
          }),
          row(`lint peak memory (own process, ${memoryCount.toLocaleString('en')} DaemonSets) ÷ the file size`, [mib(lintRss)], [fileMiB], {
            target: 6,
            unit: 'MiB',
            load: memory,
            notes: [
              `file ${bytes(bigBytes)}; peak RSS: lint ${mib(lintRss).toFixed(0)} MiB (${times(lintRss)}), ` +
                `yaml parse ${mib(yamlRss).toFixed(0)} MiB (${times(yamlRss)}), js-yaml loadAll ${mib(jsYamlRss).toFixed(0)} MiB (${times(jsYamlRss)}), ` +
                `node -e 0 ${mib(nodeRss).toFixed(0)} MiB`,
            ],
          }),
          row('CLI cold start (lint one file) ÷ node -e 0', cliTimes, nodeTimes, {
            target: 1.3,
            load: cold,
            cpu: cpuOf(starts, 0, 1),
            notes: [`peak RSS ${mib(cliRss).toFixed(0)} MiB ÷ ${mib(nodeRss).toFixed(0)} MiB`],
          }),
        ],
        results: { lint: result },
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

if (require.main === module) runStandalone(measure);
