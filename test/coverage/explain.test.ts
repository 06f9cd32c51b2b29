/**
 * Reporting (research/daemonset-scheduling.md §9.1–§9.3, §9.5): the first failure in upstream order, everything else
 * that failed, the two verdicts, and the warnings the analysis must raise.
 */

import { CoverageReason, analyzeCoverage, checkPodOnNode, compileNode, compileWorkload, evaluate } from '../../src/coverage';
import { container, daemonSet, node, pod, requiredAffinity, template } from './support';
// The coverage analysis asks the rule catalogue whether the API server accepts a DaemonSet, as the package provides it.
import '../../src/policy/api-validity';

describe('§9.2 evaluation order and everything that failed', () => {
  // GIVEN a node that fails every check: selector, affinity, taint, host port and resources
  const shape = {
    taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }],
    allocatable: { cpu: '100m', memory: '1Gi', pods: '10' },
  };
  const n = node('n1', { labels: { pool: 'general', zone: 'a' }, ...shape });
  const holder = pod(
    'holder',
    'n1',
    { containers: [container('h', { ports: [{ containerPort: 9100, hostPort: 9100 }] })] },
    { namespace: 'monitoring' },
  );
  const greedy = template({
    nodeSelector: { pool: 'gpu' },
    affinity: requiredAffinity({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }),
    containers: [container('agent', { requests: { cpu: '1' }, ports: [{ containerPort: 9100, hostPort: 9100 }] })],
  });

  test('§9.2 the reason is the first failure in the order nodeSelector, nodeAffinity, taint, hostPort, resources', () => {
    const verdict = checkPodOnNode(greedy, n, [holder]);
    expect(verdict.reason).toBe(CoverageReason.NODE_SELECTOR);
    expect(verdict.detail).toBe('needs label pool="gpu"; node has pool="general"');
  });

  test('§9.2 alsoFails lists every other failed check, in order, with its detail', () => {
    const verdict = checkPodOnNode(greedy, n, [holder]);
    expect(verdict.alsoFails).toEqual([
      { reason: CoverageReason.NODE_AFFINITY, detail: 'term 0: zone In [b] fails (node has zone="a")' },
      { reason: CoverageReason.TAINT, detail: 'dedicated=db:NoSchedule' },
      { reason: CoverageReason.HOST_PORT, detail: 'TCP 0.0.0.0:9100 conflicts with 0.0.0.0:9100 of pod monitoring/holder' },
      { reason: CoverageReason.RESOURCES, detail: 'cpu: requested 1, free 100m of 100m allocatable' },
    ]);
    expect(verdict.untoleratedTaint).toBe('dedicated=db:NoSchedule');
    expect(verdict.insufficientResources).toEqual([{ resource: 'cpu', requested: 1000, free: 100, allocatable: 100 }]);
  });

  test('§9.2 fixing the first failure reveals the next one as the reason', () => {
    const relabelled = node('n1', { labels: { pool: 'gpu', zone: 'a' }, ...shape });
    expect(checkPodOnNode(greedy, relabelled, [holder]).reason).toBe(CoverageReason.NODE_AFFINITY);
  });

  test('§9.2 the analysis reports the same first failure as the full evaluation', () => {
    // (the template's labels must match the selector, or the API server rejects the DaemonSet)
    const ds = daemonSet('greedy');
    const report = analyzeCoverage(
      [{ ...ds, spec: { ...ds.spec, template: { ...greedy, metadata: ds.spec.template.metadata } } }],
      [n],
      [holder],
    );
    expect(report.workloads[0].nodes[0]).toEqual({
      node: 'n1',
      runs: false,
      reason: CoverageReason.NODE_SELECTOR,
      detail: 'needs label pool="gpu"; node has pool="general"',
      status: 'excluded',
    });
  });
});

describe('§9.3 two verdicts per node', () => {
  test('§9.3 desired (controller creates a pod) and runs (the pod can be placed) are reported separately', () => {
    const tight = node('n1', { allocatable: { cpu: '100m', memory: '1Gi', pods: '10' } });
    const t = template({ containers: [container('agent', { requests: { cpu: '200m' } })] });
    const w = compileWorkload(t);
    const verdict = evaluate(w, compileNode(tight));
    expect([verdict.desired, verdict.runs]).toEqual([true, false]);
    expect(evaluate(w, compileNode(node('n2')))).toMatchObject({ desired: true, runs: true });
    expect(evaluate(compileWorkload(template({ nodeSelector: { x: 'y' } })), compileNode(tight))).toMatchObject({
      desired: false,
      runs: false,
    });
  });
});

