/**
 * Benchmark of the coverage analysis: 10,000 generated nodes × 100 generated DaemonSets.
 *
 * Measured in the same run, as medians of several repetitions:
 * (a) `JSON.parse` of the nodes file text (the floor any tool reading `kubectl get nodes -o json` pays);
 * (b) the analysis itself: parsing the DaemonSet manifests (YAML), compiling every workload and node, evaluating
 *     all 100 × 10,000 pairs and building the per-node report.
 * The headline ratio is b / a (target ≤ 1.0), both warm; the end-to-end ratio (read + a + b) / a and the first (cold)
 * analysis are reported too. No GC is forced inside timed sections: a forced full collection also drops optimized
 * code, which would measure recompilation instead of the analysis.
 *
 * Run alone with `npx tsx bench/coverage.ts`.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseObjects } from '../src/cli/io';
import { CoverageReport, analyzeCoverage } from '../src/coverage';
// The judge of API validity the package index installs (the analysis refuses to judge DaemonSets without it).
import '../src/policy/api-validity';
import { bytes, load1, Measure, row, runStandalone } from './measure';

/** The samples behind the medians of {@link CoverageBenchResult}. */
interface CoverageSamples {
  readonly jsonParseTimes: number[];
  readonly analysisTimes: number[];
}

/** What {@link benchCoverage} measured. */
export interface CoverageBenchResult {
  /** Number of generated nodes. */
  readonly nodes: number;
  /** Number of generated DaemonSets. */
  readonly daemonSets: number;
  /** Size of the nodes JSON file in bytes. */
  readonly nodesFileBytes: number;
  /** Repetitions each median is taken over. */
  readonly repetitions: number;
  /** Median milliseconds of `JSON.parse` of the nodes file text. */
  readonly jsonParseMs: number;
  /** Median milliseconds of the analysis (parse manifests + compile + evaluate + report). */
  readonly analysisMs: number;
  /** analysisMs / jsonParseMs. */
  readonly ratio: number;
  /** Milliseconds of the first analysis in the process (cold: code not yet optimized), for reference. */
  readonly firstAnalysisMs: number;
  /** Median milliseconds of reading the nodes file, `JSON.parse` and the analysis together. */
  readonly endToEndMs: number;
  /** endToEndMs / jsonParseMs. */
  readonly endToEndRatio: number;
  /** Pairs evaluated per second in the analysis. */
  readonly pairsPerSecond: number;
  /** Resident set size after reading the file, parsing it and one analysis (file text, nodes and report alive), MiB. */
  readonly rssMiB: number;
  /** Peak resident set size of the process up to then (`npm run bench` runs each measure in a process of its own), MiB. */
  readonly peakRssMiB: number;
  /** Heap used right after an analysis (file text, parsed nodes and report alive), MiB. */
  readonly heapUsedMiB: number;
  /** Heap retained by the parsed nodes, MiB. */
  readonly nodesHeapMiB: number;
  /** Heap retained by one report (plus compiled nodes it references), MiB. */
  readonly reportHeapMiB: number;
  /** Desired and schedulable pairs found (a sanity check that the workload is not trivial). */
  readonly desiredPairs: number;
  /** Pairs where the pod runs. */
  readonly schedulablePairs: number;
}

