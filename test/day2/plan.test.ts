import { planRollouts, podMatchesTemplate } from '../../src/day2/plan';
import { daemonSet, inputs, node, nodes, podOf } from './support';
// The coverage analysis asks the rule catalogue whether the API server accepts a DaemonSet, as the package provides it.
import '../../src/policy/api-validity';

// Cases worked by hand from kubernetes/kubernetes pkg/controller/daemon/update.go (1.28) `rollingUpdate`:
// without surge, per sync: numUnavailable = desired nodes with no pod, with an old pod that is not available (replaced
// at once, outside the budget) or with a new pod that is not available; then up to maxUnavailable − numUnavailable
// available old pods are deleted. With maxSurge > 0: a new pod next to every unavailable old pod, and next to up to
// maxSurge − (new pods not yet available) available old pods; old pods go once the new one is available.

const OLD = daemonSet({ image: 'registry.example.com/agent:1.0.0' });
const rolling = (maxUnavailable: number | string, maxSurge: number | string = 0) => ({
  type: 'RollingUpdate',
  rollingUpdate: { maxUnavailable, maxSurge },
});

function plan(
  newDs: any,
  options: { nodes: any[]; pods?: any[]; old?: any; pullSeconds?: number; readySeconds?: number; canaryWaveSize?: number },
) {
  const report = planRollouts(inputs(newDs), { ...options, old: options.old === undefined ? undefined : inputs(options.old) });
  return report.daemonSets[0];
}

const waveSizes = (p: ReturnType<typeof plan>) => p.waves.map((w) => w.nodes.length);

describe('plan: budgets and waves without surge', () => {
  test('GIVEN maxUnavailable 3 over 10 ready nodes THEN waves of 3, 3, 3, 1 and 4 × (pull + ready + minReadySeconds)', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: rolling(3), minReadySeconds: 5 });
    const p = plan(ds, { nodes: nodes(10), old: OLD });
    expect([p.outcome, p.desired, p.maxUnavailable, p.maxSurge, p.toUpdate]).toEqual(['complete', 10, 3, 0, 10]);
    expect(waveSizes(p)).toEqual([3, 3, 3, 1]);
    expect(p.waves[0].nodes).toEqual(['node-1', 'node-2', 'node-3']);
    expect(p.estimatedSeconds).toBe(4 * (30 + 10 + 5));
  });

  test('GIVEN "30%" THEN it is rounded up over the desired count: 3 of 10, 4 of 11', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: rolling('30%') });
    expect(waveSizes(plan(ds, { nodes: nodes(10), old: OLD }))).toEqual([3, 3, 3, 1]);
    const eleven = plan(ds, { nodes: nodes(11), old: OLD });
    expect(eleven.maxUnavailable).toBe(4);
    expect(waveSizes(eleven)).toEqual([4, 4, 3]);
  });

  test('GIVEN only nodes the DaemonSet selects THEN the percentage scales over those (desiredNumberScheduled)', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: rolling('50%'), spec: { nodeSelector: { pool: 'gpu' } } });
    const cluster = [...nodes(6), ...nodes(3, 'gpu', { labels: { pool: 'gpu' } })];
    const p = plan(ds, {
      nodes: cluster,
      old: {
        ...OLD,
        spec: { ...OLD.spec, template: { ...OLD.spec.template, spec: { ...OLD.spec.template.spec, nodeSelector: { pool: 'gpu' } } } },
      },
    });
    // ceil(50% × 3) = 2
    expect([p.desired, p.maxUnavailable]).toEqual([3, 2]);
    expect(p.waves.map((w) => w.nodes)).toEqual([['gpu-1', 'gpu-2'], ['gpu-3']]);
  });

  test('GIVEN pods that are not ready THEN they count against the budget and are replaced first, outside it', () => {
    // 10 nodes, maxUnavailable 3, the old pods on node-1 and node-2 not ready.
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: rolling(3) });
    const cluster = nodes(10);
    const pods = cluster.map((n, i) => podOf(ds, n.metadata.name, { image: 'registry.example.com/agent:1.0.0', ready: i >= 2 }));
    const p = plan(ds, { nodes: cluster, pods });
    // First sync: 2 unavailable (replaced at once), room 3 − 2 = 1 → node-1, node-2, node-3; then 3, 3, 1.
    expect(p.unavailableAtStart).toEqual(['node-1', 'node-2']);
    expect(p.waves.map((w) => w.nodes.length)).toEqual([3, 3, 3, 1]);
    expect(p.waves[0].nodes).toEqual(['node-1', 'node-2', 'node-3']);
    expect(p.because).toContain('10 of the 10 pods in --pods (on 10 desired nodes) do not run the new template');
  });

  test('GIVEN --pods that holds 4 old pods on 5 desired nodes THEN the reason counts the 4 pods of the file, not the nodes', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: rolling(1) });
    const cluster = nodes(5);
    const pods = cluster.slice(0, 4).map((n) => podOf(ds, n.metadata.name, { image: 'registry.example.com/agent:1.0.0' }));
    const p = plan(ds, { nodes: cluster, pods });
    expect(pods).toHaveLength(4);
    expect(p.desired).toBe(5);
    expect(p.because).toContain('4 of the 4 pods in --pods (on 5 desired nodes) do not run the new template');
  });

  test('GIVEN a node whose new pod is already there THEN it is not updated again', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: rolling(2) });
    const cluster = nodes(5);
    const pods = cluster.map((n, i) => podOf(ds, n.metadata.name, i === 0 ? {} : { image: 'registry.example.com/agent:1.0.0' }));
    const p = plan(ds, { nodes: cluster, pods });
    expect(p.toUpdate).toBe(4);
    expect(p.waves.map((w) => w.nodes)).toEqual([
      ['node-2', 'node-3'],
      ['node-4', 'node-5'],
    ]);
  });
});

