import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { stringify } from 'yaml';
import { Canary, NodePool, NodeService, Probe, Variant } from '../../src';
import { CliIo } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { Run, runCli } from '../support/cli';
import { testChart } from '../support/synth';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const NODES = path.join(FIXTURES, 'nodes.json');
const PODS = path.join(FIXTURES, 'coverage', 'pods.json');
const MANIFESTS = path.join(FIXTURES, 'coverage', 'daemonsets.yaml');
const GPU_ONLY = path.join(FIXTURES, 'coverage', 'gpu-only.yaml');
const MALFORMED = path.join(FIXTURES, 'coverage', 'malformed.yaml');
const NODE_NAMES = [
  'worker-a-1',
  'worker-b-1',
  'worker-c-1',
  'gpu-a-1',
  'edge-1',
  'cp-1',
  'worker-cordoned',
  'worker-notready',
  'worker-small',
];

function coverage(args: string[], options: { stdin?: string; isTTY?: boolean } = {}): Promise<Run> {
  return runCli(['coverage', ...args], options);
}

// ANSI colour sequences start with the ESC control character.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/;

describe('node-services coverage: text output', () => {
  test('a header per DaemonSet with namespace/name and desired / schedulable / total, then the nodes without the pod', async () => {
    // GIVEN the fixture cluster, its pods and the platform's DaemonSets
    // WHEN the coverage is printed as text
    const run = await coverage(['--nodes', NODES, '--pods', PODS, MANIFESTS]);
    // THEN it exits 0 and each DaemonSet has its header
    expect(run.code).toBe(0);
    expect(run.out).toContain('DaemonSet logging/fluent-bit: desired 9, schedulable 7, nodes 9');
    expect(run.out).toContain('DaemonSet monitoring/node-exporter: desired 9, schedulable 9, nodes 9');
    expect(run.out).toContain('DaemonSet gpu-monitoring/dcgm-exporter: desired 1, schedulable 1, nodes 9');
    expect(run.out).toContain('DaemonSet security/runtime-audit: desired 5, schedulable 5, nodes 9');
    // AND the table lists only nodes that lack the pod, with status, reason and detail
    const block = run.out.split('\n\n').find((b) => b.startsWith('DaemonSet monitoring/node-exporter'))!;
    const lines = block.split('\n');
    expect(lines[1].trim().split(/\s{2,}/)).toEqual(['NODE', 'STATUS', 'REASON', 'DETAIL']);
    expect(
      lines.slice(2).map((l) =>
        l
          .trim()
          .split(/\s{2,}/)
          .slice(0, 3),
      ),
    ).toEqual([
      // system-node-critical: the priority-0 pods in the way are preempted (and listed)
      ['worker-b-1', 'running', 'preemption'],
      ['worker-small', 'running', 'preemption'],
    ]);
    expect(lines[2]).toContain('after preempting monitoring/legacy-node-exporter-q8d4z');
    expect(lines[3]).toContain('after preempting shop/cart-cache-0');
    // AND fluent-bit (no priority) is Pending on worker-small and not started on the NotReady node
    const fluent = run.out.split('\n\n').find((b) => b.startsWith('DaemonSet logging/fluent-bit'))!;
    expect(fluent).toContain('worker-small     pending     resources  memory: requested 64Mi, free 32Mi of 512Mi allocatable');
    expect(fluent).toMatch(/worker-notready +notRunning +notReady +node condition Ready is False/);
    // AND a summary line counts DaemonSets, nodes and skipped objects
    expect(run.out).toContain('5 DaemonSets over 9 nodes; 1 other object skipped.');
  });

  test('columns are aligned: every row of a table starts its columns at the same offsets', async () => {
    const run = await coverage(['--nodes', NODES, '--pods', PODS, MANIFESTS]);
    const block = run.out.split('\n\n').find((b) => b.startsWith('DaemonSet security/runtime-audit'))!;
    const rows = block.split('\n').slice(1);
    expect(rows).toHaveLength(5); // header + gpu-a-1, edge-1, cp-1, worker-notready
    /** Offsets where a column starts: a non-space after two or more spaces. */
    const columnStarts = (line: string) => [...line.matchAll(/ {2,}(?=\S)/g)].map((m) => m.index! + m[0].length);
    for (const r of rows) expect(columnStarts(r)).toEqual(columnStarts(rows[0]));
    expect(rows[4]).toMatch(/^ {2}worker-notready +excluded +taint +node\.kubernetes\.io\/not-ready:NoSchedule$/);
  });

  test('a DaemonSet that runs everywhere says so instead of printing an empty table', async () => {
    const run = await coverage(['--nodes', NODES, MANIFESTS]);
    // node-exporter is host-network: the NotReady node (pod network not ready) still starts it
    const block = run.out.split('\n\n').find((b) => b.startsWith('DaemonSet monitoring/node-exporter'))!;
    expect(block).toBe('DaemonSet monitoring/node-exporter: desired 9, schedulable 9, nodes 9\n  runs on every node');
  });

  test('colours only on a terminal', async () => {
    expect((await coverage(['--nodes', NODES, '--pods', PODS, MANIFESTS])).out).not.toMatch(ANSI);
    const tty = await coverage(['--nodes', NODES, '--pods', PODS, MANIFESTS], { isTTY: true });
    expect(tty.out).toMatch(ANSI);
    // the colour codes do not break the alignment of the plain text
    expect(tty.out.replace(new RegExp(ANSI.source, 'g'), '')).toBe((await coverage(['--nodes', NODES, '--pods', PODS, MANIFESTS])).out);
  });

  test('warnings go to standard error, naming their object', async () => {
    const run = await coverage(['--nodes', NODES, MANIFESTS]);
    expect(run.err).toContain('warning: node worker-notready: taint node.kubernetes.io/not-ready:NoSchedule');
    // the preemption warning only where preemption changes an answer (here: with the pods)
    expect(run.err).not.toContain('preempt');
    const withPods = await coverage(['--nodes', NODES, '--pods', PODS, MANIFESTS]);
    expect(withPods.err).toContain('warning: DaemonSet monitoring/node-exporter: placed only by preempting lower-priority pods on 2 nodes');
  });
});

