import * as fc from 'fast-check';
import { Testing } from 'cdk8s';
import { checkCanarySplit } from '../../src/coverage';
import {
  Canary,
  ContainerSpec,
  LogAgent,
  NodePool,
  NodeRequirement,
  NodeService,
  NodeServiceProps,
  Probe,
  Taint,
  TaintEffect,
  Toleration,
} from '../../src';
import { validateAll } from '../support/schema';
import { errorOf, only, synth, testChart } from '../support/synth';

const main: ContainerSpec = {
  name: 'main',
  image: 'registry.example.com/agent:1.2.3',
  ports: [{ name: 'http', containerPort: 8080 }],
  readiness: Probe.httpGet('/ready', 'http'),
};
const edge = NodePool.edge();
const gpu = NodePool.gpu();
const general = NodePool.of({ name: 'general', labels: { 'node.example.com/pool': 'general' } });

function build(props: Partial<NodeServiceProps>): any[] {
  const chart = testChart();
  new NodeService(chart, 'svc', { name: 'agent', containers: [main], ...props });
  return synth(chart);
}

function synthError(props: Partial<NodeServiceProps>): string {
  const chart = testChart();
  new NodeService(chart, 'svc', { name: 'agent', containers: [main], ...props });
  try {
    Testing.synth(chart);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected synth to fail');
}

describe('node pools', () => {
  test('GIVEN pools THEN affinity ORs their labels and exactly their scheduling taints are tolerated', () => {
    const pod = only(build({ pools: [general, edge, gpu] }), 'DaemonSet').spec.template.spec;
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: 'node.example.com/pool', operator: 'In', values: ['general'] }] },
      { matchExpressions: [{ key: 'node-role.kubernetes.io/edge', operator: 'In', values: [''] }] },
      { matchExpressions: [{ key: 'nvidia.com/gpu.present', operator: 'In', values: ['true'] }] },
    ]);
    expect(pod.tolerations).toEqual([
      { key: 'node-role.kubernetes.io/edge', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'nvidia.com/gpu', operator: 'Equal', value: 'present', effect: 'NoSchedule' },
    ]);
  });

  test('GIVEN a pool standing for every node THEN no affinity is derived', () => {
    const pod = only(build({ pools: [NodePool.all(), NodePool.controlPlane()] }), 'DaemonSet').spec.template.spec;
    expect(pod.affinity).toBeUndefined();
    expect(pod.tolerations).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }]);
  });

  test('GIVEN PreferNoSchedule taints THEN they need no toleration', () => {
    const pool = NodePool.of({ name: 'spot', labels: { spot: 'true' }, taints: [Taint.preferNoSchedule('spot')] });
    expect(only(build({ pools: [pool] }), 'DaemonSet').spec.template.spec.tolerations).toBeUndefined();
  });

  test('GIVEN a nodeSelector that excludes a declared pool THEN synth fails naming the pool, the reason and a fix', () => {
    const message = synthError({ pools: [gpu], nodeSelector: { 'kubernetes.io/os': 'linux', 'node.example.com/pool': 'general' } });
    expect(message).toContain('[test/svc]');
    expect(message).toContain('node pool "gpu"');
    expect(message).toContain('nodeSelector');
    expect(message).toContain('node.example.com/pool');
    expect(message).toContain('Fix:');
  });

  test('GIVEN an explicit affinity that admits a pool THEN the pool taint is still tolerated and synth passes', () => {
    const objects = build({ pools: [gpu], nodeAffinity: [{ requirements: [NodeRequirement.exists('nvidia.com/gpu.present')] }] });
    expect(only(objects, 'DaemonSet').spec.template.spec.tolerations).toEqual([
      { key: 'nvidia.com/gpu', operator: 'Equal', value: 'present', effect: 'NoSchedule' },
    ]);
  });

  test('GIVEN an explicit affinity that excludes a declared pool THEN synth fails with reason nodeAffinity', () => {
    const message = synthError({
      pools: [edge],
      nodeAffinity: [{ requirements: [NodeRequirement.doesNotExist('node-role.kubernetes.io/edge')] }],
    });
    expect(message).toMatch(/node pool "edge": nodeAffinity/);
  });

  test('GIVEN a preset with pools THEN it covers them, and excluded pools are verified', () => {
    const chart = testChart();
    new LogAgent(chart, 'logs', {
      image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
      pools: [NodePool.all(), NodePool.controlPlane()],
      excludePools: [],
    });
    expect(only(Testing.synth(chart), 'DaemonSet').spec.template.spec.tolerations).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    const chart2 = testChart();
    new NodeService(chart2, 'svc', { name: 'agent', containers: [main], pools: [NodePool.all()], excludePools: [NodePool.controlPlane()] });
    expect(() => Testing.synth(chart2)).not.toThrow();
  });

  test('GIVEN tolerate-all and an excluded tainted pool THEN synth fails: the pool would be covered', () => {
    const chart = testChart();
    new NodeService(chart, 'svc', {
      name: 'agent',
      containers: [main],
      pools: [NodePool.all()],
      tolerations: [Toleration.all()],
      excludePools: [edge],
    });
    expect(() => Testing.synth(chart)).toThrow(
      /\[test\/svc\] coverage: DaemonSet agent would run on node pool "edge", which it must not cover/,
    );
  });

  test('GIVEN a pool with allocatable but no pod count THEN the kubelet default of 110 pod slots applies', () => {
    const roomy = NodePool.of({ name: 'roomy', labels: { size: 'large' }, allocatable: { cpu: '8', memory: '32Gi' } });
    expect(() => build({ pools: [roomy] })).not.toThrow();
  });

  test('GIVEN a pool with known allocatable too small for the pod THEN synth fails with reason resources', () => {
    const tiny = NodePool.of({ name: 'tiny', labels: { size: 'tiny' }, allocatable: { cpu: '50m', memory: '1Gi', pods: '10' } });
    expect(synthError({ pools: [tiny] })).toMatch(/node pool "tiny" but its pod would stay Pending: resources \(.*cpu/);
  });

  test('GIVEN a Windows pool and a Linux service without an OS selector THEN synth fails: placed, but the kubelet would not run it', () => {
    // The affinity names the pool but not the operating system, so the pod is a Linux pod on Windows nodes.
    const windows = NodePool.of({ name: 'windows', labels: { 'node.example.com/pool': 'win', 'kubernetes.io/os': 'windows' } });
    const message = synthError({
      pools: [windows],
      nodeSelector: {},
      nodeAffinity: [{ requirements: [NodeRequirement.in('node.example.com/pool', ['win'])] }],
    });
    expect(message).toMatch(/node pool "windows" but its pod would be placed but the kubelet would not run it: os \(/);
    expect(message).toContain("Fix: build the service for the pool's operating system");
  });
});

