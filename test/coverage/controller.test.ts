/**
 * The DaemonSet controller's decision (research/daemonset-scheduling.md §1–§3): what it checks, what it ignores,
 * the automatic tolerations and their merge rule.
 */

import {
  AUTOMATIC_TOLERATIONS,
  CoverageReason,
  analyzeCoverage,
  checkPodOnNode,
  compileWorkload,
  daemonPodTolerations,
} from '../../src/coverage';
import { container, daemonSet, node, requiredAffinity, template } from './support';
// The coverage analysis asks the rule catalogue whether the API server accepts a DaemonSet, as the package provides it.
import '../../src/policy/api-validity';

describe('§1 the pipeline: the controller decides "desired", the scheduler decides "runs"', () => {
  test('§1.1 the controller ignores resources: a pod too big for the node is desired but Pending', () => {
    // GIVEN a node with 1 CPU and a pod that requests 2 (upstream InsufficientResourceError case)
    const small = node('small', { allocatable: { cpu: '1', memory: '4Gi', pods: '110' } });
    const big = template({ containers: [container('agent', { requests: { cpu: '2' } })] });
    // WHEN checked
    const verdict = checkPodOnNode(big, small);
    // THEN the controller wants the pod but the scheduler cannot place it
    expect(verdict.desired).toBe(true);
    expect(verdict.runs).toBe(false);
    expect(verdict.reason).toBe(CoverageReason.RESOURCES);
  });

  test('§1.1 the controller ignores host ports: a port conflict leaves the pod desired but Pending', () => {
    const n = node('n1');
    const existing = {
      kind: 'Pod',
      metadata: { name: 'other', namespace: 'default' },
      spec: { nodeName: 'n1', containers: [container('o', { ports: [{ containerPort: 80, hostPort: 9100 }] })] },
    };
    const verdict = checkPodOnNode(
      template({ containers: [container('agent', { ports: [{ containerPort: 9100, hostPort: 9100 }] })] }),
      n,
      [existing],
    );
    expect(verdict.desired).toBe(true);
    expect(verdict.runs).toBe(false);
    expect(verdict.reason).toBe(CoverageReason.HOST_PORT);
  });

  test('§1.1 node conditions are not controller inputs: a Ready=False node without taints gets the pod (the kubelet does not start it)', () => {
    const notReady = node('n1', {
      conditions: [
        { type: 'Ready', status: 'False' },
        { type: 'NetworkUnavailable', status: 'True' },
      ],
    });
    const verdict = checkPodOnNode(template(), notReady);
    expect(verdict).toMatchObject({
      desired: true,
      shouldContinueRunning: true,
      runs: false,
      reason: CoverageReason.NOT_READY,
      status: 'notRunning',
    });
  });

  test('§1.1 spec.unschedulable is not an input: a cordoned node (unschedulable + its taint) runs daemon pods', () => {
    const cordoned = node('n1', { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] });
    expect(checkPodOnNode(template(), cordoned)).toMatchObject({ desired: true, runs: true });
  });

  test('§1.1 preferred node affinity is not an input', () => {
    const preferred = {
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 100, preference: { matchExpressions: [{ key: 'pool', operator: 'In', values: ['gpu'] }] } },
        ],
      },
    };
    expect(checkPodOnNode(template({ affinity: preferred }), node('n1')).desired).toBe(true);
  });

  test('§1.1 pod (anti-)affinity and topology spread are not modeled, and the analysis says so', () => {
    const w = compileWorkload(
      daemonSet('agent', { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }] }),
    );
    expect(w.warnings.join('\n')).toMatch(/topology spread constraints are evaluated by the scheduler only and are not modeled/);
  });
});