describe('plan: deadlocks', () => {
  test('GIVEN maxUnavailable 1 and a NotReady node the DaemonSet tolerates THEN the rollout is stuck on that node', () => {
    // The NotReady node's old pod is unavailable: replaced at once; its new pod never becomes available and holds
    // the only unit of budget, so no other old pod is ever deleted.
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', tolerateEverything: true });
    const cluster = [
      ...nodes(4),
      node('broken', { ready: 'False', taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] }),
    ];
    const p = plan(ds, {
      nodes: cluster,
      old: {
        ...OLD,
        spec: {
          ...OLD.spec,
          template: { ...OLD.spec.template, spec: { ...OLD.spec.template.spec, tolerations: [{ operator: 'Exists' }] } },
        },
      },
    });
    expect(p.outcome).toBe('stuck');
    expect(p.waves.map((w) => w.nodes)).toEqual([['broken']]);
    expect(p.blockedBy).toEqual([{ node: 'broken', reason: 'node is NotReady: its new pod never becomes available' }]);
    expect(p.neverUpdated).toEqual(['node-1', 'node-2', 'node-3', 'node-4']);
    expect(p.estimatedSeconds).toBeNull();
  });

  test('GIVEN maxUnavailable 2 and the same NotReady node THEN it completes one node at a time', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', tolerateEverything: true, strategy: rolling(2) });
    const cluster = [node('broken', { ready: 'False' }), ...nodes(4)];
    const p = plan(ds, { nodes: cluster, old: OLD });
    expect(p.outcome).toBe('complete');
    expect(p.waves.map((w) => w.nodes)).toEqual([['broken', 'node-1'], ['node-2'], ['node-3'], ['node-4']]);
  });

  test('GIVEN a new pod that is not ready in --pods THEN it holds the budget', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0' });
    const cluster = nodes(3);
    const pods = [
      podOf(ds, 'node-1', { ready: false }),
      podOf(ds, 'node-2', { image: 'registry.example.com/agent:1.0.0' }),
      podOf(ds, 'node-3', { image: 'registry.example.com/agent:1.0.0' }),
    ];
    const p = plan(ds, { nodes: cluster, pods });
    expect(p.outcome).toBe('stuck');
    expect(p.waves).toEqual([]);
    expect(p.blockedBy).toEqual([{ node: 'node-1', reason: 'its new pod is not ready (in --pods)' }]);
    expect(p.neverUpdated).toEqual(['node-2', 'node-3']);
  });

  test('GIVEN an unreachable node the DaemonSet no longer covers, with its old pod THEN the deleted pod stays Terminating and holds the budget', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0' });
    const gone = node('gone', { ready: 'Unknown', taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] });
    const cluster = [gone, ...nodes(3)];
    const pods = cluster.map((n) => podOf(ds, n.metadata.name, { image: 'registry.example.com/agent:1.0.0' }));
    const p = plan(ds, { nodes: cluster, pods });
    expect(p.desired).toBe(3);
    expect(p.outcome).toBe('stuck');
    expect(p.blockedBy).toEqual([{ node: 'gone', reason: 'node is unreachable (Ready Unknown): its deleted old pod stays Terminating' }]);
    expect(p.neverUpdated).toEqual(['node-1', 'node-2', 'node-3']);
  });

  test('GIVEN a new pod that cannot be scheduled (resources) THEN it stays Pending, is unfit and blocks', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', memory: '2Gi' });
    const cluster = [node('small', { allocatable: { cpu: '4', memory: '1Gi', pods: '110' } }), ...nodes(2)];
    const p = plan(ds, { nodes: cluster, old: OLD });
    expect(p.outcome).toBe('stuck');
    expect(p.unfit).toEqual([{ node: 'small', reason: 'resources', detail: 'memory: requested 2Gi, free 1Gi of 1Gi allocatable' }]);
    expect(p.blockedBy[0].node).toBe('small');
  });
});

