/**
 * The analysis over many DaemonSets × many nodes: the fixture cluster, existing pods, own pods, the report shape,
 * and a property test that the grouped, shared fast path says exactly what the one-pair evaluation says.
 */

import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { parseObjects } from '../../src/cli/io';
import {
  CoverageReason,
  CoverageReport,
  analyzeCoverage,
  checkCanarySplit,
  checkPodOnNode,
  compileNode,
  compileWorkload,
  evaluate,
} from '../../src/coverage';
import { container, daemonSet, node, pod } from './support';
// The coverage analysis asks the rule catalogue whether the API server accepts a DaemonSet, as the package provides it.
import '../../src/policy/api-validity';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const load = (file: string) => parseObjects(fs.readFileSync(path.join(FIXTURES, file), 'utf8'), file).map((o) => o.object);
const NODES = load('nodes.json');
const PODS = load('coverage/pods.json');
const MANIFESTS = load('coverage/daemonsets.yaml');

function workload(report: CoverageReport, name: string) {
  const w = report.workloads.find((x) => x.name === name);
  if (!w) throw new Error(`no workload ${name}`);
  return w;
}
const row = (report: CoverageReport, name: string, nodeName: string) => workload(report, name).nodes.find((n) => n.node === nodeName)!;
const notRunning = (report: CoverageReport, name: string) =>
  workload(report, name)
    .nodes.filter((n) => !n.runs)
    .map((n) => [n.node, n.reason]);

