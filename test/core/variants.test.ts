/**
 * Variants: several DaemonSets of one service with disjoint required affinity (pool, node-label and Windows variants,
 * a canary of a variant), verified at synth, by the coverage analyzer over generated clusters, and by lint.
 */

import * as fc from 'fast-check';
import { Testing } from 'cdk8s';
import { analyzeCoverage, checkCanarySplit, CoverageStatus } from '../../src/coverage';
import {
  Canary,
  ContainerSpec,
  GpuMonitor,
  LogAgent,
  Mount,
  NodePool,
  NodeRequirement,
  NodeService,
  NodeServiceProps,
  Probe,
  Taint,
  Variant,
} from '../../src';
import { ROLLOUT_SHAPE } from '../../src/core/props';
import { wrongValueFor } from '../../src/k8s/shape';
import { checkManifests, Severity } from '../../src/policy';
import { validateAll } from '../support/schema';
import { errorOf, testChart } from '../support/synth';

const main: ContainerSpec = {
  name: 'main',
  image: 'registry.example.com/agent:1.2.3',
  ports: [{ name: 'http', containerPort: 8080 }],
  readiness: Probe.httpGet('/ready', 'http'),
  liveness: Probe.exec(['/bin/agent', 'health']),
};
const general = NodePool.of({ name: 'general', labels: { 'node.example.com/pool': 'general' } });
const gpu = NodePool.gpu();
const edge = NodePool.edge();
const windows = NodePool.of({
  name: 'windows',
  labels: { 'kubernetes.io/os': 'windows' },
  taints: [Taint.noSchedule('os', 'windows')],
});
const big = { cpuRequest: '500m', memoryRequest: '512Mi', memoryLimit: '2Gi' };
const WINDOWS_REASON = 'reads the container logs under C:\\var\\log as a host process';

const daemonSets = (objects: any[]) => objects.filter((o) => o.kind === 'DaemonSet');
const byName = (objects: any[], name: string) => daemonSets(objects).find((d) => d.metadata.name === name);
const terms = (ds: any) => ds.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;

function logAgent(extra: object = {}): { objects: any[]; agent: LogAgent } {
  const chart = testChart();
  const agent = new LogAgent(chart, 'logs', {
    name: 'fluent-bit',
    image: 'fluent/fluent-bit:3.1.9',
    pools: [general, gpu, edge, windows],
    variants: [
      Variant.forPool('gpu', gpu, { resources: big }),
      Variant.forPool('edge', edge, {
        mounts: [Mount.configMap('fluent-bit-edge', '/fluent-bit/etc')],
        canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'fluent/fluent-bit:3.2.0' }),
      }),
      Variant.windows('windows', { image: 'fluent/fluent-bit:3.1.9-windows-2022', reason: WINDOWS_REASON }),
    ],
    ...extra,
  });
  return { objects: Testing.synth(chart), agent };
}