describe('plan: surge', () => {
  test('GIVEN maxSurge 2, maxUnavailable 0 over 5 nodes THEN waves of 2, 2, 1', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: rolling(0, 2) });
    const p = plan(ds, { nodes: nodes(5), old: OLD });
    expect([p.outcome, p.maxSurge, p.maxUnavailable]).toEqual(['complete', 2, 0]);
    expect(waveSizes(p)).toEqual([2, 2, 1]);
  });

  test('GIVEN "20%" surge over 12 nodes THEN ceil(2.4) = 3 per wave', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: rolling(0, '20%') });
    const p = plan(ds, { nodes: nodes(12), old: OLD });
    expect(p.maxSurge).toBe(3);
    expect(waveSizes(p)).toEqual([3, 3, 3, 3]);
  });

  test('GIVEN a host port and surge THEN the surge pod can never fit next to the old pod and the rollout deadlocks', () => {
    const old = daemonSet({ hostPort: 9100 });
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', hostPort: 9100, strategy: rolling(0, 1) });
    const p = plan(ds, { nodes: nodes(3), old });
    expect(p.outcome).toBe('stuck');
    expect(p.unfit.map((u) => [u.node, u.reason])).toEqual([
      ['node-1', 'hostPort'],
      ['node-2', 'hostPort'],
      ['node-3', 'hostPort'],
    ]);
    expect(p.unfit[0].detail).toBe('TCP 0.0.0.0:9100 conflicts with 0.0.0.0:9100 of the old pod');
    expect(p.waves.map((w) => w.nodes)).toEqual([['node-1']]);
    expect(p.blockedBy.map((b) => b.node)).toEqual(['node-1']);
  });

  test('GIVEN surge pods that do not fit next to the old pod (resources) THEN they are reported with the resource', () => {
    const old = daemonSet({ memory: '600Mi' });
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', memory: '600Mi', strategy: rolling(0, 1) });
    const cluster = [node('tight', { allocatable: { cpu: '4', memory: '1Gi', pods: '110' } }), node('roomy')];
    const p = plan(ds, { nodes: cluster, old });
    expect(p.unfit).toEqual([{ node: 'tight', reason: 'resources', detail: 'memory: requested 600Mi, free 424Mi of 1Gi allocatable' }]);
    expect(p.outcome).toBe('stuck');
  });

  test('GIVEN an unavailable old pod with surge THEN its new pod is created at once, outside the surge budget', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: rolling(0, 1) });
    const cluster = nodes(3);
    const pods = cluster.map((n, i) => podOf(ds, n.metadata.name, { image: 'registry.example.com/agent:1.0.0', ready: i !== 2 }));
    const p = plan(ds, { nodes: cluster, pods });
    expect(p.waves.map((w) => w.nodes)).toEqual([['node-1', 'node-3'], ['node-2']]);
  });
});