describe('§2 NodeShouldRunDaemonPod', () => {
  test('§2.2 a template nodeName naming another node excludes the node (false, false)', () => {
    // GIVEN a template pinned to node "n2"
    const pinned = template({ nodeName: 'n2' });
    // WHEN checked on n1 and n2
    const elsewhere = checkPodOnNode(pinned, node('n1'));
    const there = checkPodOnNode(pinned, node('n2'));
    // THEN n1 is excluded (reported as a node-selection failure) and existing pods are not kept; n2 runs it
    expect(elsewhere).toMatchObject({ desired: false, runs: false, shouldContinueRunning: false, reason: CoverageReason.NODE_SELECTOR });
    expect(elsewhere.detail).toContain('spec.nodeName is "n2"');
    expect(there).toMatchObject({ desired: true, runs: true });
  });

  test('§2.3 a node that fails the selector or affinity gives (false, false)', () => {
    const verdict = checkPodOnNode(template({ nodeSelector: { pool: 'gpu' } }), node('n1', { labels: { pool: 'general' } }));
    expect(verdict).toMatchObject({ desired: false, shouldContinueRunning: false, reason: CoverageReason.NODE_SELECTOR });
  });

  test('§2.4 an untolerated NoSchedule taint: no new pod, but an existing pod is kept', () => {
    const verdict = checkPodOnNode(template(), node('n1', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }));
    expect(verdict).toMatchObject({
      desired: false,
      shouldContinueRunning: true,
      reason: CoverageReason.TAINT,
      detail: 'dedicated=db:NoSchedule',
    });
  });

  test('§2.4 an untolerated NoExecute taint: no new pod and existing pods are deleted', () => {
    const verdict = checkPodOnNode(template(), node('n1', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] }));
    expect(verdict).toMatchObject({ desired: false, shouldContinueRunning: false, reason: CoverageReason.TAINT });
  });

  test('§2.4 a tolerated NoExecute plus an untolerated NoSchedule keeps existing pods', () => {
    const n = node('n1', {
      taints: [
        { key: 'a', effect: 'NoExecute' },
        { key: 'b', effect: 'NoSchedule' },
      ],
    });
    const verdict = checkPodOnNode(template({ tolerations: [{ key: 'a', operator: 'Exists' }] }), n);
    expect(verdict).toMatchObject({ desired: false, shouldContinueRunning: true, detail: 'b:NoSchedule' });
  });

  test('§2.5 otherwise (true, true)', () => {
    expect(checkPodOnNode(template(), node('n1'))).toMatchObject({
      desired: true,
      shouldContinueRunning: true,
      runs: true,
      reason: CoverageReason.OK,
      detail: '',
    });
  });

  test('§2 status: desired counts nodes whose pod will be Pending; schedulable does not', () => {
    // GIVEN two nodes, one too small for the pod
    const nodes = [node('big'), node('small', { allocatable: { cpu: '100m', memory: '1Gi', pods: '10' } })];
    const ds = daemonSet('agent', { containers: [container('agent', { requests: { cpu: '500m' } })] });
    // WHEN analysed
    const report = analyzeCoverage([ds], nodes);
    // THEN desiredNumberScheduled is 2 and only 1 can run
    expect(report.workloads[0]).toMatchObject({ desired: 2, schedulable: 1 });
  });
});