describe('node-services coverage: --output json', () => {
  test('exactly {nodes, workloads: [{kind, namespace, name, desired, schedulable, nodes: [{node, runs, reason, detail}]}]}', async () => {
    const run = await coverage(['--nodes', NODES, '--pods', PODS, '--output', 'json', MANIFESTS]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out);
    expect(Object.keys(report)).toEqual(['nodes', 'workloads']);
    expect(report.nodes).toBe(9);
    expect(report.workloads).toHaveLength(5);
    for (const w of report.workloads) {
      expect(Object.keys(w)).toEqual(['kind', 'namespace', 'name', 'desired', 'schedulable', 'nodes']);
      expect(w.kind).toBe('DaemonSet');
      expect(w.nodes.map((n: any) => n.node)).toEqual(NODE_NAMES);
      for (const n of w.nodes) {
        expect(Object.keys(n)).toEqual(['node', 'runs', 'reason', 'detail', 'status', ...(n.preempts ? ['preempts'] : [])]);
        expect([
          'ok',
          'nodeSelector',
          'nodeAffinity',
          'taint',
          'hostPort',
          'resources',
          'diskPressure',
          'unreachable',
          'notReady',
          'os',
        ]).toContain(n.reason);
        expect(n.runs).toBe(n.reason === 'ok');
        expect(n.status).toBe(
          n.runs
            ? 'running'
            : ['nodeSelector', 'nodeAffinity', 'taint'].includes(n.reason)
              ? 'excluded'
              : ['hostPort', 'resources'].includes(n.reason)
                ? 'pending'
                : 'notRunning',
        );
        expect(typeof n.detail).toBe('string');
      }
      expect(w.schedulable).toBe(w.nodes.filter((n: any) => n.runs).length);
    }
  });

  test('verdicts derived from the fixture', async () => {
    const report = JSON.parse((await coverage(['--nodes', NODES, '--pods', PODS, '--output', 'json', MANIFESTS])).out);
    const byName = (name: string) => report.workloads.find((w: any) => w.name === name);
    // node-exporter: wanted everywhere (it tolerates every NoSchedule taint; not-ready:NoExecute is automatic)
    // node-exporter is system-node-critical: it preempts the priority-0 legacy exporter holding 9100 on worker-b-1
    expect(byName('node-exporter')).toMatchObject({ namespace: 'monitoring', desired: 9, schedulable: 9 });
    expect(byName('node-exporter').nodes[1]).toEqual({
      node: 'worker-b-1',
      runs: true,
      reason: 'ok',
      detail: '',
      status: 'running',
      preempts: ['monitoring/legacy-node-exporter-q8d4z'],
    });
    // runtime-audit: no tolerations; the control plane's taint is named
    expect(byName('runtime-audit').nodes[5]).toEqual({
      node: 'cp-1',
      runs: false,
      reason: 'taint',
      detail: 'node-role.kubernetes.io/control-plane:NoSchedule',
      status: 'excluded',
    });
    // edge-agent: required affinity on the edge role label
    expect(
      byName('edge-agent')
        .nodes.filter((n: any) => n.runs)
        .map((n: any) => n.node),
    ).toEqual(['edge-1']);
    // dcgm-exporter: the GPU node only
    expect(byName('dcgm-exporter').nodes[3]).toEqual({ node: 'gpu-a-1', runs: true, reason: 'ok', detail: '', status: 'running' });
    // desired counts Pending pods (fluent-bit on worker-small) and pods the kubelet does not start (the NotReady
    // node), schedulable does not
    expect(byName('fluent-bit')).toMatchObject({ desired: 9, schedulable: 7 });
    expect(byName('fluent-bit').nodes[7]).toMatchObject({ node: 'worker-notready', runs: false, reason: 'notReady', status: 'notRunning' });
  });

  test('a namespace absent from the manifest reads as default', async () => {
    const yaml = fs.readFileSync(GPU_ONLY, 'utf8').replace('  namespace: gpu-monitoring\n', '');
    const report = JSON.parse((await coverage(['--nodes', NODES, '--output', 'json', '-'], { stdin: yaml })).out);
    expect(report.workloads[0]).toMatchObject({ namespace: 'default', name: 'dcgm-exporter' });
  });
});