describe('analyzeCoverage on the fixture cluster (test/fixtures/nodes.json + coverage/pods.json)', () => {
  // GIVEN the platform's five DaemonSets and a ConfigMap, nine nodes and the pods running on them
  const report = analyzeCoverage(MANIFESTS, NODES, PODS);

  test('the report has one entry per DaemonSet, one row per node in node input order, and counts the rest as skipped', () => {
    expect(report.nodes).toBe(9);
    expect(report.skipped).toBe(1);
    expect(report.workloads.map((w) => `${w.kind} ${w.namespace}/${w.name}`)).toEqual([
      'DaemonSet logging/fluent-bit',
      'DaemonSet monitoring/node-exporter',
      'DaemonSet gpu-monitoring/dcgm-exporter',
      'DaemonSet edge-system/edge-agent',
      'DaemonSet security/runtime-audit',
    ]);
    const names = NODES.map((n: any) => n.metadata.name);
    for (const w of report.workloads) expect(w.nodes.map((n) => n.node)).toEqual(names);
  });

  test('fluent-bit tolerates everything: Pending where memory is short (64Mi wanted, 32Mi free), not started on the NotReady node', () => {
    // worker-small: 512Mi allocatable − kube-proxy 64Mi (from its limit) − cart-cache 416Mi = 32Mi; the
    // Succeeded migration job and the unbound checkout pod do not count. fluent-bit has no priority class, so it
    // preempts nothing. worker-notready is Ready=False: the pod is bound (every taint tolerated) but not started.
    expect(workload(report, 'fluent-bit')).toMatchObject({ desired: 9, schedulable: 7 });
    expect(notRunning(report, 'fluent-bit')).toEqual([
      ['worker-notready', 'notReady'],
      ['worker-small', 'resources'],
    ]);
    expect(row(report, 'fluent-bit', 'worker-notready').status).toBe('notRunning');
    expect(row(report, 'fluent-bit', 'worker-small').status).toBe('pending');
    expect(row(report, 'fluent-bit', 'worker-small').detail).toBe('memory: requested 64Mi, free 32Mi of 512Mi allocatable');
  });

  test('node-exporter (system-node-critical): its own pod does not block worker-a-1; it preempts the priority-0 pods in its way', () => {
    expect(workload(report, 'node-exporter')).toMatchObject({ desired: 9, schedulable: 9 });
    expect(notRunning(report, 'node-exporter')).toEqual([]);
    expect(row(report, 'node-exporter', 'worker-a-1')).toEqual({
      node: 'worker-a-1',
      runs: true,
      reason: 'ok',
      detail: '',
      status: 'running',
    });
    // worker-b-1: the legacy exporter (no priority class: 0) holds 9100 and is preempted
    expect(row(report, 'node-exporter', 'worker-b-1')).toEqual({
      node: 'worker-b-1',
      runs: true,
      reason: 'ok',
      detail: '',
      status: 'running',
      preempts: ['monitoring/legacy-node-exporter-q8d4z'],
    });
    // worker-small: 180Mi (from its limit) needed, 32Mi free; kube-proxy has the same priority and stays, cart-cache
    // (416Mi, priority 0) is enough to free
    expect(row(report, 'node-exporter', 'worker-small').preempts).toEqual(['shop/cart-cache-0']);
    // worker-notready is Ready=False because the pod network is not ready: a host-network pod still starts
    expect(row(report, 'node-exporter', 'worker-notready').runs).toBe(true);
  });

  test('dcgm-exporter selects the GPU node only, and tolerates its taint', () => {
    expect(workload(report, 'dcgm-exporter')).toMatchObject({ desired: 1, schedulable: 1 });
    expect(row(report, 'dcgm-exporter', 'gpu-a-1').runs).toBe(true);
    expect(row(report, 'dcgm-exporter', 'cp-1')).toEqual({
      node: 'cp-1',
      runs: false,
      reason: CoverageReason.NODE_SELECTOR,
      detail: 'needs label nvidia.com/gpu.present="true"; node has no label nvidia.com/gpu.present',
      status: 'excluded',
    });
  });

  test('edge-agent covers the edge node through required affinity', () => {
    expect(workload(report, 'edge-agent')).toMatchObject({ desired: 1, schedulable: 1 });
    expect(row(report, 'edge-agent', 'worker-a-1').reason).toBe(CoverageReason.NODE_AFFINITY);
  });

  test('runtime-audit (no tolerations) misses the tainted nodes, keeps the cordoned one, fits worker-small exactly', () => {
    expect(workload(report, 'runtime-audit')).toMatchObject({ desired: 5, schedulable: 5 });
    expect(notRunning(report, 'runtime-audit')).toEqual([
      ['gpu-a-1', 'taint'],
      ['edge-1', 'taint'],
      ['cp-1', 'taint'],
      ['worker-notready', 'taint'],
    ]);
    expect(row(report, 'runtime-audit', 'gpu-a-1').detail).toBe('nvidia.com/gpu=present:NoSchedule');
    expect(row(report, 'runtime-audit', 'worker-notready').detail).toBe('node.kubernetes.io/not-ready:NoSchedule');
    expect(row(report, 'runtime-audit', 'worker-cordoned').runs).toBe(true);
    expect(row(report, 'runtime-audit', 'worker-small').runs).toBe(true);
  });

  test('without the pods, nothing is used up: every desired pod is placed (it runs unless the node is not ready)', () => {
    const empty = analyzeCoverage(MANIFESTS, NODES);
    for (const w of empty.workloads) {
      const notReady = w.nodes.filter((n) => n.reason === CoverageReason.NOT_READY).length;
      expect(w.schedulable + notReady).toBe(w.desired);
    }
  });

  test('warnings name the NotReady node, and the preemption where it changes an answer', () => {
    expect(report.warnings).toEqual([
      expect.stringMatching(
        /^node worker-notready: taint node.kubernetes.io\/not-ready:NoSchedule: daemon pods tolerate only the NoExecute variant/,
      ),
      'DaemonSet monitoring/node-exporter: placed only by preempting lower-priority pods on 2 nodes (node worker-b-1: ' +
        'monitoring/legacy-node-exporter-q8d4z and 1 more node); PodDisruptionBudgets do not stop this preemption',
    ]);
    // without the pods nothing is preempted, and no preemption warning is printed
    expect(analyzeCoverage(MANIFESTS, NODES).warnings.filter((w) => w.includes('preempt'))).toEqual([]);
  });
});