describe('variants', () => {
  const { objects, agent } = logAgent();

  test('GIVEN pool and Windows variants THEN one DaemonSet each, named <service>-<variant>, told apart by labels, selected together', () => {
    validateAll(objects);
    expect(agent.daemonSetNames).toEqual([
      'fluent-bit',
      'fluent-bit-gpu',
      'fluent-bit-edge',
      'fluent-bit-edge-canary',
      'fluent-bit-windows',
    ]);
    expect(daemonSets(objects).map((d) => d.metadata.name)).toEqual(agent.daemonSetNames);
    const labels = (name: string) => byName(objects, name).spec.template.metadata.labels;
    expect(
      agent.daemonSetNames.map((n) => [n, labels(n)['node-services.cdk8s.io/track'], labels(n)['node-services.cdk8s.io/variant']]),
    ).toEqual([
      ['fluent-bit', 'stable', undefined],
      ['fluent-bit-gpu', 'stable', 'gpu'],
      ['fluent-bit-edge', 'stable', 'edge'],
      ['fluent-bit-edge-canary', 'canary', 'edge'],
      ['fluent-bit-windows', 'stable', 'windows'],
    ]);
    // Selectors are disjoint (the instance differs); the shared pod selector matches every DaemonSet's pods.
    const instances = daemonSets(objects).map((d) => d.spec.selector.matchLabels['app.kubernetes.io/instance']);
    expect(new Set(instances).size).toBe(instances.length);
    for (const ds of daemonSets(objects))
      for (const [k, v] of Object.entries(agent.podSelector))
        expect([ds.metadata.name, ds.spec.template.metadata.labels[k]]).toEqual([ds.metadata.name, v]);
  });

  test('GIVEN overrides THEN each variant changes only what it names', () => {
    const container = (name: string) => byName(objects, name).spec.template.spec.containers[0];
    expect(container('fluent-bit-gpu').resources).toEqual({ limits: { memory: '2Gi' }, requests: { cpu: '500m', memory: '512Mi' } });
    expect(container('fluent-bit').resources).not.toEqual(container('fluent-bit-gpu').resources);
    const edgeVolumes = byName(objects, 'fluent-bit-edge').spec.template.spec.volumes;
    expect(edgeVolumes.some((v: any) => v.configMap?.name === 'fluent-bit-edge')).toBe(true);
    expect(byName(objects, 'fluent-bit').spec.template.spec.volumes.some((v: any) => v.configMap?.name === 'fluent-bit-edge')).toBe(false);
    expect(container('fluent-bit-edge-canary').image).toBe('fluent/fluent-bit:3.2.0');
    expect(byName(objects, 'fluent-bit-edge-canary').metadata.annotations['node-services.cdk8s.io/canary-of']).toBe('fluent-bit-edge');
    // The edge canary keeps the edge variant's configuration.
    expect(byName(objects, 'fluent-bit-edge-canary').spec.template.spec.volumes).toEqual(edgeVolumes);
  });

  test('GIVEN variants THEN the required affinities are each one requirement apart: match, complement of the earlier ones', () => {
    const own = (name: string) =>
      terms(byName(objects, name)).map((t: any) =>
        t.matchExpressions
          .filter((r: any) => !['type', 'eks.amazonaws.com/compute-type'].includes(r.key))
          .map((r: any) => `${r.key} ${r.operator} ${r.values}`),
      );
    expect(own('fluent-bit')).toEqual([
      [
        'node.example.com/pool In general',
        'kubernetes.io/os NotIn windows',
        'nvidia.com/gpu.present NotIn true',
        'node-role.kubernetes.io/edge NotIn ',
      ],
    ]);
    expect(own('fluent-bit-gpu')).toEqual([['nvidia.com/gpu.present In true', 'kubernetes.io/os NotIn windows']]);
    expect(own('fluent-bit-edge')).toEqual([
      [
        'node-role.kubernetes.io/edge In ',
        'kubernetes.io/os NotIn windows',
        'nvidia.com/gpu.present NotIn true',
        'example.com/canary NotIn true',
      ],
    ]);
    expect(own('fluent-bit-edge-canary')).toEqual([
      [
        'node-role.kubernetes.io/edge In ',
        'kubernetes.io/os NotIn windows',
        'nvidia.com/gpu.present NotIn true',
        'example.com/canary In true',
      ],
    ]);
    expect(own('fluent-bit-windows')).toEqual([['kubernetes.io/os In windows']]);
  });

  test('GIVEN a Windows variant THEN a HostProcess pod on the host network with no Linux-only field', () => {
    const pod = byName(objects, 'fluent-bit-windows').spec.template.spec;
    expect(pod.os).toEqual({ name: 'windows' });
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
    expect(pod.hostNetwork).toBe(true);
    expect(pod.securityContext).toEqual({ windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } });
    expect(pod.initContainers).toBeUndefined();
    expect(pod.containers).toHaveLength(1);
    const [c] = pod.containers;
    expect(c.image).toBe('fluent/fluent-bit:3.1.9-windows-2022');
    expect(c.securityContext).toBeUndefined();
    expect(c.volumeMounts).toBeUndefined();
    expect(pod.volumes).toBeUndefined();
    expect(pod.tolerations).toContainEqual({ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' });
  });

  test('GIVEN the DaemonSets of the service THEN lint finds 0 errors, and the HostProcess finding carries the reason', () => {
    const findings = checkManifests(daemonSets(objects)).findings;
    expect(findings.filter((f) => f.severity === Severity.ERROR && !f.suppressed)).toEqual([]);
    const hostProcess = findings.find((f) => f.ruleId === 'privileged-container' && f.object.name === 'fluent-bit-windows');
    expect(hostProcess).toMatchObject({ suppressed: true, suppressionReason: `Windows HostProcess: ${WINDOWS_REASON}` });
    expect(findings.filter((f) => f.ruleId === 'host-network-without-need')).toEqual([]);
  });

  test('GIVEN a mixed Linux/Windows cluster THEN the coverage analyzer shows each node runs exactly one DaemonSet', () => {
    const node = (name: string, labels: { [k: string]: string }, taints: any[] = []) => ({
      metadata: { name, labels: { 'kubernetes.io/os': 'linux', 'kubernetes.io/hostname': name, ...labels } },
      spec: { taints },
    });
    const nodes = [
      node('general-1', { 'node.example.com/pool': 'general' }),
      node('gpu-1', { 'nvidia.com/gpu.present': 'true' }, [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }]),
      node('edge-1', { 'node-role.kubernetes.io/edge': '' }, [{ key: 'node-role.kubernetes.io/edge', effect: 'NoSchedule' }]),
      node('edge-2', { 'node-role.kubernetes.io/edge': '', 'example.com/canary': 'true' }, [
        { key: 'node-role.kubernetes.io/edge', effect: 'NoSchedule' },
      ]),
      node('win-1', { 'kubernetes.io/os': 'windows' }, [{ key: 'os', value: 'windows', effect: 'NoSchedule' }]),
    ];
    const report = analyzeCoverage(daemonSets(objects), nodes);
    const running = nodes.map((n) => [
      n.metadata.name,
      report.workloads.filter((w) => w.nodes.find((x) => x.node === n.metadata.name)?.status === CoverageStatus.RUNNING).map((w) => w.name),
    ]);
    expect(running).toEqual([
      ['general-1', ['fluent-bit']],
      ['gpu-1', ['fluent-bit-gpu']],
      ['edge-1', ['fluent-bit-edge']],
      ['edge-2', ['fluent-bit-edge-canary']],
      ['win-1', ['fluent-bit-windows']],
    ]);
  });

  test('GIVEN a node-label variant THEN nodes with one of its values run it; a canary of the service keeps working beside it', () => {
    const chart = testChart();
    const svc = new NodeService(chart, 'svc', {
      name: 'agent',
      containers: [main],
      pools: [general],
      canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'registry.example.com/agent:1.3.0' }),
      variants: [Variant.byNodeLabel('large', 'node.kubernetes.io/instance-type', ['m5.4xlarge', 'm5.8xlarge'], { resources: big })],
    });
    const out = Testing.synth(chart);
    validateAll(out);
    expect(svc.daemonSetNames).toEqual(['agent', 'agent-canary', 'agent-large']);
    expect(terms(byName(out, 'agent-large'))).toEqual([
      {
        matchExpressions: [
          { key: 'node.example.com/pool', operator: 'In', values: ['general'] },
          { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.4xlarge', 'm5.8xlarge'] },
        ],
      },
    ]);
    expect(terms(byName(out, 'agent-canary'))[0].matchExpressions).toContainEqual({
      key: 'node.kubernetes.io/instance-type',
      operator: 'NotIn',
      values: ['m5.4xlarge', 'm5.8xlarge'],
    });
  });
});

