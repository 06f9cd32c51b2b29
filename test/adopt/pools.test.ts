import * as fs from 'fs';
import * as path from 'path';
import { importManifests } from '../../src/adopt';
import { coveredNodes, proposePools } from '../../src/adopt/pools';
import { runCli } from '../support/cli';
import { fixtureObjects, RUNTIME } from './support';

const ROOT = path.join(__dirname, '..', '..');
const NODES_FILE = 'test/fixtures/import/nodes-eks.json';
const NODES: unknown[] = JSON.parse(fs.readFileSync(path.join(ROOT, NODES_FILE), 'utf8')).items;
const GPU = path.join(ROOT, 'test/fixtures/import/gpu-exporter.yaml');

/** The GPU exporter with `change` applied to its DaemonSet. */
function gpuExporter(change: (ds: any) => void = () => undefined) {
  return fixtureObjects(GPU).map((o) => {
    const object = structuredClone(o.object);
    change(object);
    return { object, file: o.file };
  });
}

describe('import --nodes: placement as node pools', () => {
  test('GIVEN an EKS node list WHEN pools are proposed THEN one per node group, with the taints all its nodes carry (not the lifecycle ones)', () => {
    expect(proposePools(NODES).map((p) => [p.name, p.labels, p.taints, p.nodes.length])).toEqual([
      ['general', { 'eks.amazonaws.com/nodegroup': 'general' }, [], 3],
      ['gpu', { 'eks.amazonaws.com/nodegroup': 'gpu' }, [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }], 2],
      ['system', { 'eks.amazonaws.com/nodegroup': 'system' }, [{ key: 'CriticalAddonsOnly', value: 'true', effect: 'NoSchedule' }], 1],
    ]);
  });

  test('GIVEN a DaemonSet selecting exactly the GPU node group WHEN imported with --nodes THEN its placement is the gpu pool, and the check proves the same nodes', async () => {
    const result = await importManifests(gpuExporter(), { runtime: RUNTIME, check: true, nodes: NODES });
    const [service] = result.report.services;
    expect(result.report.problems).toEqual([]);
    expect(service.placement).toBe('as pools: gpu (the 2 listed node(s) it runs on)');
    const code = result.files.get('gpu-exporter.ts')!;
    expect(code).toContain('NodePool.of({');
    expect(code).toContain('taints: [Taint.noSchedule("nvidia.com/gpu", "present")]');
    expect(code).not.toContain('"nvidia.com/gpu.present": "true"');
    expect(result.report.unexplained).toBe(0);
    const placement = (service.differences ?? []).filter((d) => d.class === 'placement').map((d) => d.path);
    expect(placement).toContain('spec.template.spec.nodeSelector["nvidia.com/gpu.present"]');
    // Apart from the check: the synthesized DaemonSet runs on the same two nodes.
    const ds = result.synthesized.find((o: any) => o.kind === 'DaemonSet');
    expect(coveredNodes(ds, NODES)).toEqual(coveredNodes(gpuExporter()[0].object, NODES));
    expect(coveredNodes(ds, NODES)).toHaveLength(2);
  }, 60_000);

  test.each<[string, (ds: any) => void, string]>([
    [
      'selects part of a pool',
      (ds) => (ds.spec.template.spec.nodeSelector = { 'example.com/ssd': 'true' }),
      'selectors and tolerations kept: it runs on part of the pool(s) general',
    ],
    [
      'selects every node',
      (ds) => (ds.spec.template.spec.nodeSelector = { 'kubernetes.io/os': 'linux' }),
      'selectors and tolerations kept: it selects every node (of its OS); pools would narrow it to the pools of the node list',
    ],
    [
      'selects every pool by affinity',
      (ds) => {
        delete ds.spec.template.spec.nodeSelector;
        ds.spec.template.spec.tolerations = [{ operator: 'Exists' }];
        const requirement = { key: 'eks.amazonaws.com/compute-type', operator: 'NotIn', values: ['fargate'] };
        ds.spec.template.spec.affinity = {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [requirement] }] } },
        };
      },
      'selectors and tolerations kept: it runs on every pool of the node list; pools would narrow it to the pools there are today',
    ],
    [
      'selects no listed node',
      (ds) => (ds.spec.template.spec.nodeSelector = { 'example.com/none': 'true' }),
      'selectors and tolerations kept: it runs on none of the listed nodes',
    ],
  ])(
    'GIVEN a DaemonSet that %s WHEN imported with --nodes THEN its selectors are kept, with the reason',
    async (_, change, reason) => {
      const result = await importManifests(gpuExporter(change), { runtime: RUNTIME, check: true, nodes: NODES });
      expect(result.report.services[0].placement).toBe(reason);
      expect(result.files.get('gpu-exporter.ts')).not.toContain('NodePool');
      expect(result.report.unexplained).toBe(0);
    },
    60_000,
  );

  test('GIVEN the output of a pool placement checked against other nodes WHEN the pool no longer covers the same nodes THEN the difference is unexplained', async () => {
    const first = await importManifests(gpuExporter(), { runtime: RUNTIME, check: true, nodes: NODES });
    // The same comparison over a node list where a GPU node sits in another node group.
    const moved = structuredClone(NODES) as any[];
    moved[3].metadata.labels['eks.amazonaws.com/nodegroup'] = 'general';
    const { checkImport } = await import('../../src/adopt/check');
    const check = checkImport(
      gpuExporter(),
      first.synthesized.map((object) => ({ object })),
      moved,
    );
    expect(check.daemonSets[0].changes.filter((c) => c.class === 'unexplained').map((c) => c.path)).toContain(
      'spec.template.spec.nodeSelector["nvidia.com/gpu.present"]',
    );
  }, 60_000);

  test('GIVEN --nodes with a file that is not a node list WHEN imported THEN the command refuses (exit 2), never reads it as no nodes', async () => {
    const run = await runCli(['import', GPU, '--out', path.join(ROOT, 'test', '.adopt', 'nodes-bad'), '--nodes', GPU]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/--nodes/);
  }, 60_000);
});
