/**
 * The coverage writers decide once per node group (the nodes the analysis evaluated as one) and then walk the nodes.
 * Property: on nodes that differ in one label, taint, condition, allocatable amount, OS or pod, the text, JSON and
 * JSON lines reports written from the analysis' node groups are the reports written one node at a time (from a copy
 * of the report, which has no groups), and every group's rows are alike but for the node name.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { formatCoverage } from '../../src/report/coverage-report';
import { CoverageReport, analyzeCoverage } from '../../src/coverage';
import { nodeLayout } from '../../src/coverage/analyze';
import { container, daemonSet, node, pod } from '../coverage/support';
import { runCli } from '../support/cli';

/** The report without its node groups: a structural copy, which the writers see as one group per node. */
function copyOf(report: CoverageReport): CoverageReport {
  return { ...report, workloads: report.workloads.map((w) => ({ ...w, nodes: w.nodes.map((n) => ({ ...n })) })) };
}

/** The values an arbitrary generates. */
type Arb<A> = A extends fc.Arbitrary<infer T> ? T : never;

const arbNode = fc.record({
  zone: fc.constantFrom('a', 'b', undefined),
  pool: fc.constantFrom('general', 'gpu', undefined),
  os: fc.constantFrom('linux', 'linux', 'windows'),
  taints: fc.subarray([
    { key: 'dedicated', value: 'db', effect: 'NoSchedule' },
    { key: 'nvidia.com/gpu', value: 'present', effect: 'NoExecute' },
    { key: 'spot', value: 'true', effect: 'PreferNoSchedule' },
  ]),
  ready: fc.constantFrom('True', 'True', 'True', 'False', 'Unknown'),
  diskPressure: fc.boolean(),
  cpu: fc.constantFrom('500m', '1', '4'),
  memory: fc.constantFrom('256Mi', '1Gi'),
  pods: fc.constantFrom('1', '110'),
});

const arbWorkload = fc.record({
  zone: fc.constantFrom(undefined, 'a', 'b'),
  affinityPool: fc.constantFrom(undefined, ['gpu'], ['general', 'gpu']),
  tolerateAll: fc.boolean(),
  cpu: fc.constantFrom('0', '100m', '600m'),
  port: fc.constantFrom(undefined, 9100),
  critical: fc.boolean(),
  app: fc.constantFrom(undefined, 'agent'),
});

const arbPod = fc.record({
  node: fc.nat(29),
  cpu: fc.constantFrom('100m', '400m'),
  port: fc.constantFrom(undefined, 9100),
  own: fc.boolean(),
});

function build(
  nodeSpecs: Array<Arb<typeof arbNode>>,
  workloadSpecs: Array<Arb<typeof arbWorkload>>,
  podSpecs: Array<Arb<typeof arbPod>>,
): { nodes: any[]; workloads: any[]; pods: any[] } {
  const nodes = nodeSpecs.map((s, i) => {
    const labels: Record<string, string> = { 'kubernetes.io/os': s.os, 'eks.amazonaws.com/nodegroup': s.pool ?? 'none' };
    if (s.zone !== undefined) labels.zone = s.zone;
    if (s.pool !== undefined) labels.pool = s.pool;
    const conditions = [{ type: 'Ready', status: s.ready }, ...(s.diskPressure ? [{ type: 'DiskPressure', status: 'True' }] : [])];
    return node(`n${i}`, { labels, taints: s.taints, conditions, allocatable: { cpu: s.cpu, memory: s.memory, pods: s.pods } });
  });
  const workloads = workloadSpecs.map((s, i) => {
    const ds = daemonSet(`w${i}`, {
      ...(s.zone ? { nodeSelector: { zone: s.zone } } : {}),
      ...(s.affinityPool
        ? {
            affinity: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: s.affinityPool }] }],
                },
              },
            },
          }
        : {}),
      ...(s.tolerateAll ? { tolerations: [{ operator: 'Exists' }] } : {}),
      ...(s.critical ? { priorityClassName: 'system-node-critical' } : {}),
      containers: [container('c', { requests: { cpu: s.cpu }, ports: s.port ? [{ containerPort: s.port, hostPort: s.port }] : undefined })],
    });
    if (s.app !== undefined) ds.spec.template.metadata.labels['app.kubernetes.io/name'] = s.app;
    return ds;
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
    ),
  );
  return { nodes, workloads, pods };
}