describe('canary', () => {
  const canary = Canary.byNodeLabel('node-services.example.com/canary', 'true', { image: 'registry.example.com/agent:1.3.0' });

  test('GIVEN a canary THEN a stable and a -canary DaemonSet with disjoint selectors and complementary affinity are emitted', () => {
    const objects = build({ pools: [general, edge], canary });
    validateAll(objects);
    const [stable, canaryDs] = objects.filter((o) => o.kind === 'DaemonSet');
    expect(stable.metadata.name).toBe('agent');
    expect(canaryDs.metadata.name).toBe('agent-canary');
    expect(stable.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'agent', 'app.kubernetes.io/instance': 'agent' });
    expect(canaryDs.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'agent', 'app.kubernetes.io/instance': 'agent-canary' });
    const terms = (ds: any) => ds.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;
    for (const [ds, op] of [
      [stable, 'NotIn'],
      [canaryDs, 'In'],
    ] as const) {
      expect(terms(ds)).toHaveLength(2);
      for (const term of terms(ds))
        expect(term.matchExpressions).toContainEqual({ key: 'node-services.example.com/canary', operator: op, values: ['true'] });
    }
    expect(stable.spec.template.spec.containers[0].image).toBe('registry.example.com/agent:1.2.3');
    expect(canaryDs.spec.template.spec.containers[0].image).toBe('registry.example.com/agent:1.3.0');
    expect(canaryDs.metadata.labels['app.kubernetes.io/version']).toBe('1.3.0');
    expect(canaryDs.spec.template.spec.tolerations).toEqual(stable.spec.template.spec.tolerations);
    expect(canaryDs.spec.updateStrategy).toEqual(stable.spec.updateStrategy);
    expect(objects).toMatchSnapshot();
  });

  test('GIVEN a canary naming an unknown container image THEN construction fails', () => {
    const message = errorOf(
      (scope) =>
        new NodeService(scope, 'svc', {
          name: 'agent',
          containers: [main],
          canary: Canary.byNodeLabel('c', 'true', { images: { sidecar: 'x/y:1' } }),
        }),
    );
    expect(message).toContain('canary.images["sidecar"]');
  });

  test('GIVEN a canary image that is not pinned THEN construction fails', () => {
    const message = errorOf(
      (scope) =>
        new NodeService(scope, 'svc', {
          name: 'agent',
          containers: [main],
          canary: Canary.byNodeLabel('c', 'true', { image: 'x/y:latest' }),
        }),
    );
    expect(message).toContain('- canary.image = "x/y:latest"');
    expect(message).toContain('(1 problem)');
  });

  // Property: for random clusters and random placement, the split covers every node the unsplit service covers exactly
  // once, and no other node.
  const labelKeys = [
    'zone',
    'node.example.com/pool',
    'nvidia.com/gpu.present',
    'node-role.kubernetes.io/edge',
    'node-services.example.com/canary',
  ];
  const labelValues = ['a', 'b', 'true', 'general', ''];
  const taints = [
    { key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' },
    { key: 'node-role.kubernetes.io/edge', effect: 'NoExecute' },
    { key: 'dedicated', value: 'infra', effect: 'PreferNoSchedule' },
    { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
  ];
  const nodeArb = fc.record({
    labels: fc.dictionary(fc.constantFrom(...labelKeys), fc.constantFrom(...labelValues), { maxKeys: 4 }),
    taints: fc.subarray(taints),
    os: fc.constantFrom('linux', 'linux', 'windows'),
  });
  const requirementArb = fc.oneof(
    fc
      .record({ key: fc.constantFrom(...labelKeys.slice(0, 4)), values: fc.subarray(labelValues, { minLength: 1 }) })
      .map((r) => NodeRequirement.in(r.key, r.values)),
    fc
      .record({ key: fc.constantFrom(...labelKeys.slice(0, 4)), values: fc.subarray(labelValues, { minLength: 1 }) })
      .map((r) => NodeRequirement.notIn(r.key, r.values)),
    fc.constantFrom(...labelKeys.slice(0, 4)).map((k) => NodeRequirement.exists(k)),
    fc.constantFrom(...labelKeys.slice(0, 4)).map((k) => NodeRequirement.doesNotExist(k)),
  );
  const placementArb = fc.record({
    terms: fc.array(fc.array(requirementArb, { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
    tolerations: fc.subarray([
      Toleration.exists('nvidia.com/gpu', { effect: TaintEffect.NO_SCHEDULE }),
      Toleration.exists('node-role.kubernetes.io/edge'),
      Toleration.controlPlane(),
      Toleration.all(),
    ]),
    selectPool: fc.boolean(),
    canaryValue: fc.constantFrom('true', 'a'),
  });

  test('PROPERTY: over 1,000 generated clusters the split covers each target node exactly once and nothing else', () => {
    fc.assert(
      fc.property(placementArb, fc.array(nodeArb, { minLength: 1, maxLength: 12 }), (placement, nodeSpecs) => {
        const props: NodeServiceProps = {
          name: 'agent',
          containers: [main],
          nodeAffinity: placement.terms.map((requirements) => ({ requirements })),
          tolerations: placement.tolerations,
          ...(placement.selectPool ? { nodeSelector: { 'kubernetes.io/os': 'linux', 'node.example.com/pool': 'general' } } : {}),
        };
        const chart = testChart();
        const unsplit = new NodeService(chart, 'unsplit', props);
        const split = new NodeService(chart, 'split', {
          ...props,
          canary: Canary.byNodeLabel('node-services.example.com/canary', placement.canaryValue),
        });
        const nodes = nodeSpecs.map((n, i) => ({
          metadata: { name: `node-${i}`, labels: { ...n.labels, 'kubernetes.io/os': n.os, 'kubernetes.io/hostname': `node-${i}` } },
          spec: { taints: n.taints },
        }));
        const report = checkCanarySplit(unsplit.daemonSet.toJson(), [split.daemonSet.toJson(), split.canaryDaemonSet!.toJson()], nodes);
        expect({ uncovered: report.uncovered, overlapping: report.overlapping, extra: report.extra }).toEqual({
          uncovered: [],
          overlapping: [],
          extra: [],
        });
        // And the canary runs exactly where the label is set among the targets.
        for (const entry of report.nodes) {
          if (!entry.target) continue;
          const labels: Record<string, string> = nodes.find((n) => n.metadata.name === entry.node)!.metadata.labels;
          const labelled = labels['node-services.example.com/canary'] === placement.canaryValue;
          expect([entry.node, entry.coveredBy]).toEqual([entry.node, [labelled ? 1 : 0]]);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