describe('node-services coverage: exit codes and input', () => {
  test('--fail-on-missing exits 1 when a desired pod cannot be placed', async () => {
    const run = await coverage(['--nodes', NODES, '--pods', PODS, '--fail-on-missing', MANIFESTS]);
    expect(run.code).toBe(1);
  });

  test('--fail-on-missing exits 0 when every desired pod can run (nodes the controller excludes do not count)', async () => {
    const run = await coverage(['--nodes', NODES, '--pods', PODS, '--fail-on-missing', GPU_ONLY]);
    expect(run.code).toBe(0);
    expect(run.out).toContain('DaemonSet gpu-monitoring/dcgm-exporter: desired 1, schedulable 1, nodes 9');
  });

  test('a missing --nodes is a usage error (2)', async () => {
    const run = await coverage([MANIFESTS]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/required option '--nodes <file>' not specified/);
  });

  test('malformed YAML exits 2 with file:line and no stack trace', async () => {
    const run = await coverage(['--nodes', NODES, MALFORMED]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(new RegExp(`^node-services: ${MALFORMED.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `));
    expect(run.err).not.toMatch(/\n\s+at /);
    expect(run.out).toBe('');
  });

  test('a nodes file that does not exist, or that holds other kinds, exits 2 with the reason', async () => {
    const missing = await coverage(['--nodes', path.join(FIXTURES, 'no-such-nodes.json'), MANIFESTS]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no-such-nodes\.json: no such file or directory/);
    const wrongKind = await coverage(['--nodes', PODS, MANIFESTS]);
    expect(wrongKind.code).toBe(2);
    expect(wrongKind.err).toMatch(/:\d+: Pod "node-exporter-7xk2p", not a Node; --nodes expects Node objects/);
  });

  test('a DaemonSet without a pod template exits 2 naming it', async () => {
    const run = await coverage(['--nodes', NODES, '-'], {
      stdin: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: empty\nspec: {}\n',
    });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/<stdin>:1: DaemonSet "empty" has no spec\.template\.spec\.containers/);
  });

  test('an unknown --output is a usage error (2)', async () => {
    expect((await coverage(['--nodes', NODES, '--output', 'xml', MANIFESTS])).code).toBe(2);
  });

  test('--nodes - reads a NodeList (YAML) from standard input', async () => {
    const nodeList = [
      'apiVersion: v1',
      'kind: NodeList',
      'items:',
      '  - metadata: {name: gpu-x, labels: {nvidia.com/gpu.present: "true"}}',
      '    spec: {taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]}',
      '    status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}',
      '  - metadata: {name: plain}',
      '    status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}',
    ].join('\n');
    const run = await coverage(['--nodes', '-', '--output', 'json', GPU_ONLY], { stdin: nodeList });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).workloads[0].nodes.map((n: any) => [n.node, n.reason])).toEqual([
      ['gpu-x', 'ok'],
      ['plain', 'nodeSelector'],
    ]);
  });

  test('manifests are read from standard input when none are given (or with -)', async () => {
    const yaml = fs.readFileSync(GPU_ONLY, 'utf8');
    for (const args of [[], ['-']]) {
      const run = await coverage(['--nodes', NODES, ...args], { stdin: yaml });
      expect(run.code).toBe(0);
      expect(run.out).toContain('DaemonSet gpu-monitoring/dcgm-exporter: desired 1, schedulable 1, nodes 9');
    }
  });

  test('standard input can be used once only', async () => {
    const run = await coverage(['--nodes', '-', '--pods', '-', MANIFESTS]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/standard input \(-\) can be read only once, but --nodes and --pods both use it/);
  });

  test('folders are read recursively, and a malformed file in them is reported', async () => {
    // GIVEN a folder with a DaemonSet in a subfolder
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverage-cli-'));
    fs.mkdirSync(path.join(dir, 'gpu'));
    fs.copyFileSync(GPU_ONLY, path.join(dir, 'gpu', 'dcgm.yaml'));
    fs.writeFileSync(path.join(dir, 'README.md'), '# not a manifest\n');
    // WHEN the folder is given
    const run = await coverage(['--nodes', NODES, '--output', 'json', dir]);
    // THEN the DaemonSet is found
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).workloads.map((w: any) => w.name)).toEqual(['dcgm-exporter']);
    // AND with a malformed manifest added, the run fails with its position
    fs.copyFileSync(MALFORMED, path.join(dir, 'broken.yaml'));
    const broken = await coverage(['--nodes', NODES, dir]);
    expect(broken.code).toBe(2);
    expect(broken.err).toMatch(/broken\.yaml:\d+:\d+: /);
  });
});