describe('variants: coverage at synth', () => {
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

  test('GIVEN a pool no DaemonSet of the service would run on THEN synth fails naming the pool, the service and every DaemonSet', () => {
    const message = synthError({
      pools: [general, gpu],
      nodeRequirements: [NodeRequirement.doesNotExist('nvidia.com/gpu.present')],
      variants: [Variant.forPool('gpu', gpu, { resources: big })],
    });
    expect(message).toContain('DaemonSet agent-gpu would not run on node pool "gpu"');
    expect(message).toContain('no other DaemonSet of service node-services/agent would (agent: nodeAffinity)');
  });

  test('GIVEN a variant canary whose nodes the pool cannot tolerate THEN the error names the labelled nodes', () => {
    const tainted = NodePool.of({ name: 'tainted', labels: { pool: 'tainted' } });
    const message = synthError({
      pools: [general, tainted],
      variants: [
        Variant.forPool('tainted', tainted, {
          canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'registry.example.com/agent:1.3.0' }),
        }),
      ],
      nodeSelector: { 'kubernetes.io/os': 'linux', 'example.com/canary': 'false' },
    });
    expect(message).toContain(
      'DaemonSet agent-tainted-canary would not run on node pool "tainted" (nodes labelled example.com/canary=true): nodeSelector',
    );
  });

  test('GIVEN a canary label key named like an Object.prototype member THEN its split is still checked on the pool', () => {
    // `constructor` is a valid label key; a pool's labels must not seem to carry it (an inherited member): the canary's
    // nodes of the pool are checked, and the service's own requirement keeps the canary off them.
    const message = synthError({
      pools: [general],
      nodeRequirements: [NodeRequirement.notIn('constructor', ['true'])],
      canary: Canary.byNodeLabel('constructor', 'true', { image: 'registry.example.com/agent:1.3.0' }),
    });
    expect(message).toContain(
      'DaemonSet agent-canary would not run on node pool "general" (nodes labelled constructor=true): nodeAffinity',
    );
  });

  test('GIVEN a node-label variant on the label of a pool THEN every pool is checked on nodes it can have, and synth passes', () => {
    // The variant is for pool=other nodes, which no declared pool has: general's nodes are never labelled pool=other.
    const chart = testChart();
    const svc = new NodeService(chart, 'svc', {
      name: 'agent',
      containers: [main],
      pools: [general],
      variants: [Variant.byNodeLabel('other', 'node.example.com/pool', ['other'], { resources: big })],
    });
    expect(() => Testing.synth(chart)).not.toThrow();
    expect(svc.daemonSetNames).toEqual(['agent', 'agent-other']);
  });

  test('GIVEN a Windows pool and a Windows variant THEN synth passes; without the variant it fails for the OS', () => {
    const chart = testChart();
    new NodeService(chart, 'svc', {
      name: 'agent',
      containers: [main],
      pools: [general, windows],
      variants: [Variant.windows('windows', { image: 'registry.example.com/agent:1.2.3-windows', reason: WINDOWS_REASON })],
    });
    expect(() => Testing.synth(chart)).not.toThrow();
    expect(synthError({ pools: [general, windows] })).toContain('DaemonSet agent would not run on node pool "windows"');
  });
});