describe('analyzeCoverage: own pods and existing pods', () => {
  const withPort = (ds: any) => {
    ds.spec.template.spec.containers = [
      container('agent', { requests: { cpu: '100m' }, ports: [{ containerPort: 9100, hostPort: 9100 }] }),
    ];
    return ds;
  };
  const agent = withPort(daemonSet('agent', {}, 'monitoring'));
  const holding = (meta: any) =>
    pod(
      'agent-x',
      'n1',
      { containers: [container('agent', { requests: { cpu: '100m' }, ports: [{ containerPort: 9100, hostPort: 9100 }] })] },
      meta,
    );
  const verdictWith = (p: any) =>
    analyzeCoverage([agent], [node('n1', { allocatable: { cpu: '150m', memory: '1Gi', pods: '1' } })], [p]).workloads[0].nodes[0];

  test('a pod owned by the DaemonSet (ownerReferences) does not block its node: ports, requests, pod slots', () => {
    const own = holding({
      namespace: 'monitoring',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'u' }],
    });
    expect(verdictWith(own)).toMatchObject({ runs: true, reason: 'ok' });
  });

  test('a pod without owner references belongs to the DaemonSet when its namespace and labels match spec.selector', () => {
    expect(verdictWith(holding({ namespace: 'monitoring', labels: { 'app.kubernetes.io/name': 'agent' } })).runs).toBe(true);
    expect(verdictWith(holding({ namespace: 'other', labels: { 'app.kubernetes.io/name': 'agent' } })).reason).toBe('hostPort');
    expect(verdictWith(holding({ namespace: 'monitoring', labels: { 'app.kubernetes.io/name': 'other' } })).reason).toBe('hostPort');
  });

  test('a pod owned by something else blocks the node even if its labels match the selector', () => {
    const rs = holding({
      namespace: 'monitoring',
      labels: { 'app.kubernetes.io/name': 'agent' },
      ownerReferences: [{ kind: 'ReplicaSet', name: 'agent-5d8f', uid: 'u' }],
    });
    expect(verdictWith(rs).reason).toBe('hostPort');
    const otherDs = holding({ namespace: 'monitoring', ownerReferences: [{ kind: 'DaemonSet', name: 'agent-v2', uid: 'u' }] });
    expect(verdictWith(otherDs).reason).toBe('hostPort');
  });

  test('a pod of the same DaemonSet name in another namespace is not its own', () => {
    const foreign = holding({ namespace: 'default', ownerReferences: [{ kind: 'DaemonSet', name: 'agent', uid: 'u' }] });
    expect(verdictWith(foreign).reason).toBe('hostPort');
  });

  test('pods of the analysed DaemonSets compete only when they are in the pod list', () => {
    // GIVEN two DaemonSets that bind the same host port and no pods
    const other = withPort(daemonSet('other', {}, 'monitoring'));
    const report = analyzeCoverage([agent, other], [node('n1')]);
    // THEN each is evaluated on its own and both can run
    expect(report.workloads.map((w) => w.schedulable)).toEqual([1, 1]);
  });

  test('objects that are not DaemonSets are skipped and counted; a missing namespace reads as default', () => {
    const ds = daemonSet('agent');
    delete ds.metadata.namespace;
    const report = analyzeCoverage(
      [{ kind: 'Deployment', metadata: { name: 'web' } }, ds, { kind: 'Namespace', metadata: { name: 'x' } }],
      [node('n1')],
    );
    expect(report.skipped).toBe(2);
    expect(report.workloads[0].namespace).toBe('default');
  });
});

describe('analyzeCoverage: nodes evaluated once per group still get their own verdicts', () => {
  // GIVEN pairs of nodes that differ in exactly one thing a workload reads
  const base = { labels: { zone: 'a' }, allocatable: { cpu: '1', memory: '1Gi', pods: '10' } };
  test.each([
    ['a NoExecute taint', node('x', base), node('y', { ...base, taints: [{ key: 'k', effect: 'NoExecute' }] }), daemonSet('w')],
    [
      'the order of two taints',
      node('x', {
        ...base,
        taints: [
          { key: 'a', effect: 'NoSchedule' },
          { key: 'b', effect: 'NoSchedule' },
        ],
      }),
      node('y', {
        ...base,
        taints: [
          { key: 'b', effect: 'NoSchedule' },
          { key: 'a', effect: 'NoSchedule' },
        ],
      }),
      daemonSet('w'),
    ],
    [
      'allocatable memory',
      node('x', base),
      node('y', { ...base, allocatable: { ...base.allocatable, memory: '1Mi' } }),
      daemonSet('w', { containers: [container('c', { requests: { memory: '2Mi' } })] }),
    ],
    [
      'a label only the affinity reads',
      node('x', base),
      node('y', { ...base, labels: { zone: 'b' } }),
      daemonSet('w', {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
            },
          },
        },
      }),
    ],
    [
      'the name, with matchFields',
      node('x', base),
      node('y', base),
      daemonSet('w', {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['x'] }] }],
            },
          },
        },
      }),
    ],
    ['the name, with a template nodeName', node('x', base), node('y', base), daemonSet('w', { nodeName: 'x' })],
  ])('%s', (_what, x, y, ds) => {
    // WHEN analysed together (x first, so that it is the one compiled for a shared group)
    const rows = analyzeCoverage([ds], [x, y]).workloads[0].nodes;
    // THEN each row is what the node gets on its own
    expect(rows[0]).toEqual(analyzeCoverage([ds], [x]).workloads[0].nodes[0]);
    expect(rows[1]).toEqual(analyzeCoverage([ds], [y]).workloads[0].nodes[0]);
    expect(rows[0].reason === rows[1].reason && rows[0].detail === rows[1].detail).toBe(false);
  });
});

