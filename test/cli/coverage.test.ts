import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Run, runCli } from '../support/cli';

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
    expect(wrongKind.err).toMatch(/--nodes expects Node objects \(or a NodeList\), found Pod "node-exporter-7xk2p"/);
  });

  test('a DaemonSet without a pod template exits 2 naming it', async () => {
    const run = await coverage(['--nodes', NODES, '-'], {
      stdin: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: empty\nspec: {}\n',
    });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/-:1: DaemonSet "empty" has no spec\.template\.spec\.containers/);
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