describe('node-services coverage: --nodes - and --pods - are streamed from standard input', () => {
  /** `text` cut into chunks of `size` bytes (multi-byte characters and list items fall across chunk boundaries). */
  function chunked(text: string, size: number): Buffer[] {
    const buf = Buffer.from(text, 'utf8');
    const out: Buffer[] = [];
    for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
    return out;
  }

  /** Runs coverage with standard input given only as a chunk stream: reading it whole fails the run. */
  async function streamed(args: string[], chunks: readonly Buffer[]): Promise<Run> {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: (t) => void out.push(t),
      err: (t) => void err.push(t),
      readStdin: () => Promise.reject(new Error('standard input was read as one string')),
      stdinChunks: () =>
        (async function* () {
          for (const c of chunks) yield c;
        })(),
      isTTY: false,
    };
    const code = await main(['coverage', ...args], io);
    return { code, out: out.join(''), err: err.join('') };
  }

  test('a kubectl JSON NodeList in small chunks gives the same report as the file', async () => {
    const fromFile = await coverage(['--nodes', NODES, '--pods', PODS, '--output', 'json', MANIFESTS]);
    expect(fromFile.code).toBe(0);
    for (const size of [1, 7, 4096]) {
      const run = await streamed(
        ['--nodes', '-', '--pods', PODS, '--output', 'json', MANIFESTS],
        chunked(fs.readFileSync(NODES, 'utf8'), size),
      );
      expect(run.err).toBe(fromFile.err);
      expect(run.code).toBe(0);
      expect(run.out).toBe(fromFile.out);
    }
  });

  test('pods as YAML documents split across chunks give the same report as the JSON file', async () => {
    const pods = JSON.parse(fs.readFileSync(PODS, 'utf8')).items;
    const yaml = pods.map((p: unknown) => stringify(p)).join('---\n');
    const fromFile = await coverage(['--nodes', NODES, '--pods', PODS, '--output', 'json', MANIFESTS]);
    for (const size of [3, 64, 1000]) {
      const run = await streamed(['--nodes', NODES, '--pods', '-', '--output', 'json', MANIFESTS], chunked(yaml, size));
      expect(run.code).toBe(0);
      expect(run.out).toBe(fromFile.out);
    }
  });

  test('malformed input on standard input is the same error as in a file, with its line', async () => {
    const bad = fs.readFileSync(NODES, 'utf8').replace('"type": "InternalIP"', '"type": tru');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverage-stdin-'));
    try {
      const file = path.join(dir, 'nodes.json');
      fs.writeFileSync(file, bad);
      const fromFile = await coverage(['--nodes', file, MANIFESTS]);
      expect(fromFile.code).toBe(2);
      expect(fromFile.err).toMatch(/^node-services: .*nodes\.json:\d+: invalid JSON: /);
      for (const size of [5, 1 << 16]) {
        const run = await streamed(['--nodes', '-', MANIFESTS], chunked(bad, size));
        expect(run.code).toBe(2);
        expect(run.err).toBe(fromFile.err.replace(file, '-'));
      }
      // a YAML error names its line and column
      const yaml = await streamed(
        ['--nodes', '-', MANIFESTS],
        chunked('kind: NodeList\nitems:\n  - metadata: {name: a\n  - metadata: {name: b}\n', 4),
      );
      expect(yaml.code).toBe(2);
      expect(yaml.err).toMatch(/^node-services: -:[34]:\d+: /);
      // a list that ends inside an item says so
      const cut = await streamed(['--nodes', '-', MANIFESTS], chunked(fs.readFileSync(NODES, 'utf8').slice(0, 5000), 100));
      expect(cut.code).toBe(2);
      expect(cut.err).toMatch(/^node-services: -:\d+: invalid JSON: the input ends inside a value/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('node-services coverage: fleet features', () => {
  const nodeObject = (name: string, labels: Record<string, string> = {}, allocatable = { cpu: '1', memory: '1Gi', pods: '110' }) => ({
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/os': 'linux', ...labels } },
    status: { allocatable, conditions: [{ type: 'Ready', status: 'True' }] },
  });
  const ds = (name: string, spec: any = {}, meta: any = {}) => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'ns', ...meta },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/name': meta.app ?? name } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': meta.app ?? name } },
        spec: {
          containers: [
            {
              name: 'c',
              image: 'registry.example.com/c:1.0.0',
              resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '64Mi' } },
            },
          ],
          ...spec,
        },
      },
    },
  });
  const tmp = (files: Record<string, unknown>): Record<string, string> => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverage-fleet-'));
    const out: Record<string, string> = {};
    for (const [name, content] of Object.entries(files)) {
      out[name] = path.join(dir, name);
      fs.writeFileSync(out[name], typeof content === 'string' ? content : JSON.stringify(content));
    }
    return out;
  };
  // meta.app is only a helper input, not part of the manifest
  const clean = (o: any) => {
    delete o.metadata.app;
    return o;
  };

  test('a DaemonSet the API server rejects gets the invalid status and its finding, no verdicts; --fail-on-missing exits 1', async () => {
    // GIVEN an extended resource requested without a limit (the API server rejects it) and a valid DaemonSet
    const gpu = ds('gpu-agent');
    gpu.spec.template.spec.containers[0].resources.requests['nvidia.com/gpu'] = '1';
    const files = tmp({ 'nodes.json': { kind: 'List', items: [nodeObject('n1')] }, 'ds.json': { kind: 'List', items: [gpu, ds('ok')] } });
    const run = await coverage(['--nodes', files['nodes.json'], '--output', 'json', files['ds.json']]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out);
    expect(report.workloads[0]).toEqual({
      kind: 'DaemonSet',
      namespace: 'ns',
      name: 'gpu-agent',
      desired: 0,
      schedulable: 0,
      nodes: [],
      status: 'invalid',
      findings: [
        expect.stringMatching(
          /^container-fields-invalid: spec\.template\.spec\.containers\[0\]\.resources\.requests\['nvidia\.com\/gpu'\]: .*needs a limit/,
        ),
      ],
    });
    expect(Object.keys(report.workloads[1])).toEqual(['kind', 'namespace', 'name', 'desired', 'schedulable', 'nodes']);
    expect(run.err).toMatch(/warning: DaemonSet ns\/gpu-agent: the API server rejects it/);
    // AND in text, AND with --fail-on-missing
    const text = await coverage(['--nodes', files['nodes.json'], files['ds.json']]);
    expect(text.out).toContain('DaemonSet ns/gpu-agent: invalid, not analysed (the API server rejects it)');
    expect((await coverage(['--nodes', files['nodes.json'], '--fail-on-missing', files['ds.json']])).code).toBe(1);
  });

  test('a lint API-validity finding (a selector that does not select the template) makes the DaemonSet invalid', async () => {
    const broken = ds('broken');
    broken.spec.selector.matchLabels['app.kubernetes.io/name'] = 'other';
    const files = tmp({ 'nodes.json': [nodeObject('n1')], 'ds.json': broken });
    const report = JSON.parse((await coverage(['--nodes', files['nodes.json'], '--output', 'json', files['ds.json']])).out);
    expect(report.workloads[0]).toMatchObject({ status: 'invalid', findings: [expect.stringMatching(/^selector-template-mismatch: /)] });
  });

  test('--kubernetes-version 1.29 counts sidecars in the requests; 1.28 (the default) does not', async () => {
    // GIVEN 150m free and a pod of 100m with a 100m sidecar
    const sidecar = ds('agent', {
      initContainers: [
        { name: 'shipper', image: 'registry.example.com/s:1.0.0', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } } },
      ],
    });
    const files = tmp({ 'nodes.json': [nodeObject('n1', {}, { cpu: '150m', memory: '1Gi', pods: '110' })], 'ds.json': sidecar });
    const reason = async (args: string[]) =>
      JSON.parse((await coverage(['--nodes', files['nodes.json'], '--output', 'json', ...args, files['ds.json']])).out).workloads[0]
        .nodes[0];
    expect((await reason([])).reason).toBe('ok');
    expect(await reason(['--kubernetes-version', '1.29'])).toMatchObject({
      reason: 'resources',
      status: 'pending',
      detail: 'cpu: requested 200m, free 150m of 150m allocatable',
    });
    // AND a version outside the one grammar (a minor version, 1.28 to 1.33) is refused with lint's message
    const bad = await coverage(['--nodes', files['nodes.json'], '--kubernetes-version', '28', files['ds.json']]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--kubernetes-version "28" is not a supported Kubernetes version \(one of 1\.28, /);
    const patch = await coverage(['--nodes', files['nodes.json'], '--kubernetes-version', 'v1.28.4', files['ds.json']]);
    expect(patch.code).toBe(2);
    expect(patch.err).toMatch(/--kubernetes-version "v1\.28\.4" must be a minor version written as '1\.28'/);
  });

  test('the node tax per pool: a table in text, pools in JSON with --budget, and --fail-on-budget', async () => {
    // GIVEN two pools of 1 CPU / 1Gi and three DaemonSets of 100m / 64Mi, one only on pool "gpu"
    const nodes = [
      nodeObject('a1', { pool: 'general' }),
      nodeObject('a2', { pool: 'general' }),
      nodeObject('g1', { pool: 'gpu', gpu: 'true' }),
    ];
    const files = tmp({
      'nodes.json': { kind: 'List', items: nodes },
      'ds.json': { kind: 'List', items: [ds('logs'), ds('metrics'), ds('dcgm', { nodeSelector: { gpu: 'true' } })] },
    });
    const text = await coverage(['--nodes', files['nodes.json'], '--pool-label', 'pool', files['ds.json']]);
    expect(text.code).toBe(0);
    const block = text.out.split('\n\n').find((b) => b.startsWith('Node tax per pool (pool)'))!;
    const rows = block
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s{2,}/));
    expect(rows).toEqual([
      ['POOL', 'NODES', 'CPU', 'MEMORY', 'PODS', 'STATUS', 'LARGEST'],
      ['general', '2', '200m of 1 (20%)', '128Mi of 1Gi (12.5%)', '2', 'fits', 'ns/logs 10%, ns/metrics 10%'],
      ['gpu', '1', '300m of 1 (30%)', '192Mi of 1Gi (18.8%)', '3', 'fits', 'ns/dcgm 10%, ns/logs 10%, ns/metrics 10%'],
    ]);
    // WHEN a budget of 25 % CPU is set THEN the gpu pool is over it, in JSON, and --fail-on-budget exits 1
    const json = await coverage([
      '--nodes',
      files['nodes.json'],
      '--pool-label',
      'pool',
      '--budget',
      'cpu=25%',
      '--output',
      'json',
      '--fail-on-budget',
      files['ds.json'],
    ]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.out);
    expect(Object.keys(report)).toEqual(['nodes', 'workloads', 'pools']);
    expect(report.pools[1]).toMatchObject({
      pool: 'gpu',
      nodes: 1,
      node: 'g1',
      cpu: '300m',
      memory: '192Mi',
      cpuPercent: 30,
      overAllocatable: [],
      overBudget: ['cpu 300m is 30% of allocatable, over the budget of 25%'],
    });
    expect(report.pools[1].services.map((s: any) => s.name)).toEqual(['ns/dcgm', 'ns/logs', 'ns/metrics']);
    expect(
      (
        await coverage([
          '--nodes',
          files['nodes.json'],
          '--pool-label',
          'pool',
          '--budget',
          'cpu=40%',
          '--fail-on-budget',
          files['ds.json'],
        ])
      ).code,
    ).toBe(0);
    const badBudget = await coverage(['--nodes', files['nodes.json'], '--budget', 'cpu=150%', files['ds.json']]);
    expect(badBudget.code).toBe(2);
    expect(badBudget.out).toBe('');
    expect((await coverage(['--nodes', files['nodes.json'], '--budget', 'disk=8%', files['ds.json']])).err).toMatch(
      /--budget "disk=8%": "disk=8%" is not cpu=<percent> or memory=<percent>/,
    );
  });

  test('--output jsonl grows with the nodes that lack a wanted pod: excluded nodes are counted per reason', async () => {
    const nodes = Array.from({ length: 50 }, (_, i) =>
      nodeObject(`n${i}`, { pool: i < 45 ? 'general' : 'gpu' }, i === 0 ? { cpu: '50m', memory: '1Gi', pods: '110' } : undefined),
    );
    const files = tmp({
      'nodes.json': nodes,
      'ds.json': { kind: 'List', items: [ds('gpu-only', { nodeSelector: { pool: 'gpu' } }), ds('everywhere')] },
    });
    const run = await coverage(['--nodes', files['nodes.json'], '--output', 'jsonl', files['ds.json']]);
    expect(run.code).toBe(0);
    const records = run.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.filter((r) => r.type !== 'pool')).toEqual([
      { type: 'summary', nodes: 50, workloads: 2 },
      {
        type: 'workload',
        kind: 'DaemonSet',
        namespace: 'ns',
        name: 'gpu-only',
        status: 'analyzed',
        desired: 5,
        schedulable: 5,
        running: 5,
        excluded: 45,
        pending: 0,
        notRunning: 0,
      },
      {
        type: 'excluded',
        namespace: 'ns',
        name: 'gpu-only',
        reason: 'nodeSelector',
        detail: 'needs label pool="gpu"; node has pool="general"',
        nodes: 45,
      },
      {
        type: 'workload',
        kind: 'DaemonSet',
        namespace: 'ns',
        name: 'everywhere',
        status: 'analyzed',
        desired: 50,
        schedulable: 49,
        running: 49,
        excluded: 0,
        pending: 1,
        notRunning: 0,
      },
      {
        type: 'node',
        namespace: 'ns',
        name: 'everywhere',
        node: 'n0',
        status: 'pending',
        reason: 'resources',
        detail: 'cpu: requested 100m, free 50m of 50m allocatable',
      },
    ]);
  });

  test('text folds large groups of alike excluded nodes into one row; pending nodes are always listed', async () => {
    const nodes = Array.from({ length: 50 }, (_, i) =>
      nodeObject(`n${i}`, { pool: i < 45 ? 'general' : 'gpu' }, i === 46 ? { cpu: '50m', memory: '1Gi', pods: '110' } : undefined),
    );
    const files = tmp({ 'nodes.json': nodes, 'ds.json': ds('gpu-only', { nodeSelector: { pool: 'gpu' } }) });
    const block = (await coverage(['--nodes', files['nodes.json'], files['ds.json']])).out.split('\n\n')[0];
    expect(
      block
        .split('\n')
        .slice(1)
        .map((l) => l.trim().split(/\s{2,}/)),
    ).toEqual([
      ['NODE', 'STATUS', 'REASON', 'DETAIL'],
      ['n0 (+44 more)', 'excluded', 'nodeSelector', 'needs label pool="gpu"; node has pool="general"'],
      ['n46', 'pending', 'resources', 'cpu: requested 100m, free 50m of 50m allocatable'],
    ]);
  });

  test('every DaemonSet of one node service (stable, canary, variants) is one group', async () => {
    const chart = testChart();
    const pool = NodePool.of({ name: 'big', labels: { size: 'big' } });
    const svc = new NodeService(chart, 'svc', {
      name: 'agent',
      containers: [{ name: 'main', image: 'registry.example.com/agent:1.2.3', readiness: Probe.tcpSocketOnPort(8080) }],
      canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'registry.example.com/agent:1.3.0' }),
      variants: [Variant.forPool('big', pool, { resources: { cpuRequest: '10m', memoryRequest: '16Mi', memoryLimit: '32Mi' } })],
      pools: [NodePool.all(), pool],
    });
    const nodes = [
      nodeObject('a', { 'kubernetes.io/os': 'linux' }),
      nodeObject('b', { 'kubernetes.io/os': 'linux', 'example.com/canary': 'true' }),
      nodeObject('c', { 'kubernetes.io/os': 'linux', size: 'big' }),
    ];
    const files = tmp({ 'nodes.json': nodes, 'ds.json': svc.daemonSets.map((d) => d.toJson()) });
    const run = await coverage(['--nodes', files['nodes.json'], files['ds.json']]);
    expect(run.out.split('\n')[0]).toBe(
      'DaemonSet node-services/agent + node-services/agent-canary + node-services/agent-big (variants): desired 3, schedulable 3, nodes 3 (runs: agent 1, agent-canary 1, agent-big 1)',
    );
  });

  test('a canary pair is summarized: combined counts, and only the nodes neither runs on', async () => {
    const canaryLabel = 'node-services.example.com/canary';
    const stable = ds(
      'agent',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: canaryLabel, operator: 'NotIn', values: ['true'] }] }],
            },
          },
        },
      },
      { app: 'agent' },
    );
    const canary = ds(
      'agent-canary',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: canaryLabel, operator: 'In', values: ['true'] }] }],
            },
          },
        },
      },
      { app: 'agent-canary', annotations: { 'node-services.cdk8s.io/canary-of': 'agent' } },
    );
    const nodes = [
      nodeObject('a'),
      nodeObject('b', { [canaryLabel]: 'true' }),
      nodeObject('c', {}, { cpu: '50m', memory: '1Gi', pods: '110' }),
    ];
    const files = tmp({ 'nodes.json': nodes, 'ds.json': [clean(stable), clean(canary)] });
    const run = await coverage(['--nodes', files['nodes.json'], files['ds.json']]);
    const block = run.out.split('\n\n')[0];
    expect(block.split('\n')[0]).toBe(
      'DaemonSet ns/agent + ns/agent-canary (canary pair): desired 3, schedulable 2, nodes 3 (runs: agent 1, agent-canary 1)',
    );
    // only node c (Pending for the stable half) is listed, not the 2 complementary affinity rows
    expect(
      block
        .split('\n')
        .slice(1)
        .map((l) =>
          l
            .trim()
            .split(/\s{2,}/)
            .slice(0, 4),
        ),
    ).toEqual([
      ['DAEMONSET', 'NODE', 'STATUS', 'REASON'],
      ['agent', 'c', 'pending', 'resources'],
    ]);
  });

  test('selectors are shown as written: values [""] reads In [""], not In []', async () => {
    const files = tmp({
      'nodes.json': [nodeObject('n1', { role: 'db' })],
      'ds.json': ds('agent', {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'role', operator: 'In', values: [''] }] }],
            },
          },
        },
      }),
    });
    const report = JSON.parse((await coverage(['--nodes', files['nodes.json'], '--output', 'json', files['ds.json']])).out);
    expect(report.workloads[0].nodes[0].detail).toBe('term 0: role In [""] fails (node has role="db")');
  });

  test('a 5,000-node kubectl-style file is streamed and gives the same report as the library on the parsed list', async () => {
    const nodes = Array.from({ length: 5000 }, (_, i) =>
      nodeObject(
        `ip-10-0-${i >> 8}-${i & 255}.internal`,
        { pool: ['general', 'gpu', 'edge'][i % 3] },
        { cpu: i % 7 === 0 ? '150m' : '4', memory: '16Gi', pods: '110' },
      ),
    );
    const manifests = [ds('logs'), ds('gpu', { nodeSelector: { pool: 'gpu' } }), ds('big', {}, {})];
    manifests[2].spec.template.spec.containers[0].resources.requests.cpu = '200m';
    const files = tmp({
      'nodes.json': JSON.stringify({ apiVersion: 'v1', items: nodes, kind: 'List', metadata: { resourceVersion: '' } }, null, 4),
      'ds.json': { kind: 'List', items: manifests },
    });
    const run = await coverage(['--nodes', files['nodes.json'], '--output', 'json', files['ds.json']]);
    expect(run.code).toBe(0);
    const { analyzeCoverage } = await import('../../src/coverage');
    const expected = analyzeCoverage(manifests, nodes);
    expect(JSON.parse(run.out)).toEqual({
      nodes: expected.nodes,
      workloads: expected.workloads.map((w) => ({
        kind: w.kind,
        namespace: w.namespace,
        name: w.name,
        desired: w.desired,
        schedulable: w.schedulable,
        nodes: w.nodes,
      })),
    });
    expect(JSON.parse(run.out).workloads[2]).toMatchObject({ desired: 5000, schedulable: 5000 - Math.ceil(5000 / 7) });
  });
});