describe('variants: wrong input', () => {
  test('GIVEN every kind of mistake THEN one error lists each (construct path, field as written, value, fix)', () => {
    const message = errorOf(
      (scope) =>
        new NodeService(scope, 'svc', {
          name: 'agent',
          containers: [main],
          pools: [general],
          excludePools: [edge],
          variants: [
            Variant.forPool('gpu', gpu),
            Variant.forPool('gpu', general, { resources: big }),
            Variant.byNodeLabel('empty', 'example.com/size', []),
            Variant.byNodeLabel('bad-key', 'bad key!', ['x']),
            Variant.byNodeLabel('Bad_Name', 'example.com/size', ['xl']),
            Variant.forPool('edge', edge),
            Variant.forPool('all', NodePool.all()),
            Variant.windows('win', { reason: 'short' } as any),
            Variant.windows('win2', { image: 'x/y:1', reason: WINDOWS_REASON, runAsUserName: 'a\\b\\c' }),
          ],
        }),
    );
    expect(message).toContain('[test/svc]');
    for (const expected of [
      'variants[0].pool = "gpu": is not one of the pools the service covers',
      'variants[1].name = "gpu": duplicates variants[0].name',
      'variants[2].values = []: must name at least one label value',
      'variants[3].key = "bad key!"',
      'variants[4].name = "Bad_Name"',
      'variants[5].pool = "edge": is one of the excludePools',
      'variants[6].pool = "all-nodes": has no label that selects its nodes',
      'variants[7].image = undefined: is required for a Windows variant',
      'variants[7].reason = "short"',
      'variants[8] = "win2": is a second Windows variant (variants[7] is one)',
      'variants[8].runAsUserName = "a\\\\b\\\\c": may contain at most one \'\\\'',
    ])
      expect(message).toContain(expected);
    expect(message).toMatch(/Fix: add it to pools \(now "general"\)/);
    // An option of another factory is named by the factory it was given to.
    expect(() => Variant.byNodeLabel('cmd', 'example.com/size', ['s'], { command: ['x'] } as any)).toThrow(
      '- Variant.byNodeLabel(options.command) = ["x"]: is not an option here',
    );
  });

  test('GIVEN a pool with several labels THEN the variant must name its selecting label', () => {
    const pool = NodePool.of({ name: 'big', labels: { 'example.com/size': 'xl', 'example.com/tier': 'a' } });
    const build = (poolLabel?: string) =>
      errorOf(
        (scope) =>
          new NodeService(scope, 'svc', {
            name: 'agent',
            containers: [main],
            pools: [pool],
            variants: [Variant.forPool('big', pool, { poolLabel })],
          }),
      );
    expect(build()).toContain('variants[0].poolLabel = undefined: must name the label that selects pool "big" (it has 2)');
    expect(build('example.com/nope')).toContain('variants[0].poolLabel = "example.com/nope": is not a label of pool "big"');
    const chart = testChart();
    new NodeService(chart, 'svc', {
      name: 'agent',
      containers: [main],
      pools: [pool],
      variants: [Variant.forPool('big', pool, { poolLabel: 'example.com/size' })],
    });
    // The pool's term already holds the match (`example.com/size In [xl]`), which is not repeated.
    expect(terms(byName(Testing.synth(chart), 'agent-big'))).toEqual([
      {
        matchExpressions: [
          { key: 'example.com/size', operator: 'In', values: ['xl'] },
          { key: 'example.com/tier', operator: 'In', values: ['a'] },
        ],
      },
    ]);
  });

  test('GIVEN overrides with bad values THEN they are reported once, under the variant', () => {
    const message = errorOf(
      (scope) =>
        new NodeService(scope, 'svc', {
          name: 'agent',
          containers: [main],
          pools: [general],
          variants: [
            Variant.forPool('general', general, {
              image: 'x/y:latest',
              resources: { cpuRequest: 'lots', memoryRequest: '1Gi', memoryLimit: '1Gi' },
              images: { sidecar: 'x/y:1' },
              canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'x/z:latest' }),
            }),
          ],
        }),
    );
    expect(message).toContain('variants[0].image = "x/y:latest"');
    expect(message).toContain('variants[0].resources.cpuRequest = "lots"');
    expect(message).toContain('variants[0].images["sidecar"]');
    expect(message).toContain('variants[0].canary.image = "x/z:latest"');
    expect(message).toContain('(4 problems)');
  });

  test('GIVEN a variant name that makes the DaemonSet name too long, or is taken by the canary THEN it is named', () => {
    const long = 'v'.repeat(60);
    const message = errorOf(
      (scope) =>
        new NodeService(scope, 'svc', {
          name: 'agent',
          containers: [main],
          variants: [Variant.byNodeLabel(long, 'example.com/a', ['x']), Variant.byNodeLabel('canary', 'example.com/b', ['x'])],
        }),
    );
    expect(message).toContain(`variants[0].name = "${long}": makes the DaemonSet name "agent-${long}" must be at most 63 characters`);
    expect(message).toContain('variants[1].name = "canary": is taken by the canary DaemonSet');
  });

  test('GIVEN a later variant inside an earlier one THEN it would run nowhere, which is an error', () => {
    const message = errorOf(
      (scope) =>
        new NodeService(scope, 'svc', {
          name: 'agent',
          containers: [main],
          variants: [
            Variant.byNodeLabel('ab', 'example.com/size', ['a', 'b'], { resources: big }),
            Variant.byNodeLabel('a', 'example.com/size', ['a']),
          ],
        }),
    );
    expect(message).toContain('variants[1] = "a": selects only nodes that variants[0] ("ab") already runs on');
  });

  test('GIVEN a kind without a Windows HostProcess form THEN its Windows variant is refused with the allowlist', () => {
    const message = errorOf(
      (scope) =>
        new GpuMonitor(scope, 'gpu', {
          image: 'nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.0-ubuntu22.04',
          variants: [Variant.windows('windows', { image: 'x/y:1', reason: WINDOWS_REASON })],
        }),
    );
    expect(message).toContain('variants[0] = "windows": a gpu-monitor may not have a Windows HostProcess variant');
    expect(message).toContain('log-agent, monitoring-agent');
  });

  test('GIVEN plain-JavaScript values of the wrong type THEN each is named, no TypeError', () => {
    const message = errorOf(
      (scope) =>
        new NodeService(scope, 'svc', {
          name: 'agent',
          containers: [main],
          variants: ['gpu', { name: 'x' }] as any,
        }),
    );
    expect(message).toContain('variants[0] = "gpu": must be a Variant');
    expect(message).toContain('variants[1]');
    // The factories check their own arguments.
    expect(() => Variant.byNodeLabel('n', 'k', 'x' as any)).toThrow('- Variant.byNodeLabel(values) = "x": must be a list of strings');
    const forPool = errorOf(() => Variant.forPool('p', general, { resources: 'big', hostPaths: ['/var/log'] } as any));
    expect(forPool).toContain('- Variant.forPool(options.resources) = "big"');
    expect(forPool).toContain('- Variant.forPool(options.hostPaths)');
  });
});