/** A small deterministic PRNG (mulberry32), so that every run benchmarks the same cluster. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ZONES = ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'];
const TYPES: Array<[string, string, string, string]> = [
  // instance type, cpu allocatable, memory allocatable, pods
  ['m6i.xlarge', '3920m', '15179836Ki', '58'],
  ['m6i.2xlarge', '7910m', '31482648Ki', '58'],
  ['c6i.4xlarge', '15890m', '28414456Ki', '234'],
  ['r6i.large', '1930m', '15152676Ki', '29'],
  ['t3.small', '1930m', '1474560Ki', '11'],
];

/** One realistic Node: ~15 labels, a pool with its taints, allocatable by instance type, status as kubectl shows it. */
export function generateNode(i: number, random: () => number): any {
  const zone = ZONES[i % 3];
  const name = `ip-10-${(i >> 16) & 255}-${(i >> 8) & 255}-${i & 255}.eu-west-1.compute.internal`;
  const roll = random();
  let pool = 'general';
  const taints: any[] = [];
  const labels: Record<string, string> = {};
  let [type, cpu, memory, pods] = TYPES[Math.floor(random() * TYPES.length)];
  const allocatable: Record<string, string> = {};
  if (roll < 0.05) {
    pool = 'gpu';
    type = 'g5.2xlarge';
    [cpu, memory, pods] = ['7910m', '31482648Ki', '58'];
    labels['nvidia.com/gpu.present'] = 'true';
    labels['nvidia.com/gpu.product'] = 'NVIDIA-A10G';
    taints.push({ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' });
    allocatable['nvidia.com/gpu'] = '1';
  } else if (roll < 0.1) {
    pool = 'edge';
    labels['node-role.kubernetes.io/edge'] = '';
    taints.push({ key: 'node-role.kubernetes.io/edge', effect: 'NoSchedule' });
  } else if (roll < 0.11) {
    pool = 'control-plane';
    labels['node-role.kubernetes.io/control-plane'] = '';
    taints.push({ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' });
  } else if (roll < 0.26) {
    pool = 'spot';
    labels['karpenter.sh/capacity-type'] = 'spot';
    taints.push({ key: 'spot', value: 'true', effect: 'PreferNoSchedule' });
  } else if (roll < 0.3) {
    pool = 'infra';
    taints.push({ key: 'dedicated', value: 'infra', effect: 'NoSchedule' });
  }
  if (random() < 0.01) taints.push({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: '2024-11-28T14:20:05Z' });
  if (random() < 0.01) {
    taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' });
    taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: '2024-11-28T15:41:07Z' });
  }
  Object.assign(labels, {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/instance-type': type,
    'beta.kubernetes.io/os': 'linux',
    'eks.amazonaws.com/nodegroup': `${pool}-${zone}`,
    'failure-domain.beta.kubernetes.io/region': 'eu-west-1',
    'failure-domain.beta.kubernetes.io/zone': zone,
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': name,
    'kubernetes.io/os': 'linux',
    'node.example.com/generation': String(5 + Math.floor(random() * 3)),
    'node.example.com/pool': pool,
    'node.kubernetes.io/instance-type': type,
    'topology.ebs.csi.aws.com/zone': zone,
    'topology.kubernetes.io/region': 'eu-west-1',
    'topology.kubernetes.io/zone': zone,
  });
  const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const now = '2024-11-28T16:02:44Z';
  const condition = (type: string, status: string, reason: string, message: string) => ({
    lastHeartbeatTime: now,
    lastTransitionTime: '2024-05-02T09:14:11Z',
    message,
    reason,
    status,
    type,
  });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      annotations: {
        'alpha.kubernetes.io/provided-node-ip': ip,
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
      creationTimestamp: '2024-05-02T09:14:11Z',
      labels,
      name,
      resourceVersion: String(48213000 + i),
      uid: `5f0c2a1e-${(i & 0xffff).toString(16).padStart(4, '0')}-4c1b-9a4e-${i.toString(16).padStart(12, '0')}`,
    },
    spec: {
      providerID: `aws:///${zone}/i-0${i.toString(16).padStart(16, '0')}`,
      ...(taints.length > 0 ? { taints } : {}),
    },
    status: {
      addresses: [
        { address: ip, type: 'InternalIP' },
        { address: name, type: 'Hostname' },
        { address: name, type: 'InternalDNS' },
      ],
      allocatable: { cpu, 'ephemeral-storage': '95491165145', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory, pods, ...allocatable },
      capacity: {
        cpu: '4',
        'ephemeral-storage': '104845292Ki',
        'hugepages-1Gi': '0',
        'hugepages-2Mi': '0',
        memory: '16049212Ki',
        pods,
        ...allocatable,
      },
      conditions: [
        condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      images: [
        { names: ['registry.k8s.io/kube-proxy:v1.28.12'], sizeBytes: 28391043 },
        { names: ['602401143452.dkr.ecr.eu-west-1.amazonaws.com/amazon-k8s-cni:v1.18.2-eksbuild.1'], sizeBytes: 50392815 },
        { names: ['registry.k8s.io/pause:3.9'], sizeBytes: 321520 },
      ],
      nodeInfo: {
        architecture: 'amd64',
        bootID: `b7${i.toString(16).padStart(6, '0')}-1c2d-4e5f-8a9b-0c1d2e3f4a5b`,
        containerRuntimeVersion: 'containerd://1.7.20',
        kernelVersion: '6.1.90-99.173.amzn2023.x86_64',
        kubeProxyVersion: 'v1.28.12-eks-2f46c53',
        kubeletVersion: 'v1.28.12-eks-2f46c53',
        machineID: `ec2${i.toString(16).padStart(29, '0')}`,
        operatingSystem: 'linux',
        osImage: 'Amazon Linux 2023.5.20240805',
        systemUUID: `ec2${i.toString(16).padStart(5, '0')}-7a8b-9c0d-1e2f-3a4b5c6d7e8f`,
      },
    },
  };
}

/** DaemonSet manifests as YAML: a mix of nodeSelector, affinity, tolerations, host ports and requests. */
export function generateDaemonSets(count: number, random: () => number): string {
  const docs: string[] = [];
  for (let i = 0; i < count; i++) {
    const lines: string[] = [];
    const shape = i % 5;
    const spec: string[] = [];
    if (shape === 0) {
      spec.push('      tolerations:', '        - operator: Exists');
    } else if (shape === 1) {
      spec.push('      nodeSelector:', `        node.example.com/pool: ${['general', 'spot', 'infra'][i % 3]}`);
      spec.push(
        '      tolerations:',
        '        - key: dedicated',
        '          operator: Equal',
        '          value: infra',
        '          effect: NoSchedule',
      );
    } else if (shape === 2) {
      spec.push(
        '      affinity:',
        '        nodeAffinity:',
        '          requiredDuringSchedulingIgnoredDuringExecution:',
        '            nodeSelectorTerms:',
        '              - matchExpressions:',
        `                  - {key: topology.kubernetes.io/zone, operator: In, values: [${ZONES.slice(0, 1 + (i % 3)).join(', ')}]}`,
        '                  - {key: node-role.kubernetes.io/control-plane, operator: DoesNotExist}',
        `                  - {key: node.example.com/generation, operator: Gt, values: ["${4 + (i % 3)}"]}`,
        '              - matchExpressions:',
        '                  - {key: node.example.com/pool, operator: In, values: [gpu]}',
      );
      spec.push('      tolerations:', '        - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}');
    } else if (shape === 3) {
      spec.push('      nodeSelector:', '        nvidia.com/gpu.present: "true"');
      spec.push('      tolerations:', '        - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}');
    } else {
      spec.push('      hostNetwork: true');
      spec.push('      tolerations:', '        - {operator: Exists, effect: NoSchedule}');
    }
    const port =
      i % 4 === 0 ? [`          ports:`, `            - {name: metrics, containerPort: ${9100 + i}, hostPort: ${9100 + i}}`] : [];
    const bigMemory = random() < 0.2 ? '2Gi' : `${32 + Math.floor(random() * 200)}Mi`;
    const gpu = shape === 3 && i % 2 === 1 ? ['              nvidia.com/gpu: "1"'] : [];
    lines.push(
      'apiVersion: apps/v1',
      'kind: DaemonSet',
      'metadata:',
      `  name: agent-${i}`,
      `  namespace: node-services-${i % 7}`,
      'spec:',
      '  selector:',
      '    matchLabels:',
      `      app.kubernetes.io/name: agent-${i}`,
      '  template:',
      '    metadata:',
      '      labels:',
      `        app.kubernetes.io/name: agent-${i}`,
      '    spec:',
      ...spec,
      '      containers:',
      `        - name: agent`,
      `          image: ghcr.io/example/agent-${i}:1.0.${i}`,
      ...port,
      '          resources:',
      '            requests:',
      `              cpu: ${10 + Math.floor(random() * 240)}m`,
      `              memory: ${bigMemory}`,
      ...gpu,
      '            limits:',
      `              memory: ${bigMemory}`,
      ...gpu,
    );
    docs.push(lines.join('\n'));
  }
  return docs.join('\n---\n') + '\n';
}

/** Writes a `kubectl get nodes -o json` style List (4-space indentation) one node at a time. */
export function writeNodeList(file: string, count: number, random: () => number): void {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, '{\n    "apiVersion": "v1",\n    "items": [\n');
    for (let i = 0; i < count; i++) {
      const text = JSON.stringify(generateNode(i, random), null, 4).replace(/\n/g, '\n        ');
      fs.writeSync(fd, `        ${text}${i < count - 1 ? ',' : ''}\n`);
    }
    fs.writeSync(fd, '    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n');
  } finally {
    fs.closeSync(fd);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect) collect();
}

