/**
 * Default preemption for a daemon pod (research/field-findings.md §4, daemonset-scheduling.md §7): the pod is bound to
 * one node by its node affinity, so the scheduler's PostFilter can only preempt on that node. Victims are pods of
 * strictly lower priority; all of them are set aside, the pod must then fit (host ports and resources), and the victims
 * are reprieved highest priority first while the pod still fits (`SelectVictimsOnNode`). `preemptionPolicy: Never`
 * (on the pod or its PriorityClass) disables it. PodDisruptionBudgets do not stop it.
 */

import { CoverageReason, analyzeCoverage, checkPodOnNode } from '../../src/coverage';
import { container, daemonSet, node, pod } from './support';
// The coverage analysis asks the rule catalogue whether the API server accepts a DaemonSet, as the package provides it.
import '../../src/policy/api-validity';

const small = () => node('n1', { allocatable: { cpu: '1', memory: '1Gi', pods: '10' } });
const squatter = (name: string, cpu: string, spec: any = {}) =>
  pod(name, 'n1', { containers: [container(name, { requests: { cpu } })], ...spec });
const agent = (spec: any = {}, cpu = '500m') => daemonSet('agent', { containers: [container('agent', { requests: { cpu } })], ...spec });
const critical = { priorityClassName: 'system-node-critical' };
const classes = [
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'agents' }, value: 1000 },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'polite' }, value: 1000, preemptionPolicy: 'Never' },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'batch' }, value: 10 },
];

function row(workloads: any[], pods: any[]) {
  return analyzeCoverage([...workloads, ...classes], [small()], pods).workloads[0].nodes[0];
}

describe('preemption by priority (table)', () => {
  const cases: Array<{ name: string; ds: any; blocker: any; runs: boolean; preempts?: string[] }> = [
    {
      name: 'lower priority (0 < system-node-critical): preempted',
      ds: agent(critical),
      blocker: squatter('app', '800m'),
      runs: true,
      preempts: ['default/app'],
    },
    {
      name: 'lower priority by PriorityClass (10 < 1000)',
      ds: agent({ priorityClassName: 'agents' }),
      blocker: squatter('job', '800m', { priorityClassName: 'batch' }),
      runs: true,
      preempts: ['default/job'],
    },
    {
      name: 'lower priority by spec.priority (live pods carry it)',
      ds: agent({ priorityClassName: 'agents' }),
      blocker: squatter('app', '800m', { priority: 999 }),
      runs: true,
      preempts: ['default/app'],
    },
    {
      name: 'equal priority: not preempted',
      ds: agent({ priorityClassName: 'agents' }),
      blocker: squatter('peer', '800m', { priority: 1000 }),
      runs: false,
    },
    {
      name: 'higher priority: not preempted',
      ds: agent({ priorityClassName: 'batch' }),
      blocker: squatter('important', '800m', { priorityClassName: 'agents' }),
      runs: false,
    },
    { name: 'no priority class (0) vs priority 0: not preempted', ds: agent(), blocker: squatter('app', '800m'), runs: false },
    {
      name: 'preemptionPolicy Never on the pod',
      ds: agent({ ...critical, preemptionPolicy: 'Never' }),
      blocker: squatter('app', '800m'),
      runs: false,
    },
    {
      name: 'preemptionPolicy Never on the PriorityClass',
      ds: agent({ priorityClassName: 'polite' }),
      blocker: squatter('app', '800m'),
      runs: false,
    },
    {
      name: 'the blocker has a class that is not given: never a victim',
      ds: agent(critical),
      blocker: squatter('app', '800m', { priorityClassName: 'unknown' }),
      runs: false,
    },
    {
      name: 'host port held by a lower-priority pod: preempted',
      ds: daemonSet('agent', {
        ...critical,
        containers: [container('agent', { requests: { cpu: '10m' }, ports: [{ containerPort: 9100, hostPort: 9100 }] })],
      }),
      blocker: pod('legacy', 'n1', {
        containers: [container('legacy', { requests: { cpu: '10m' }, ports: [{ containerPort: 9100, hostPort: 9100 }] })],
      }),
      runs: true,
      preempts: ['default/legacy'],
    },
    {
      name: 'host port held by an equal-priority pod: Pending',
      ds: daemonSet('agent', {
        ...critical,
        containers: [container('agent', { requests: { cpu: '10m' }, ports: [{ containerPort: 9100, hostPort: 9100 }] })],
      }),
      blocker: pod('other', 'n1', {
        ...critical,
        containers: [container('other', { requests: { cpu: '10m' }, ports: [{ containerPort: 9100, hostPort: 9100 }] })],
      }),
      runs: false,
    },
    {
      name: 'more than the node has even when empty: preemption does not help',
      ds: agent(critical, '2'),
      blocker: squatter('app', '100m'),
      runs: false,
    },
  ];

  test.each(cases)('$name', ({ ds, blocker, runs, preempts }) => {
    const r = row([ds], [blocker]);
    expect(r.runs).toBe(runs);
    expect(r.preempts).toEqual(preempts);
    if (!runs) expect(['hostPort', 'resources']).toContain(r.reason);
    else expect(r).toMatchObject({ reason: CoverageReason.OK, status: 'running', detail: '' });
    // the one-pair check agrees
    const verdict = checkPodOnNode(ds, small(), [blocker], { priorityClasses: classes });
    expect([verdict.runs, verdict.preempts]).toEqual([runs, preempts]);
  });
});