describe('plan: surge and unreachable nodes', () => {
  test('GIVEN surge and an unreachable node the DaemonSet no longer covers THEN its terminating pod does not count (surge counts only new pods)', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: rolling(0, 1) });
    const gone = node('gone', { ready: 'Unknown', taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] });
    const cluster = [gone, ...nodes(2)];
    const pods = cluster.map((n) => podOf(ds, n.metadata.name, { image: 'registry.example.com/agent:1.0.0' }));
    const p = plan(ds, { nodes: cluster, pods });
    expect(p.outcome).toBe('complete');
    expect(p.waves.map((w) => w.nodes)).toEqual([['node-1'], ['node-2']]);
  });
});

describe('plan: terminating pods and missing pods', () => {
  test('GIVEN a Ready node whose only pod is terminating THEN it counts as unavailable and gets the new pod in the first wave', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: rolling(2) });
    const cluster = nodes(3);
    const pods = [
      podOf(ds, 'node-1', { image: 'registry.example.com/agent:1.0.0', terminating: true }),
      podOf(ds, 'node-2', { image: 'registry.example.com/agent:1.0.0' }),
      podOf(ds, 'node-3', { image: 'registry.example.com/agent:1.0.0' }),
    ];
    const p = plan(ds, { nodes: cluster, pods });
    // sync 1: node-1 has no live pod (unavailable, created by the manage loop), room 2 − 1 = 1 → node-2; then node-3
    expect(p.waves.map((w) => w.nodes)).toEqual([['node-1', 'node-2'], ['node-3']]);
  });

  test('GIVEN --old and --pods and a change the pods do not show (tolerations) THEN the pods are taken to run the old template', () => {
    const ds = daemonSet({ strategy: rolling(1), tolerateEverything: true });
    const cluster = nodes(2);
    const pods = cluster.map((n) => podOf(OLD, n.metadata.name));
    const p = plan(ds, { nodes: cluster, pods, old: OLD });
    expect([p.outcome, p.toUpdate, p.waves.length]).toEqual(['complete', 2, 2]);
  });

  test('GIVEN --pods without any pod of the DaemonSet THEN its pods are all created at once', () => {
    const p = plan(daemonSet({ name: 'fresh' }), { nodes: nodes(3), pods: [podOf(daemonSet(), 'node-1')] });
    expect([p.outcome, p.waves.length, p.because]).toEqual([
      'complete',
      1,
      'no pod of ops/fresh is in --pods: the controller creates its pods on all 3 desired nodes at once',
    ]);
  });
});