describe('analyzeCoverage equals the one-pair evaluation (property)', () => {
  // Small domains, so that many nodes look alike and share a group; few pods, so that most nodes have none.
  const LABEL_VALUES = ['a', 'b', ''];
  const arbNode = fc.record({
    zone: fc.constantFrom('a', 'b', undefined),
    pool: fc.constantFrom('general', 'gpu', undefined),
    gen: fc.constantFrom('5', 'x', undefined),
    taints: fc.subarray([
      { key: 'dedicated', value: 'db', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
      { key: 'nvidia.com/gpu', value: 'present', effect: 'NoExecute' },
      { key: 'spot', value: 'true', effect: 'PreferNoSchedule' },
    ]),
    cpu: fc.constantFrom('500m', '1', '4'),
    memory: fc.constantFrom('256Mi', '1Gi'),
    pods: fc.constantFrom('1', '2', '110'),
    gpus: fc.constantFrom(undefined, '1'),
    known: fc.boolean(),
  });
  const arbExpr = fc.oneof(
    fc.record({
      key: fc.constantFrom('zone', 'pool'),
      operator: fc.constantFrom('In', 'NotIn'),
      values: fc.subarray(LABEL_VALUES.concat(['gpu', 'edge']), { minLength: 1 }),
    }),
    fc.record({ key: fc.constantFrom('zone', 'pool', 'gen'), operator: fc.constantFrom('Exists', 'DoesNotExist') }),
    fc.record({ key: fc.constant('gen'), operator: fc.constantFrom('Gt', 'Lt'), values: fc.constantFrom(['4'], ['5'], ['-1']) }),
  );
  const arbWorkload = fc.record({
    nodeSelector: fc.option(fc.dictionary(fc.constantFrom('zone', 'pool'), fc.constantFrom(...LABEL_VALUES, 'gpu')), { nil: undefined }),
    terms: fc.option(fc.array(fc.record({ matchExpressions: fc.array(arbExpr, { maxLength: 2 }) }), { maxLength: 2 }), { nil: undefined }),
    tolerations: fc.subarray([
      { operator: 'Exists' },
      { key: 'dedicated', operator: 'Equal', value: 'db' },
      { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoExecute' },
    ]),
    cpu: fc.constantFrom('0', '100m', '600m'),
    gpu: fc.boolean(),
    port: fc.constantFrom(undefined, 9100),
  });
  const arbPod = fc.record({
    node: fc.nat(11),
    cpu: fc.constantFrom('100m', '400m'),
    port: fc.constantFrom(undefined, 9100),
    own: fc.boolean(),
    phase: fc.constantFrom('Running', 'Succeeded'),
  });

  test('every row, and the desired / schedulable counts, match evaluate() on the same pair', () => {
    fc.assert(
      fc.property(
        fc.array(arbNode, { minLength: 1, maxLength: 12 }),
        fc.array(arbWorkload, { minLength: 1, maxLength: 3 }),
        fc.array(arbPod, { maxLength: 3 }),
        (nodeSpecs, workloadSpecs, podSpecs) => {
          const nodes = nodeSpecs.map((s, i) => {
            const labels: Record<string, string> = {};
            if (s.zone !== undefined) labels.zone = s.zone;
            if (s.pool !== undefined) labels.pool = s.pool;
            if (s.gen !== undefined) labels.gen = s.gen;
            const allocatable = { cpu: s.cpu, memory: s.memory, pods: s.pods, ...(s.gpus ? { 'nvidia.com/gpu': s.gpus } : {}) };
            return node(`n${i}`, { labels, taints: s.taints, allocatable: s.known ? allocatable : null });
          });
          const workloads = workloadSpecs.map((s, i) => {
            const limits = s.gpu ? { 'nvidia.com/gpu': '1' } : undefined;
            const ports = s.port ? [{ containerPort: s.port, hostPort: s.port }] : undefined;
            return daemonSet(`w${i}`, {
              ...(s.nodeSelector ? { nodeSelector: s.nodeSelector } : {}),
              ...(s.terms
                ? { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: s.terms } } } }
                : {}),
              tolerations: s.tolerations,
              containers: [container('c', { requests: { cpu: s.cpu }, limits, ports })],
            });
          });
          const pods = podSpecs.map((s, i) =>
            pod(
              `p${i}`,
              `n${s.node}`,
              {
                containers: [
                  container('c', { requests: { cpu: s.cpu }, ports: s.port ? [{ containerPort: s.port, hostPort: s.port }] : undefined }),
                ],
              },
              s.own ? { namespace: 'node-services', ownerReferences: [{ kind: 'DaemonSet', name: 'w0', uid: 'u' }] } : {},
              s.phase,
            ),
          );
          const report = analyzeCoverage(workloads, nodes, pods);
          const compiledNodes = nodes.map((n) => compileNode(n, pods));
          report.workloads.forEach((w, wi) => {
            // a DaemonSet the API server rejects (e.g. empty nodeSelectorTerms) has no verdicts
            if (w.status === 'invalid') return void expect(w.nodes).toEqual([]);
            const cw = compileWorkload(workloads[wi]);
            const verdicts = compiledNodes.map((n) => evaluate(cw, n));
            expect(w.nodes).toEqual(
              verdicts.map((v, ni) => ({
                node: `n${ni}`,
                runs: v.runs,
                reason: v.reason,
                detail: v.detail,
                status: v.status,
                ...(v.preempts ? { preempts: v.preempts } : {}),
              })),
            );
            expect(w.desired).toBe(verdicts.filter((v) => v.desired).length);
            expect(w.schedulable).toBe(verdicts.filter((v) => v.runs).length);
          });
        },
      ),
      { numRuns: 400, seed: 20241128 },
    );
  });
});