describe('coverage reports written per node group (property)', () => {
  test('equal the reports written node by node, in text (plain and coloured), JSON and JSON lines', () => {
    fc.assert(
      fc.property(
        // Up to 30 nodes from small domains: many alike nodes, so that groups and folded excluded rows occur.
        fc.array(arbNode, { minLength: 1, maxLength: 30 }),
        fc.array(arbWorkload, { minLength: 1, maxLength: 4 }),
        fc.array(arbPod, { maxLength: 4 }),
        (nodeSpecs, workloadSpecs, podSpecs) => {
          const { nodes, workloads, pods } = build(nodeSpecs, workloadSpecs, podSpecs);
          const report = analyzeCoverage(workloads, nodes, pods);
          const copy = copyOf(report);
          for (const format of ['text', 'json', 'jsonl'] as const) {
            expect(formatCoverage(report, workloads, nodes, format)).toBe(formatCoverage(copy, workloads, nodes, format));
          }
          expect(formatCoverage(report, workloads, nodes, 'text', true)).toBe(formatCoverage(copy, workloads, nodes, 'text', true));
        },
      ),
      { numRuns: 300, seed: 20261201 },
    );
  });

  test("every group's rows say the same for every DaemonSet, but for the node name", () => {
    fc.assert(
      fc.property(
        fc.array(arbNode, { minLength: 1, maxLength: 30 }),
        fc.array(arbWorkload, { minLength: 1, maxLength: 4 }),
        fc.array(arbPod, { maxLength: 4 }),
        (nodeSpecs, workloadSpecs, podSpecs) => {
          const { nodes, workloads, pods } = build(nodeSpecs, workloadSpecs, podSpecs);
          const report = analyzeCoverage(workloads, nodes, pods);
          const { groupOf, first, size, members, start } = nodeLayout(report);
          // the groups partition the nodes, numbered in the order of their first node
          expect(groupOf.length).toBe(nodes.length);
          expect(size.reduce((a, b) => a + b, 0)).toBe(nodes.length);
          first.forEach((f, g) => {
            expect(groupOf[f]).toBe(g);
            if (g > 0) expect(f).toBeGreaterThan(first[g - 1]);
          });
          groupOf.forEach((g, i) => expect(i).toBeGreaterThanOrEqual(first[g]));
          // each group's members are its nodes, ascending
          first.forEach((f, g) => {
            const own = [...members.subarray(start[g], start[g + 1])];
            expect(own).toEqual([...groupOf.keys()].filter((i) => groupOf[i] === g));
            expect(own[0]).toBe(f);
          });
          for (const w of report.workloads) {
            if (w.status === 'invalid') continue;
            w.nodes.forEach((n, i) => expect({ ...n, node: '' }).toEqual({ ...w.nodes[first[groupOf[i]]], node: '' }));
          }
        },
      ),
      { numRuns: 300, seed: 20261202 },
    );
  });

  test('a report made otherwise has one group per node', () => {
    const nodes = [node('a'), node('b'), node('c')];
    const layout = nodeLayout(copyOf(analyzeCoverage([daemonSet('w')], nodes)));
    expect([...layout.groupOf]).toEqual([0, 1, 2]);
    expect([...layout.first]).toEqual([0, 1, 2]);
    expect([...layout.size]).toEqual([1, 1, 1]);
    expect([...layout.members]).toEqual([0, 1, 2]);
    expect([...layout.start]).toEqual([0, 1, 2, 3]);
    // while the analysis puts the three alike nodes in one group
    const grouped = nodeLayout(analyzeCoverage([daemonSet('w')], nodes));
    expect([...grouped.groupOf]).toEqual([0, 0, 0]);
    expect([...grouped.size]).toEqual([3]);
  });

  test('more than ten alike excluded nodes in several groups fold into one row at the first of them', () => {
    // GIVEN 24 nodes in two groups (zone a / zone b, by an unrelated label the affinity reads) that a nodeSelector excludes
    const nodes = Array.from({ length: 24 }, (_, i) => node(`n${i}`, { labels: { pool: 'general', zone: i % 2 ? 'a' : 'b' } }));
    const ds = daemonSet('w', {
      nodeSelector: { pool: 'gpu' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }],
          },
        },
      },
    });
    const report = analyzeCoverage([ds], nodes);
    expect(nodeLayout(report).first.length).toBe(2);
    // WHEN written as text
    const text = formatCoverage(report, [ds], nodes, 'text');
    // THEN one row for the 24 nodes, at n0, as node by node
    expect(text).toContain('n0 (+23 more)  excluded  nodeSelector');
    expect(text.split('\n').filter((l) => l.includes('excluded  nodeSelector'))).toHaveLength(1);
    expect(text).toBe(formatCoverage(copyOf(report), [ds], nodes, 'text'));
  });
});

describe('coverage --nodes errors in a large kubectl-style file name the line where the object starts', () => {
  // GIVEN a pretty-printed List (read by the learnt layout, without counting lines) with a bad item far into it
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-lines-'));
  const manifests = path.join(dir, 'ds.yaml');
  fs.writeFileSync(
    manifests,
    'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: w}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: x}]\n',
  );
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const items = Array.from({ length: 60 }, (_, i) => node(`n${i}`, { labels: { pool: i % 2 ? 'a' : 'b' } }));
  const write = (name: string, list: any[], edit: (text: string) => string = (t) => t): { file: string; text: string } => {
    const text = edit(JSON.stringify({ apiVersion: 'v1', items: list, kind: 'List', metadata: { resourceVersion: '' } }, null, 4));
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return { file, text };
  };
  /** The 1-based line of the first line of `text` that contains `needle`, walking back to the `{` opening its item. */
  const itemLine = (text: string, needle: string): number => {
    const lines = text.split('\n');
    let at = lines.findIndex((l) => l.includes(needle));
    while (lines[at].trim() !== '{') at--;
    return at + 1;
  };

  test.each([
    ['a Pod among the nodes', (list: any[]) => list.map((n, i) => (i === 47 ? { ...n, kind: 'Pod' } : n)), 'expects Node objects'],
    [
      'a node without a name',
      (list: any[]) => list.map((n, i) => (i === 47 ? { ...n, metadata: { labels: { x: 'y' } } } : n)),
      'has no metadata.name',
    ],
  ])('%s', async (_what, change, message) => {
    const { file, text } = write(`${message.length}.json`, change(items));
    const run = await runCli(['coverage', '--nodes', file, manifests]);
    expect(run.code).toBe(2);
    const line = itemLine(text, _what === 'a Pod among the nodes' ? '"kind": "Pod"' : '"x": "y"');
    expect(run.err).toContain(`${file}:${line}: `);
    expect(run.err).toContain(message);
  });

  test('invalid JSON in a late item', async () => {
    const { file, text } = write('bad.json', items, (t) => t.replace('"name": "n51"', '"name": n51'));
    const run = await runCli(['coverage', '--nodes', file, manifests]);
    expect(run.code).toBe(2);
    const lines = text.split('\n');
    expect(run.err).toContain(`${file}:${lines.findIndex((l) => l.includes('"name": n51')) + 1}: invalid JSON`);
  });
});