describe('variants: exactly once (property)', () => {
  const keys = ['zone', 'node.example.com/pool', 'nvidia.com/gpu.present', 'example.com/size'];
  const values = ['a', 'b', 'true', ''];
  const nodeArb = fc.record({
    labels: fc.dictionary(fc.constantFrom(...keys, 'example.com/canary'), fc.constantFrom(...values), { maxKeys: 4 }),
    os: fc.constantFrom('linux', 'linux', 'windows'),
    gpuTaint: fc.boolean(),
  });
  const variantArb = fc.record({
    key: fc.constantFrom(...keys),
    values: fc.subarray(values, { minLength: 1 }),
    canary: fc.option(fc.constantFrom('true', 'a'), { nil: undefined }),
  });
  const setupArb = fc.record({
    variants: fc.array(variantArb, { maxLength: 4 }),
    windows: fc.boolean(),
    windowsCanary: fc.boolean(),
    canary: fc.option(fc.constantFrom('true', 'b'), { nil: undefined }),
    pools: fc.subarray([general, gpu, NodePool.of({ name: 'zone-a', labels: { zone: 'a' } })]),
  });

  test('PROPERTY: over 1,000 generated clusters and variant sets every node the service covers runs exactly one DaemonSet', () => {
    let checked = 0;
    fc.assert(
      fc.property(setupArb, fc.array(nodeArb, { minLength: 1, maxLength: 10 }), (setup, nodeSpecs) => {
        // A later variant inside an earlier one is refused; keep the sets the construct accepts.
        const kept = setup.variants.filter(
          (v, i) => !setup.variants.slice(0, i).some((u) => u.key === v.key && v.values.every((x) => u.values.includes(x))),
        );
        const props: NodeServiceProps = { name: 'agent', containers: [main], pools: setup.pools, nodeSelector: {} };
        const chart = testChart();
        const unsplit = new NodeService(chart, 'unsplit', props);
        const variants = kept.map((v, i) =>
          Variant.byNodeLabel(`v${i}`, v.key, v.values, {
            env: { VARIANT: `v${i}` },
            ...(v.canary ? { canary: Canary.byNodeLabel('example.com/canary', v.canary, { env: { CANARY: 'yes' } }) } : {}),
          }),
        );
        if (setup.windows)
          variants.push(
            Variant.windows('win', {
              image: 'registry.example.com/agent:1.2.3-windows',
              reason: WINDOWS_REASON,
              ...(setup.windowsCanary
                ? { canary: Canary.byNodeLabel('example.com/canary', 'a', { image: 'registry.example.com/agent:1.3.0-windows' }) }
                : {}),
            }),
          );
        const split = new NodeService(chart, 'split', {
          ...props,
          name: 'split',
          variants,
          ...(setup.canary ? { canary: Canary.byNodeLabel('example.com/canary', setup.canary, { env: { CANARY: 'yes' } }) } : {}),
        });
        const nodes = nodeSpecs.map((n, i) => ({
          metadata: { name: `node-${i}`, labels: { ...n.labels, 'kubernetes.io/os': n.os, 'kubernetes.io/hostname': `node-${i}` } },
          spec: { taints: n.gpuTaint ? [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }] : [] },
        }));
        const manifests = split.daemonSets.map((d) => d.toJson());
        const report = checkCanarySplit(unsplit.daemonSet.toJson(), manifests, nodes);
        expect({ uncovered: report.uncovered, overlapping: report.overlapping, extra: report.extra }).toEqual({
          uncovered: [],
          overlapping: [],
          extra: [],
        });
        // With a Windows variant each node's one DaemonSet is built for its operating system.
        if (setup.windows) {
          for (const entry of report.nodes.filter((e) => e.target)) {
            const os = nodes.find((n) => n.metadata.name === entry.node)!.metadata.labels['kubernetes.io/os'];
            const ds = manifests[entry.coveredBy[0]];
            expect([entry.node, ds.spec.template.spec.os?.name ?? 'linux']).toEqual([entry.node, os]);
            checked++;
          }
        }
      }),
      { numRuns: 1000 },
    );
    expect(checked).toBeGreaterThan(100);
  });
});