describe('analyzeCoverage on malformed objects', () => {
  test('objects the API server would reject never make the analysis, the pair check or the split check throw', () => {
    // GIVEN DaemonSets and nodes whose fields hold arbitrary JSON values
    const anyValue = fc.jsonValue({ maxDepth: 3 });
    const arbDs = fc.record({
      nodeSelector: anyValue,
      affinity: fc.oneof(
        anyValue,
        fc.record({
          nodeAffinity: fc.record({ requiredDuringSchedulingIgnoredDuringExecution: fc.record({ nodeSelectorTerms: anyValue }) }),
        }),
      ),
      tolerations: anyValue,
      containers: fc.oneof(anyValue, fc.array(fc.record({ resources: anyValue, ports: anyValue }), { maxLength: 2 })),
      initContainers: anyValue,
      hostNetwork: anyValue,
      nodeName: anyValue,
    });
    const arbNode = fc.record({ labels: anyValue, taints: anyValue, allocatable: anyValue, name: anyValue });
    const arbPod = fc.record({
      meta: anyValue,
      containers: fc.oneof(anyValue, fc.array(fc.record({ resources: anyValue, ports: anyValue }), { maxLength: 2 })),
      overhead: anyValue,
    });
    fc.assert(
      fc.property(
        fc.array(arbDs, { maxLength: 3 }),
        fc.array(arbNode, { maxLength: 4 }),
        fc.array(arbPod, { maxLength: 3 }),
        (specs, nodeSpecs, podSpecs) => {
          const workloads = specs.map((spec) => ({ kind: 'DaemonSet', metadata: { name: 'w' }, spec: { template: { spec } } }));
          const nodes = nodeSpecs.map((n) => ({
            kind: 'Node',
            metadata: { name: n.name, labels: n.labels },
            spec: { taints: n.taints },
            status: { allocatable: n.allocatable },
          }));
          const pods = podSpecs.map((p, i) => ({
            kind: 'Pod',
            metadata: p.meta,
            spec: { nodeName: nodes[i]?.metadata.name, containers: p.containers, overhead: p.overhead },
          }));
          // WHEN analysed, checked pair by pair and as a canary split
          const report = analyzeCoverage(workloads, nodes, pods);
          for (const w of workloads) for (const n of nodes) checkPodOnNode(w, n, pods);
          checkCanarySplit(workloads[0] ?? {}, workloads.slice(1), nodes);
          // THEN there is a row per node for every DaemonSet the API server accepts, and none for the others
          for (const w of report.workloads) expect(w.nodes).toHaveLength(w.status === 'invalid' ? 0 : nodes.length);
          for (const w of report.workloads) expect(w.status === 'invalid').toBe((w.findings ?? []).length > 0);
        },
      ),
      { numRuns: 1000, seed: 7 },
    );
  });
});