describe('§9.5 warnings the analysis emits', () => {
  const warningsOf = (spec: any) => compileWorkload(daemonSet('agent', spec)).warnings.join('\n');

  test('§9.5 Gt/Lt with a non-integer or a negative value', () => {
    const gt = (v: string) =>
      warningsOf({ affinity: requiredAffinity({ matchExpressions: [{ key: 'gen', operator: 'Gt', values: [v] }] }) });
    expect(gt('five')).toMatch(/"five": Gt needs a base-10 64-bit integer/);
    expect(gt('-1')).toMatch(/"-1" is not a valid label value/);
    expect(gt('5')).toBe('');
  });

  test('§9.5 In/NotIn values that are not valid label values', () => {
    expect(
      warningsOf({ affinity: requiredAffinity({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['eu west'] }] }) }),
    ).toMatch(/"eu west" is not a valid label value/);
  });

  test('§9.5 an empty required selector', () => {
    expect(warningsOf({ affinity: requiredAffinity() })).toMatch(/is empty, so the DaemonSet matches no node/);
  });

  test('§9.5 NoExecute tolerations with tolerationSeconds', () => {
    expect(warningsOf({ tolerations: [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }] })).toMatch(
      /<every key>:NoExecute has tolerationSeconds 30/,
    );
  });

  test('§9.5 nodes carrying not-ready:NoSchedule, and the legacy master taint', () => {
    const notReady = compileNode(node('n1', { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] }));
    expect(notReady.warnings.join('\n')).toMatch(
      /^node n1: taint node.kubernetes.io\/not-ready:NoSchedule: .*no new daemon pod is created there/,
    );
    const master = compileNode(node('m1', { taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] }));
    expect(master.warnings.join('\n')).toMatch(/^node m1: legacy taint node-role.kubernetes.io\/master:NoSchedule/);
    expect(compileNode(node('ok')).warnings).toEqual([]);
  });

  test('§9.5 nodes that look alike share one warning that names them', () => {
    // GIVEN four NotReady nodes of the same shape and one healthy node
    const notReady = (name: string) => node(name, { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] });
    const report = analyzeCoverage([daemonSet('agent')], [notReady('a'), node('ok'), notReady('b'), notReady('c'), notReady('d')]);
    // THEN one warning names the first three and says there are more
    expect(report.warnings).toEqual([expect.stringMatching(/^4 nodes \(a, b, c, …\): taint node.kubernetes.io\/not-ready:NoSchedule: /)]);
  });

  test('§9.5 priorityClassName present: warned only where preemption changes an answer, or could and the class is unknown', () => {
    // GIVEN a full node with one priority-0 pod
    const full = node('n1', { allocatable: { cpu: '100m', memory: '1Gi', pods: '10' } });
    const squatter = pod('squatter', 'n1', { containers: [container('s', { requests: { cpu: '100m' } })] });
    const agent = (priorityClassName: string) =>
      daemonSet('agent', { priorityClassName, containers: [container('agent', { requests: { cpu: '50m' } })] });
    // WHEN nothing is blocked, a priority class is no warning
    expect(analyzeCoverage([agent('system-node-critical')], [node('n2')]).warnings).toEqual([]);
    // WHEN the class is known and preemption places the pod, the warning names the node and the victim
    expect(analyzeCoverage([agent('system-node-critical')], [full], [squatter]).warnings).toEqual([
      'DaemonSet node-services/agent: placed only by preempting lower-priority pods on 1 node (node n1: default/squatter); ' +
        'PodDisruptionBudgets do not stop this preemption',
    ]);
    // WHEN the class is unknown and a pod blocks the node, the warning says preemption was not evaluated
    expect(analyzeCoverage([agent('node-agents')], [full], [squatter]).warnings.join('\n')).toMatch(
      /priorityClassName "node-agents" is not a given PriorityClass, so whether the scheduler would preempt pods to place it is not evaluated/,
    );
  });

  test('§9.5 the analysis collects node and workload warnings, naming their object', () => {
    const report = analyzeCoverage(
      [daemonSet('agent', { tolerations: [{ key: 'x', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }] })],
      [node('n1', { taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] })],
    );
    expect(report.warnings).toHaveLength(2);
    expect(report.warnings[0]).toMatch(/^node n1: legacy taint/);
    expect(report.warnings[1]).toMatch(
      /^DaemonSet node-services\/agent: spec\.template\.spec\.tolerations: x:NoExecute has tolerationSeconds 60/,
    );
  });
});