describe('variants: every option of the wrong type (plain JavaScript) is named', () => {
  // The fields come from the shape table the boundary checks with, so a new option is covered when it is added.
  const variantFields = (ROLLOUT_SHAPE.variants.shape as any).of.fields.options.shape.fields as Record<string, { shape: any }>;
  test.each(Object.entries(variantFields).filter(([, spec]) => wrongValueFor(spec.shape) !== undefined))('options.%s', (field, spec) => {
    const wrong = wrongValueFor(spec.shape);
    // Each option is given to a factory that takes it (the factory checks its arguments).
    const [factory, make] =
      field === 'poolLabel'
        ? ['Variant.forPool', () => Variant.forPool('v', general, { [field]: wrong } as any)]
        : ['reason', 'command', 'runAsUserName'].includes(field)
          ? ['Variant.windows', () => Variant.windows('v', { reason: WINDOWS_REASON, [field]: wrong } as any)]
          : ['Variant.byNodeLabel', () => Variant.byNodeLabel('v', 'example.com/size', ['s'], { [field]: wrong } as any)];
    const message = errorOf(() => make());
    expect(message).toContain(`- ${factory}(options.${field}) = ${JSON.stringify(wrong)}: must be`);
    expect(message).not.toMatch(/TypeError|Cannot read/);
  });
});