describe('plan: strategies, canaries and what changes', () => {
  test('GIVEN OnDelete THEN the rollout is manual', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: { type: 'OnDelete' } });
    const p = plan(ds, { nodes: nodes(3), old: OLD });
    expect([p.outcome, p.toUpdate, p.waves]).toEqual(['manual', 3, []]);
    expect(p.notes.join(' ')).toContain('only after its old pod is deleted');
    expect(p.notes.join(' ')).toContain('kubectl delete pod -n ops -l app.kubernetes.io/name=agent --field-selector spec.nodeName=NODE');
  });

  test('GIVEN the same template as --old THEN nothing rolls', () => {
    expect(plan(OLD, { nodes: nodes(3), old: OLD }).outcome).toBe('unchanged');
  });

  test('GIVEN an invalid strategy THEN the plan is invalid with the reason', () => {
    const p = plan(daemonSet({ strategy: rolling('200%') }), { nodes: nodes(3), old: OLD });
    expect(p.outcome).toBe('invalid');
    expect(p.because).toContain('must not be more than 100%');
  });

  test('GIVEN a DaemonSet that is not in --old THEN every pod is created at once', () => {
    const ds = daemonSet({ name: 'fresh' });
    const p = plan(ds, { nodes: nodes(4), old: OLD });
    expect([p.outcome, p.waves.length, p.waves[0].nodes.length, p.estimatedSeconds]).toEqual(['complete', 1, 4, 40]);
  });

  test('GIVEN a canary DaemonSet THEN kubectl label commands per wave and a rollback', () => {
    const canary = daemonSet({
      name: 'agent-canary',
      image: 'registry.example.com/agent:2.0.0',
      annotations: { 'node-services.cdk8s.io/canary-of': 'agent', 'node-services.cdk8s.io/canary-label': 'example.com/canary=true' },
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'example.com/canary', operator: 'In', values: ['true'] }] }],
            },
          },
        },
      },
    });
    const cluster = [
      node('n1', { labels: { 'example.com/canary': 'true' } }),
      node('n2'),
      node('n3', { labels: { 'example.com/canary': 'false' } }),
      node('n4'),
      node('n5'),
    ];
    const p = plan(canary, { nodes: cluster, old: canary, canaryWaveSize: 2 });
    expect(p.canary).toEqual({
      stable: 'agent',
      label: 'example.com/canary=true',
      labelled: ['n1'],
      waves: [
        ['n2', 'n3'],
        ['n4', 'n5'],
      ],
      commands: ['kubectl label nodes n2 n3 example.com/canary=true --overwrite', 'kubectl label nodes n4 n5 example.com/canary=true'],
      rollback: 'kubectl label nodes n1 n2 n3 n4 n5 example.com/canary-',
    });
  });

  test('GIVEN hostile node names THEN the commands quote them for the shell', () => {
    const canary = daemonSet({
      annotations: { 'node-services.cdk8s.io/canary-of': 'agent', 'node-services.cdk8s.io/canary-label': 'c=1' },
    });
    const p = plan(canary, { nodes: [node("a;rm -rf '/'")], old: canary });
    expect(p.canary!.commands).toEqual([`kubectl label nodes 'a;rm -rf '\\''/'\\''' c=1`]);
  });

  test('podMatchesTemplate compares requests and limits by value, with requests defaulted from limits as on the pod', () => {
    const ds = daemonSet({ container: { resources: { limits: { memory: '1Gi' } } } });
    const pod = podOf(ds, 'n');
    pod.spec.containers[0].resources = { requests: { memory: '1024Mi' }, limits: { memory: '1Gi' } };
    expect(podMatchesTemplate(pod, ds.spec.template)).toBe(true);
    expect(podMatchesTemplate(pod, daemonSet({ container: { resources: { limits: { memory: '2Gi' } } } }).spec.template)).toBe(false);
  });

  test('GIVEN pods of one controller revision THEN the first one decides for all of them', () => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0', strategy: rolling(1) });
    const cluster = nodes(2);
    const first = podOf(ds, 'node-1');
    // the second pod of the same revision was changed after creation (an injected sidecar)
    const second = podOf(ds, 'node-2');
    second.spec.containers = [...second.spec.containers, { name: 'injected', image: 'proxy:1' }];
    expect(podMatchesTemplate(second, ds.spec.template)).toBe(false);
    expect(plan(ds, { nodes: cluster, pods: [first, second] }).outcome).toBe('unchanged');
    // AND without the revision label each pod is compared on its own
    delete second.metadata.labels['controller-revision-hash'];
    expect(plan(ds, { nodes: cluster, pods: [first, second] }).toUpdate).toBe(1);
  });

  test('podMatchesTemplate compares containers, images, commands, arguments, template labels and annotations', () => {
    const ds = daemonSet({ podAnnotations: { 'checksum/config': 'aaa' } });
    const pod = podOf(ds, 'n');
    expect(podMatchesTemplate(pod, ds.spec.template)).toBe(true);
    // the API server's defaulting on the pod does not count
    pod.spec.containers[0].imagePullPolicy = 'IfNotPresent';
    expect(podMatchesTemplate(pod, ds.spec.template)).toBe(true);
    expect(podMatchesTemplate(pod, daemonSet({ podAnnotations: { 'checksum/config': 'bbb' } }).spec.template)).toBe(false);
    expect(podMatchesTemplate(pod, daemonSet({ image: 'x:2', podAnnotations: { 'checksum/config': 'aaa' } }).spec.template)).toBe(false);
    expect(
      podMatchesTemplate(pod, daemonSet({ container: { args: ['-v'] }, podAnnotations: { 'checksum/config': 'aaa' } }).spec.template),
    ).toBe(false);
  });
});