describe('preemption picks the fewest victims', () => {
  test('victims are reprieved highest priority first: only what must go is preempted', () => {
    // GIVEN 1 CPU; a priority-10 pod and a priority-0 pod of 400m each; the daemon pod needs 500m (200m free)
    const a = squatter('batch-a', '400m', { priorityClassName: 'batch' });
    const b = squatter('zero-b', '400m');
    // WHEN placed with priority 1000 THEN the priority-10 pod is reprieved (600m free is enough) and only b goes
    expect(row([agent({ priorityClassName: 'agents' })], [a, b]).preempts).toEqual(['default/zero-b']);
    // AND when 900m is needed both go, in input order
    expect(row([agent({ priorityClassName: 'agents' }, '900m')], [a, b]).preempts).toEqual(['default/batch-a', 'default/zero-b']);
  });

  test('a pod slot is freed the same way', () => {
    const full = node('n1', { allocatable: { cpu: '4', memory: '1Gi', pods: '1' } });
    const report = analyzeCoverage([agent(critical)], [full], [squatter('app', '10m')]);
    expect(report.workloads[0].nodes[0].preempts).toEqual(['default/app']);
  });

  test('the DaemonSet’s own pod is never a victim, and does not block it', () => {
    const own = pod(
      'agent-x',
      'n1',
      { containers: [container('agent', { requests: { cpu: '900m' } })] },
      { namespace: 'node-services', ownerReferences: [{ kind: 'DaemonSet', name: 'agent', uid: 'u' }] },
    );
    expect(row([agent(critical)], [own])).toMatchObject({ runs: true, status: 'running' });
    expect(row([agent(critical)], [own]).preempts).toBeUndefined();
  });

  test('PodDisruptionBudgets do not stop preemption (a PDB covering the victim changes nothing)', () => {
    const pdb = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'app', namespace: 'default' },
      spec: { maxUnavailable: 0, selector: { matchLabels: { app: 'app' } } },
    };
    const victim = squatter('app', '800m');
    victim.metadata.labels = { app: 'app' };
    const report = analyzeCoverage([agent(critical), pdb], [small()], [victim]);
    expect(report.workloads[0].nodes[0].preempts).toEqual(['default/app']);
    expect(report.warnings.join('\n')).toMatch(/PodDisruptionBudgets do not stop this preemption/);
  });

  test('after preemption the kubelet stage still applies (NotReady: bound but not started, victims still named)', () => {
    const notReady = node('n1', { allocatable: { cpu: '1', memory: '1Gi', pods: '10' }, conditions: [{ type: 'Ready', status: 'False' }] });
    const r = analyzeCoverage([agent(critical)], [notReady], [squatter('app', '800m')]).workloads[0].nodes[0];
    expect(r).toMatchObject({ runs: false, reason: 'notReady', status: 'notRunning', preempts: ['default/app'] });
  });
});
