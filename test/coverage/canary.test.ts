/**
 * The canary split proof (research/daemonset-scheduling.md §9.4): the split DaemonSets must cover every node of the
 * unsplit base exactly once and nothing else.
 */

import { CoverageReason, analyzeCoverage, checkCanarySplit } from '../../src/coverage';
import { container, daemonSet, node, pod, requiredAffinity } from './support';
// The coverage analysis asks the rule catalogue whether the API server accepts a DaemonSet, as the package provides it.
import '../../src/policy/api-validity';

const inPool = (pool: string) => ({ key: 'pool', operator: 'In', values: [pool] });
const CANARY_IN = { key: 'canary', operator: 'In', values: ['true'] };
const CANARY_NOT_IN = { key: 'canary', operator: 'NotIn', values: ['true'] };
const TOLERATIONS = [{ key: 'dedicated', operator: 'Equal', value: 'logging', effect: 'NoSchedule' }];

/** A log agent for pools general OR edge (two terms), tolerating the logging taint; `terms` overrides the terms. */
function agent(
  name: string,
  terms: any[] = [{ matchExpressions: [inPool('general')] }, { matchExpressions: [inPool('edge')] }],
  tolerations = TOLERATIONS,
): any {
  return daemonSet(name, { affinity: requiredAffinity(...terms), tolerations });
}

/** Every term of the base with `extra` ANDed in. */
const andEvery = (extra: any) => [{ matchExpressions: [inPool('general'), extra] }, { matchExpressions: [inPool('edge'), extra] }];

// GIVEN a cluster: general nodes with and without the canary label (and one with canary=false), an edge node,
// a tainted logging node, and a GPU node that the base does not target
const NODES = [
  node('general-1', { labels: { pool: 'general' } }),
  node('general-2', { labels: { pool: 'general', canary: 'true' } }),
  node('general-3', { labels: { pool: 'general', canary: 'false' } }),
  node('edge-1', { labels: { pool: 'edge', canary: 'true' } }),
  node('logging-1', { labels: { pool: 'general' }, taints: [{ key: 'dedicated', value: 'logging', effect: 'NoSchedule' }] }),
  node('gpu-1', { labels: { pool: 'gpu', canary: 'true' } }),
];

describe('§9.4 canary split proof', () => {
  test('§9.4 In [v] / NotIn [v] ANDed into every term: every target covered exactly once, nothing else', () => {
    // WHEN the base is split into a canary (canary In [true]) and a stable half (canary NotIn [true])
    const report = checkCanarySplit(
      agent('logs'),
      [agent('logs-canary', andEvery(CANARY_IN)), agent('logs-stable', andEvery(CANARY_NOT_IN))],
      NODES,
    );
    // THEN the split is exact
    expect(report.exact).toBe(true);
    expect(report.nodes.map((n) => [n.node, n.target, n.covered, n.coveredBy])).toEqual([
      ['general-1', true, 1, [1]],
      ['general-2', true, 1, [0]],
      ['general-3', true, 1, [1]],
      ['edge-1', true, 1, [0]],
      ['logging-1', true, 1, [1]],
      ['gpu-1', false, 0, []],
    ]);
    expect([report.uncovered, report.overlapping, report.extra]).toEqual([[], [], []]);
  });

  test('§9.4 appending the canary requirement as a new term ORs it: overlaps and extra nodes', () => {
    // GIVEN the canary half with canary In [true] as a third term instead of ANDed into the two
    const appended = agent('logs-canary', [
      { matchExpressions: [inPool('general')] },
      { matchExpressions: [inPool('edge')] },
      { matchExpressions: [CANARY_IN] },
    ]);
    const report = checkCanarySplit(agent('logs'), [appended, agent('logs-stable', andEvery(CANARY_NOT_IN))], NODES);
    // THEN general nodes without the label are covered twice and the GPU node (not a target) once
    expect(report.exact).toBe(false);
    expect(report.overlapping).toEqual(['general-1', 'general-3', 'logging-1']);
    expect(report.extra).toEqual(['gpu-1']);
    expect(report.uncovered).toEqual([]);
  });

  test('§9.4 DoesNotExist vs In leaves a gap for other values of the label', () => {
    const report = checkCanarySplit(
      agent('logs'),
      [agent('logs-canary', andEvery(CANARY_IN)), agent('logs-stable', andEvery({ key: 'canary', operator: 'DoesNotExist' }))],
      NODES,
    );
    expect(report.exact).toBe(false);
    expect(report.uncovered).toEqual(['general-3']);
  });

  test('§9.4 Exists vs NotIn overlaps', () => {
    const report = checkCanarySplit(
      agent('logs'),
      [agent('logs-canary', andEvery({ key: 'canary', operator: 'Exists' })), agent('logs-stable', andEvery(CANARY_NOT_IN))],
      NODES,
    );
    expect(report.exact).toBe(false);
    expect(report.overlapping).toEqual(['general-3']);
  });

  test('§9.4 every other field must be identical: a half without the toleration leaves the tainted target uncovered', () => {
    const report = checkCanarySplit(
      agent('logs'),
      [agent('logs-canary', andEvery(CANARY_IN)), agent('logs-stable', andEvery(CANARY_NOT_IN), [])],
      NODES,
    );
    expect(report.exact).toBe(false);
    expect(report.uncovered).toEqual(['logging-1']);
    expect(report.nodes.find((n) => n.node === 'logging-1')).toMatchObject({ target: true, covered: 0 });
  });

  test('§9.4 only controller verdicts count: a target node too small for the pod is still covered', () => {
    const tiny = node('tiny', { labels: { pool: 'general' }, allocatable: { cpu: '1m', memory: '1Mi', pods: '1' } });
    const report = checkCanarySplit(
      agent('logs'),
      [agent('logs-canary', andEvery(CANARY_IN)), agent('logs-stable', andEvery(CANARY_NOT_IN))],
      [tiny],
    );
    expect(report.exact).toBe(true);
  });

  test('§9.4 with the same hostPort in both halves, an overlap also shows up as a hostPort Pending', () => {
    // GIVEN overlapping halves (Exists vs NotIn) that both bind host port 2020, and the stable pod already running
    // on general-3, the node both halves select
    const withPort = (ds: any) => {
      ds.spec.template.spec.containers = [container('fluent-bit', { ports: [{ containerPort: 2020, hostPort: 2020 }] })];
      return ds;
    };
    const canary = withPort(agent('logs-canary', andEvery({ key: 'canary', operator: 'Exists' })));
    const stable = withPort(agent('logs-stable', andEvery(CANARY_NOT_IN)));
    const stablePod = pod(
      'logs-stable-x7k2p',
      'general-3',
      { containers: [container('fluent-bit', { ports: [{ containerPort: 2020, hostPort: 2020 }] })] },
      {
        namespace: 'node-services',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'logs-stable', uid: 'u1', controller: true }],
      },
    );
    // WHEN analysed with the running pods
    const report = analyzeCoverage([canary, stable], NODES, [stablePod]);
    // THEN the canary pod is Pending on general-3 for the port, while the stable pod (its own) is not blocked
    const canaryRow = report.workloads[0].nodes.find((n) => n.node === 'general-3');
    const stableRow = report.workloads[1].nodes.find((n) => n.node === 'general-3');
    expect(canaryRow).toMatchObject({ runs: false, reason: CoverageReason.HOST_PORT });
    expect(canaryRow?.detail).toContain('pod node-services/logs-stable-x7k2p');
    expect(stableRow).toMatchObject({ runs: true, reason: CoverageReason.OK });
  });
});