describe('§3 automatic tolerations (AddOrUpdateDaemonPodTolerations)', () => {
  const autoKeys = (spec: any) => daemonPodTolerations(spec).map((t) => `${t.key}:${t.effect}:${t.operator}:${t.tolerationSeconds ?? '-'}`);

  test('§3 table: six tolerations for every pod, all Exists and without tolerationSeconds', () => {
    expect(autoKeys({})).toEqual([
      'node.kubernetes.io/not-ready:NoExecute:Exists:-',
      'node.kubernetes.io/unreachable:NoExecute:Exists:-',
      'node.kubernetes.io/disk-pressure:NoSchedule:Exists:-',
      'node.kubernetes.io/memory-pressure:NoSchedule:Exists:-',
      'node.kubernetes.io/pid-pressure:NoSchedule:Exists:-',
      'node.kubernetes.io/unschedulable:NoSchedule:Exists:-',
    ]);
    expect(AUTOMATIC_TOLERATIONS).toHaveLength(6);
  });

  test('§3 table: network-unavailable only for hostNetwork pods', () => {
    expect(autoKeys({ hostNetwork: true })).toContain('node.kubernetes.io/network-unavailable:NoSchedule:Exists:-');
    expect(autoKeys({ hostNetwork: false })).not.toContain('node.kubernetes.io/network-unavailable:NoSchedule:Exists:-');
  });

  test.each([
    ['node.kubernetes.io/not-ready', 'NoExecute'],
    ['node.kubernetes.io/unreachable', 'NoExecute'],
    ['node.kubernetes.io/disk-pressure', 'NoSchedule'],
    ['node.kubernetes.io/memory-pressure', 'NoSchedule'],
    ['node.kubernetes.io/pid-pressure', 'NoSchedule'],
    ['node.kubernetes.io/unschedulable', 'NoSchedule'],
  ])('§3 a pod without tolerations still lands on a node tainted %s:%s', (key, effect) => {
    expect(checkPodOnNode(template(), node('n1', { taints: [{ key, effect }] })).desired).toBe(true);
  });

  test('§3 network-unavailable:NoSchedule blocks every DaemonSet that is not hostNetwork', () => {
    const n = node('n1', { taints: [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }] });
    expect(checkPodOnNode(template(), n)).toMatchObject({ desired: false, detail: 'node.kubernetes.io/network-unavailable:NoSchedule' });
    expect(checkPodOnNode(template({ hostNetwork: true }), n).desired).toBe(true);
  });

  test('§3 merge rule: a template toleration equal in key, operator, value and effect is replaced (tolerationSeconds dropped)', () => {
    // GIVEN the user's not-ready:NoExecute Exists toleration with tolerationSeconds 300
    const spec = {
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    };
    // WHEN merged
    const merged = daemonPodTolerations(spec).filter((t) => t.key === 'node.kubernetes.io/not-ready');
    // THEN exactly one remains, in place, and it tolerates forever
    expect(merged).toEqual([{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }]);
    expect(daemonPodTolerations(spec)[0].key).toBe('node.kubernetes.io/not-ready');
    // AND no churn warning is raised for it, since the controller overwrites it
    expect(compileWorkload(daemonSet('a', spec)).warnings.join('\n')).not.toMatch(/tolerationSeconds/);
  });

  test('§3 merge rule: a toleration that differs (here: operator Equal) is kept and the automatic one appended', () => {
    const user = { key: 'node.kubernetes.io/unreachable', operator: 'Equal', value: '', effect: 'NoExecute', tolerationSeconds: 60 };
    const merged = daemonPodTolerations({ tolerations: [user] }).filter((t) => t.key === 'node.kubernetes.io/unreachable');
    expect(merged).toEqual([user, { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }]);
  });

  test('§3 merge rule: an identical toleration without tolerationSeconds is left as it is (no duplicate)', () => {
    const user = { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' };
    const merged = daemonPodTolerations({ tolerations: [user] });
    expect(merged.filter((t) => t.key === 'node.kubernetes.io/disk-pressure')).toHaveLength(1);
    expect(merged).toHaveLength(6);
  });

  test('§3 gap: a NotReady node (not-ready:NoSchedule) gets no new daemon pod but keeps an existing one', () => {
    const n = node('n1', {
      conditions: [{ type: 'Ready', status: 'False' }],
      taints: [
        { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
      ],
    });
    expect(checkPodOnNode(template(), n)).toMatchObject({
      desired: false,
      shouldContinueRunning: true,
      detail: 'node.kubernetes.io/not-ready:NoSchedule',
    });
    // and a blanket Exists toleration (CNI, kube-proxy style) covers it
    expect(checkPodOnNode(template({ tolerations: [{ operator: 'Exists' }] }), n).desired).toBe(true);
  });

  test('§3 gap: an unreachable node (Ready=Unknown → unreachable:NoSchedule) behaves the same', () => {
    const n = node('n1', { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] });
    expect(checkPodOnNode(template(), n)).toMatchObject({ desired: false, shouldContinueRunning: true });
  });

  test('§3 upstream TestNotReadyNodeDaemonLaunchesPod: with only the NoExecute variant the pod is created', () => {
    const n = node('n1', { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }] });
    expect(checkPodOnNode(template(), n).desired).toBe(true);
  });

  test('§3 no automatic toleration for the control-plane taint or the legacy master taint', () => {
    const cp = node('cp', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] });
    const master = node('m', { taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] });
    expect(checkPodOnNode(template(), cp)).toMatchObject({ desired: false, detail: 'node-role.kubernetes.io/control-plane:NoSchedule' });
    expect(checkPodOnNode(template(), master)).toMatchObject({ desired: false, detail: 'node-role.kubernetes.io/master:NoSchedule' });
  });

  test('§3 the automatic tolerations are used for the evaluation even though the template does not show them', () => {
    // GIVEN a DaemonSet object with no tolerations at all and a memory-pressure node
    const ds = daemonSet('agent');
    expect(ds.spec.template.spec.tolerations).toBeUndefined();
    const report = analyzeCoverage([ds], [node('n1', { taints: [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }] })]);
    // THEN the node is covered
    expect(report.workloads[0].nodes[0].runs).toBe(true);
  });

  test('§3 required affinity that excludes a node is not rescued by tolerations', () => {
    const t = template({
      tolerations: [{ operator: 'Exists' }],
      affinity: requiredAffinity({ matchExpressions: [{ key: 'pool', operator: 'In', values: ['edge'] }] }),
    });
    expect(checkPodOnNode(t, node('n1')).reason).toBe(CoverageReason.NODE_AFFINITY);
  });
});