const MiB = 1024 * 1024;

/**
 * Generates 10,000 nodes and 100 DaemonSets, writes the nodes to a temporary JSON file and measures `JSON.parse`
 * of that file against the analysis, in the same run.
 */
export async function benchCoverage(
  options: { nodes?: number; daemonSets?: number; repetitions?: number } = {},
): Promise<CoverageBenchResult & CoverageSamples> {
  const nodeCount = options.nodes ?? 10_000;
  const dsCount = options.daemonSets ?? 100;
  const repetitions = options.repetitions ?? 7;
  const random = rng(20241128);
  const manifests = generateDaemonSets(dsCount, random);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-bench-'));
  const nodesFile = path.join(dir, 'nodes.json');
  try {
    writeNodeList(nodesFile, nodeCount, random);
    const text = fs.readFileSync(nodesFile, 'utf8');
    const analyse = (nodes: any[]): CoverageReport =>
      analyzeCoverage(
        parseObjects(manifests, 'daemonsets.yaml').map((o) => o.object),
        nodes,
      );

    // Memory first, on a fresh heap: the parsed nodes, one analysis while its report is alive, and what the
    // report retains (exact with `node --expose-gc`; without it the heap figures include garbage).
    gc();
    const heapStart = process.memoryUsage().heapUsed;
    const nodes: any[] = JSON.parse(text).items;
    gc();
    const heapWithNodes = process.memoryUsage().heapUsed;
    const firstStart = performance.now();
    let kept: CoverageReport | undefined = analyse(nodes);
    const firstAnalysisMs = performance.now() - firstStart;
    const heapUsed = process.memoryUsage().heapUsed;
    gc();
    const reportHeap = process.memoryUsage().heapUsed - heapWithNodes;
    const rss = process.memoryUsage().rss;
    const peakRss = process.resourceUsage().maxRSS * 1024;
    if (kept.nodes !== nodeCount) throw new Error('the report lost nodes');
    kept = undefined;

    // Timing: one warm-up round, then the measured repetitions, parse and analysis interleaved so that both see
    // the same machine. No forced GC inside the timed section: collection the work causes is part of its cost.
    const parseTimes: number[] = [];
    const analysisTimes: number[] = [];
    const endToEndTimes: number[] = [];
    let desiredPairs = 0;
    let schedulablePairs = 0;
    for (let rep = -1; rep < repetitions; rep++) {
      let t0 = performance.now();
      const parsed = JSON.parse(text);
      const parseMs = performance.now() - t0;
      if (parsed.items.length !== nodeCount) throw new Error('the nodes file did not round-trip');

      t0 = performance.now();
      const report = analyse(nodes);
      const analysisMs = performance.now() - t0;
      desiredPairs = report.workloads.reduce((sum, w) => sum + w.desired, 0);
      schedulablePairs = report.workloads.reduce((sum, w) => sum + w.schedulable, 0);

      t0 = performance.now();
      analyse(JSON.parse(fs.readFileSync(nodesFile, 'utf8')).items);
      const endToEndMs = performance.now() - t0;

      if (rep >= 0) {
        parseTimes.push(parseMs);
        analysisTimes.push(analysisMs);
        endToEndTimes.push(endToEndMs);
      }
    }

    const jsonParseMs = median(parseTimes);
    const analysisMs = median(analysisTimes);
    const endToEndMs = median(endToEndTimes);
    return {
      nodes: nodeCount,
      daemonSets: dsCount,
      nodesFileBytes: Buffer.byteLength(text),
      repetitions,
      jsonParseMs: round(jsonParseMs),
      analysisMs: round(analysisMs),
      ratio: round(analysisMs / jsonParseMs),
      firstAnalysisMs: round(firstAnalysisMs),
      endToEndMs: round(endToEndMs),
      endToEndRatio: round(endToEndMs / jsonParseMs),
      pairsPerSecond: Math.round((nodeCount * dsCount) / (analysisMs / 1000)),
      rssMiB: round(rss / MiB),
      peakRssMiB: round(peakRss / MiB),
      heapUsedMiB: round(heapUsed / MiB),
      nodesHeapMiB: round((heapWithNodes - heapStart) / MiB),
      reportHeapMiB: round(reportHeap / MiB),
      desiredPairs,
      schedulablePairs,
      jsonParseTimes: parseTimes,
      analysisTimes,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

export const measure: Measure = {
  name: 'coverage',
  async run() {
    const start = load1();
    const c = await benchCoverage();
    const load: [number, number] = [start, load1()];
    // The process runs this measure alone, so its peak is the coverage measure's own.
    return {
      rows: [
        {
          ...row(
            `coverage ${c.nodes} nodes × ${c.daemonSets} DaemonSets ÷ JSON.parse of the nodes file`,
            c.analysisTimes,
            c.jsonParseTimes,
            {
              target: 1,
              load,
              notes: [
                `nodes file ${bytes(c.nodesFileBytes)}; peak RSS of the process ${c.peakRssMiB.toFixed(0)} MiB; ` +
                  `heap with nodes and report alive ${c.heapUsedMiB.toFixed(0)} MiB`,
              ],
            },
          ),
          ratio: c.ratio,
        },
      ],
      results: { coverage: withoutSamples(c) },
    };
  },
};

function withoutSamples(c: CoverageBenchResult & CoverageSamples): CoverageBenchResult {
  const { analysisTimes: _a, jsonParseTimes: _p, ...rest } = c;
  return rest;
}

if (require.main === module) runStandalone(measure);
