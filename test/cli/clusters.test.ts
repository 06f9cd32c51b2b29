/**
 * `node-services coverage --clusters` and `diff --clusters`: a folder per cluster (as a Fleet synthesizes them, with
 * the GitOps objects beside), the nodes of each cluster in a folder of files named after the clusters.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Run, runCli } from '../support/cli';
import { readmeBlock } from '../day2/shape';

const FLEET = path.join(__dirname, '..', 'fixtures', 'fleet');
const CLUSTERS = path.join(FLEET, 'dist', 'clusters');
const NODES = path.join(FLEET, 'nodes');
const INCOMPLETE = path.join(FLEET, 'nodes-incomplete');

function coverage(args: string[]): Promise<Run> {
  return runCli(['coverage', ...args]);
}

/** The report of one cluster alone, from the single-cluster command (the reference a fleet report is checked against). */
async function single(cluster: string, nodesFile: string, extra: string[] = []): Promise<Run> {
  return coverage(['--nodes', path.join(NODES, nodesFile), ...extra, path.join(CLUSTERS, cluster)]);
}

/** A scratch copy of the fixture fleet that a test may change. */
function scratchFleet(): { dir: string; clusters: string; nodes: string; done: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-cli-'));
  fs.cpSync(path.join(FLEET, 'dist'), path.join(dir, 'dist'), { recursive: true });
  fs.cpSync(NODES, path.join(dir, 'nodes'), { recursive: true });
  return {
    dir,
    clusters: path.join(dir, 'dist', 'clusters'),
    nodes: path.join(dir, 'nodes'),
    done: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

describe('node-services coverage --clusters', () => {
  const files: Record<string, string> = { edge: 'edge.yaml', gpu: 'gpu.json', prod: 'prod.json' };

  test('--output json wraps each cluster’s report, in folder order, as {clusters: [{name, ...report}]}', async () => {
    const run = await coverage(['--clusters', CLUSTERS, '--nodes', NODES, '--output', 'json', '--budget', 'cpu=8%']);
    expect(run.code).toBe(0);
    const fleet = JSON.parse(run.out);
    expect(Object.keys(fleet)).toEqual(['clusters']);
    expect(fleet.clusters.map((c: any) => c.name)).toEqual(['edge', 'gpu', 'prod']);
    // each entry is the single-cluster report of that cluster, with its name first
    for (const c of fleet.clusters) {
      const alone = JSON.parse((await single(c.name, files[c.name], ['--output', 'json', '--budget', 'cpu=8%'])).out);
      expect(c).toEqual({ name: c.name, ...alone });
      expect(Object.keys(c)).toEqual(['name', 'nodes', 'workloads', 'pools']);
    }
    // the clusters differ in pools and services: a GPU pool only in gpu, falco pending on the small edge nodes
    expect(fleet.clusters[1].pools.map((p: any) => p.pool)).toEqual(['general', 'gpu']);
    const falco = fleet.clusters[0].workloads.find((w: any) => w.name === 'falco');
    expect([falco.desired, falco.schedulable]).toEqual([2, 0]);
    expect(falco.nodes.map((n: any) => n.status)).toEqual(['pending', 'pending']);
  });

  test('text: a heading per cluster, then that cluster’s report as the single-cluster command prints it, then a fleet line', async () => {
    const run = await coverage(['--clusters', CLUSTERS, '--nodes', NODES]);
    expect(run.code).toBe(0);
    const parts = run.out.split(/^Cluster (\S+) \(.*\)\n\n/m);
    expect(parts[0]).toBe('');
    expect([parts[1], parts[3], parts[5]]).toEqual(['edge', 'gpu', 'prod']);
    for (const k of [1, 3, 5]) {
      // the single report ends with the statuses' legend, which the fleet report prints once, at its end
      const alone = (await single(parts[k], files[parts[k]])).out;
      const legend = alone.indexOf(' "excluded": ');
      expect(legend).toBeGreaterThan(0);
      expect(parts[k + 1].startsWith(`${alone.slice(0, legend)}\n`)).toBe(true);
    }
    expect(run.out).toMatch(/^Cluster edge \(.*dist\/clusters\/edge, nodes .*nodes\/edge\.yaml\)$/m);
    expect(run.out).toContain(
      '\n3 clusters (edge, gpu, prod); missing or invalid DaemonSets in: edge; node tax over allocatable or budget in: edge. "excluded": ',
    );
    expect(run.out.match(/"excluded": the DaemonSet controller/g)).toHaveLength(1);
  });

  test('the exit code is the worst of the clusters; --fail-on-missing and --fail-on-budget apply per cluster', async () => {
    expect((await coverage(['--clusters', CLUSTERS, '--nodes', NODES, '--fail-on-missing'])).code).toBe(1);
    expect((await coverage(['--clusters', CLUSTERS, '--nodes', NODES, '--fail-on-budget'])).code).toBe(1);
    // without the edge cluster (the one that misses nodes and is over allocatable) both pass
    const fleet = scratchFleet();
    try {
      fs.rmSync(path.join(fleet.clusters, 'edge'), { recursive: true });
      fs.rmSync(path.join(fleet.nodes, 'edge.yaml'));
      expect((await coverage(['--clusters', fleet.clusters, '--nodes', fleet.nodes, '--fail-on-missing', '--fail-on-budget'])).code).toBe(
        0,
      );
      // a budget only the prod cluster's system pool exceeds (150m of 2 CPU is 7.5 %) fails the run
      const run = await coverage([
        '--clusters',
        fleet.clusters,
        '--nodes',
        fleet.nodes,
        '--budget',
        'cpu=5%',
        '--fail-on-budget',
        '--output',
        'json',
      ]);
      expect(run.code).toBe(1);
      const over = JSON.parse(run.out).clusters.flatMap((c: any) =>
        c.pools.filter((p: any) => p.overBudget.length > 0).map((p: any) => `${c.name}/${p.pool}`),
      );
      expect(over).toEqual(['prod/system']);
    } finally {
      fleet.done();
    }
  });

  test('each cluster is analysed with the Kubernetes version its folder records; --kubernetes-version overrides it', async () => {
    const f = scratchFleet();
    try {
      // GIVEN the gpu cluster's folder records 1.29 (as Fleet.synth() writes it)
      fs.writeFileSync(path.join(f.clusters, 'gpu', 'kubernetes-version'), '1.29\n');
      const run = await coverage(['--clusters', f.clusters, '--nodes', f.nodes, '--output', 'json']);
      const fleet = JSON.parse(run.out);
      // THEN its report is the single-cluster report at 1.29, the others' at the default
      for (const c of fleet.clusters) {
        const extra = c.name === 'gpu' ? ['--kubernetes-version', '1.29'] : [];
        const alone = JSON.parse(
          (await coverage(['--nodes', path.join(f.nodes, files[c.name]), '--output', 'json', ...extra, path.join(f.clusters, c.name)])).out,
        );
        expect(c).toEqual({ name: c.name, ...alone });
      }
      const text = await coverage(['--clusters', f.clusters, '--nodes', f.nodes]);
      expect(text.out).toMatch(/^Cluster gpu \(.*, Kubernetes 1\.29 \(kubernetes-version\)\)$/m);
      expect(text.out).toMatch(/^Cluster edge \(.*nodes .*edge\.yaml\)$/m);
      const forced = await coverage(['--clusters', f.clusters, '--nodes', f.nodes, '--kubernetes-version', '1.28']);
      expect(forced.out).toMatch(/^Cluster gpu \(.*, Kubernetes 1\.28\)$/m);
      // AND a version file that is not a version is an error naming it (exit 2), with the other layout problems
      fs.writeFileSync(path.join(f.clusters, 'edge', 'kubernetes-version'), 'one-thirty\n');
      const bad = await coverage(['--clusters', f.clusters, '--nodes', f.nodes]);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain(
        `${path.join(f.clusters, 'edge', 'kubernetes-version')}: "one-thirty" is not a supported Kubernetes version (one of 1.28, `,
      );
    } finally {
      f.done();
    }
  });

  test('--output jsonl: every line names its cluster; --pods is read per cluster', async () => {
    const run = await coverage(['--clusters', CLUSTERS, '--nodes', NODES, '--output', 'jsonl']);
    expect(run.code).toBe(0);
    const lines = run.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.every((l) => ['edge', 'gpu', 'prod'].includes(l.cluster) && Object.keys(l)[0] === 'cluster')).toBe(true);
    expect(lines.filter((l) => l.type === 'summary')).toEqual([
      { cluster: 'edge', type: 'summary', nodes: 2, workloads: 3 },
      { cluster: 'gpu', type: 'summary', nodes: 3, workloads: 3 },
      { cluster: 'prod', type: 'summary', nodes: 3, workloads: 2 },
    ]);
    const alone = (await single('edge', 'edge.yaml', ['--output', 'jsonl'])).out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.cluster === 'edge').map((l) => ({ ...l, cluster: undefined }))).toEqual(
      alone.map((l) => ({ ...l, cluster: undefined })),
    );
    // pods: a pod using the edge nodes' memory, given for every cluster (an empty list for the others)
    const fleet = scratchFleet();
    try {
      const pods = path.join(fleet.dir, 'pods');
      fs.mkdirSync(pods);
      const hog = (node: string) => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `cache-${node}`, namespace: 'apps' },
        spec: { nodeName: node, containers: [{ name: 'c', image: 'c', resources: { requests: { memory: '1950Mi' } } }] },
        status: { phase: 'Running' },
      });
      fs.writeFileSync(path.join(pods, 'edge.json'), JSON.stringify({ kind: 'List', items: [hog('edge-1')] }));
      fs.writeFileSync(path.join(pods, 'gpu.yaml'), 'kind: List\nitems: []\n');
      fs.writeFileSync(path.join(pods, 'prod.json'), '{"kind":"List","items":[]}');
      const withPods = JSON.parse(
        (await coverage(['--clusters', fleet.clusters, '--nodes', fleet.nodes, '--pods', pods, '--output', 'json'])).out,
      );
      const fluent = withPods.clusters[0].workloads.find((w: any) => w.name === 'fluent-bit');
      expect(fluent.nodes.map((n: any) => [n.node, n.status, n.reason])).toEqual([
        ['edge-1', 'pending', 'resources'],
        ['edge-2', 'running', 'ok'],
      ]);
    } finally {
      fleet.done();
    }
  });

  test('--output html: one page, a section per cluster, anchors unique per cluster', async () => {
    const run = await coverage(['--clusters', CLUSTERS, '--nodes', NODES, '--output', 'html']);
    expect(run.code).toBe(0);
    const html = run.out;
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.match(/<html/g)).toHaveLength(1);
    expect([...html.matchAll(/<section class="cluster" id="cluster-(\d)" data-cluster="([^"]+)">/g)].map((m) => [m[1], m[2]])).toEqual([
      ['0', 'edge'],
      ['1', 'gpu'],
      ['2', 'prod'],
    ]);
    expect(html).toContain('<h1>Cluster gpu</h1>');
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    // every in-page link points at an anchor of the page
    const links = [...html.matchAll(/ href="#([^"]+)"/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(10);
    for (const l of links) expect(ids).toContain(l);
    // the cluster's part is its single-cluster body with the cluster's prefix on its anchors
    const alone = (await single('gpu', 'gpu.json', ['--output', 'html'])).out;
    const body = alone.slice(alone.indexOf('<header>'), alone.lastIndexOf('</footer>'));
    const prefixed = body
      .replace(/ id="/g, ' id="cluster-1-')
      .replace(/ href="#/g, ' href="#cluster-1-')
      .replace('<h1>Node-service coverage</h1>', '<h1>Cluster gpu</h1>');
    expect(html).toContain(prefixed);
  });

  test('a cluster without a nodes file and a nodes file without a cluster: one error listing both (exit 2)', async () => {
    const run = await coverage(['--clusters', CLUSTERS, '--nodes', INCOMPLETE]);
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(run.err).toBe(
      'node-services: 2 problems with the per-cluster inputs:\n' +
        `  - --nodes ${INCOMPLETE}: no file for cluster "edge" (expected edge.json, or .yaml / .yml)\n` +
        `  - --nodes ${INCOMPLETE}: a file without a cluster folder: "staging.json" (clusters: "edge", "gpu", "prod")\n`,
    );
  });

  test('flag validation: manifests and --clusters together, stdin, missing, empty and mis-aimed folders, two files for one cluster', async () => {
    const fleet = scratchFleet();
    try {
      const err = async (args: string[]) => {
        const run = await coverage(args);
        expect(run.code).toBe(2);
        expect(run.out).toBe('');
        return run.err;
      };
      expect(await err(['--clusters', CLUSTERS, '--nodes', NODES, path.join(CLUSTERS, 'gpu')])).toMatch(
        /^node-services: give the manifests either as arguments \(.*gpu\) or as --clusters .*, not both/,
      );
      expect(await err(['--clusters', CLUSTERS, '--nodes', '-'])).toBe(
        'node-services: --nodes -: with --clusters, --nodes is a folder with one file per cluster, not standard input\n',
      );
      expect(await err(['--clusters', path.join(fleet.dir, 'nope'), '--nodes', NODES])).toBe(
        `node-services: --clusters ${path.join(fleet.dir, 'nope')}: no such folder\n`,
      );
      expect(await err(['--clusters', CLUSTERS, '--nodes', path.join(NODES, 'gpu.json')])).toMatch(
        /--nodes .*gpu\.json: a file, but with --clusters --nodes is a folder with one file per cluster/,
      );
      expect(await err(['--clusters', path.join(fleet.dir, 'dist'), '--nodes', NODES])).toBe(
        `node-services: --clusters ${path.join(fleet.dir, 'dist')}: it holds a clusters/ folder; give that one, ${fleet.clusters} (the folder of the cluster folders)\n`,
      );
      const empty = path.join(fleet.dir, 'empty');
      fs.mkdirSync(empty);
      expect(await err(['--clusters', empty, '--nodes', NODES])).toMatch(
        /--clusters .*empty: no cluster folders in it; expected one folder per cluster/,
      );
      // an empty cluster folder, a stray manifest beside the cluster folders, two nodes files for one cluster
      fs.rmSync(path.join(fleet.clusters, 'prod', '0000-node-agents.k8s.yaml'));
      fs.writeFileSync(path.join(fleet.clusters, 'stray.k8s.yaml'), 'kind: ConfigMap\n');
      fs.copyFileSync(path.join(NODES, 'gpu.json'), path.join(fleet.nodes, 'gpu.yaml'));
      const all = await err(['--clusters', fleet.clusters, '--nodes', fleet.nodes]);
      expect(all.split('\n')).toEqual([
        'node-services: 3 problems with the per-cluster inputs:',
        `  - --clusters ${fleet.clusters}: manifest files outside a cluster folder: "stray.k8s.yaml"; each cluster's manifests go in <cluster-name>/`,
        `  - --clusters ${fleet.clusters}: cluster folder without manifests (*.yaml, *.yml, *.json): "prod"`,
        `  - --nodes ${fleet.nodes}: more than one file for cluster "gpu": "gpu.json", "gpu.yaml"; keep one`,
        '',
      ]);
    } finally {
      fleet.done();
    }
  });
});

describe('node-services diff --clusters', () => {
  const OLD = path.join(FLEET, 'old', 'clusters');

  function diff(args: string[]): Promise<Run> {
    return runCli(['diff', '--clusters', ...args]);
  }

  test('clusters are paired by folder name; each is the single diff of its two folders; added and removed clusters are said', async () => {
    const run = await diff([OLD, CLUSTERS, '--nodes', NODES, '-f', 'json']);
    expect(run.code).toBe(0);
    const { clusters } = JSON.parse(run.out);
    expect(clusters.map((c: any) => [c.name, c.status])).toEqual([
      ['edge', 'kept'],
      ['gpu', 'kept'],
      ['prod', 'added'],
      ['staging', 'removed'],
    ]);
    // a kept cluster's entry is exactly what diff of its two folders (and its nodes) says
    const gpu = JSON.parse(
      (await runCli(['diff', path.join(OLD, 'gpu'), path.join(CLUSTERS, 'gpu'), '--nodes', path.join(NODES, 'gpu.json'), '-f', 'json']))
        .out,
    );
    expect(clusters[1]).toEqual({ name: 'gpu', status: 'kept', ...gpu });
    expect(gpu.daemonSets.map((d: any) => [d.name, d.change, d.nodes.restart.flatMap((p: any) => p.nodes)])).toEqual([
      ['dcgm-exporter', 'rollout', ['gpu-a100-1', 'gpu-a100-2']],
    ]);
    // an added cluster's DaemonSets are added (and start on its nodes), a removed one's removed (no nodes file needed)
    expect(clusters[2].daemonSets.map((d: any) => [d.name, d.change])).toEqual([
      ['fluent-bit', 'added'],
      ['node-exporter', 'added'],
    ]);
    expect(clusters[2].daemonSets[0].nodes.start.flatMap((p: any) => p.nodes)).toEqual([
      'prod-general-1',
      'prod-general-2',
      'prod-system-1',
    ]);
    expect(clusters[3].daemonSets.map((d: any) => [d.name, d.change])).toEqual([
      ['fluent-bit', 'removed'],
      ['node-exporter', 'removed'],
    ]);
    expect([clusters[0].daemonSets, clusters[0].unchanged]).toEqual([[], 3]);
  });

  test('text and markdown: a heading per cluster over the single diff’s report, and a line of added and removed clusters', async () => {
    const text = await diff([OLD, CLUSTERS]);
    expect(text.code).toBe(0);
    const gpu = await runCli(['diff', path.join(OLD, 'gpu'), path.join(CLUSTERS, 'gpu')]);
    expect(text.out).toContain(`Cluster gpu: in both versions\n\n${gpu.out}\n`);
    expect(text.out).toContain('Cluster staging: removed (only in the old version)\n\n');
    expect(text.out.endsWith('\nClusters: 1 added (prod), 1 removed (staging), 2 in both versions (edge, gpu).\n')).toBe(true);
    const md = await diff([OLD, CLUSTERS, '-f', 'markdown']);
    expect(
      md.out.startsWith(
        '## node-services diff of 4 clusters\n\nClusters: 1 added (prod), 1 removed (staging), 2 in both versions (edge, gpu).\n\n### Cluster `edge`: in both versions\n\nNo DaemonSet changes (3 DaemonSets unchanged).\n\n### Cluster `gpu`',
      ),
    ).toBe(true);
    expect(md.out).toContain('#### `gpu-monitoring/dcgm-exporter`: pod template changed: rollout');
    expect(md.out).not.toMatch(/\n\n\n/);
  });

  test('sarif: one run with every cluster’s results, each message naming its cluster; --fail-on applies to any cluster', async () => {
    const run = await diff([OLD, CLUSTERS, '-f', 'sarif', '--fail-on', 'rollout']);
    expect(run.code).toBe(1);
    const log = JSON.parse(run.out);
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0].results.map((r: any) => [r.ruleId, r.message.text, r.locations[0].physicalLocation.artifactLocation.uri])).toEqual([
      [
        'daemonset-rollout',
        'cluster gpu: DaemonSet gpu-monitoring/dcgm-exporter: pod template changed: rollout',
        expect.stringMatching(/dist\/clusters\/gpu\/0000-node-agents\.k8s\.yaml$/),
      ],
    ]);
    expect((await diff([OLD, CLUSTERS, '--fail-on', 'removed'])).code).toBe(1);
    expect((await diff([OLD, CLUSTERS, '--fail-on', 'widening,selector'])).code).toBe(0);
  });

  test('flag validation: stdin, a nodes file missing for a cluster of the new version, a missing folder', async () => {
    const stdin = await diff(['-', CLUSTERS]);
    expect([stdin.code, stdin.err]).toEqual([
      2,
      'node-services: <old> -: with --clusters, <old> is a folder of cluster folders (or files per cluster), not standard input\n',
    ]);
    const missing = await diff([OLD, CLUSTERS, '--nodes', INCOMPLETE]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`--nodes ${INCOMPLETE}: no file for cluster "edge" (expected edge.json, or .yaml / .yml)`);
    // staging.json has a cluster here (the removed one), so it is not an orphan
    expect(missing.err).not.toContain('staging');
    const nope = await diff([path.join(FLEET, 'nope'), CLUSTERS]);
    expect([nope.code, nope.err]).toEqual([2, `node-services: <old> ${path.join(FLEET, 'nope')}: no such folder\n`]);
  });
});

describe('node-services plan --clusters', () => {
  const OLD = path.join(FLEET, 'old', 'clusters');

  test('each cluster of <new> is planned with its nodes and the same cluster of --old; a cluster new in the fleet rolls out whole', async () => {
    const run = await runCli(['plan', '--clusters', CLUSTERS, '--old', OLD, '--nodes', NODES, '-f', 'json']);
    expect(run.code).toBe(0);
    const { clusters } = JSON.parse(run.out);
    expect(clusters.map((c: any) => c.name)).toEqual(['edge', 'gpu', 'prod']);
    const gpu = JSON.parse(
      (
        await runCli([
          'plan',
          path.join(CLUSTERS, 'gpu'),
          '--old',
          path.join(OLD, 'gpu'),
          '--nodes',
          path.join(NODES, 'gpu.json'),
          '-f',
          'json',
        ])
      ).out,
    );
    expect(clusters[1]).toEqual({ name: 'gpu', ...gpu });
    const outcome = (c: any) => c.daemonSets.map((d: any) => [d.name, d.outcome]);
    expect(outcome(clusters[0])).toEqual([
      ['fluent-bit', 'unchanged'],
      ['node-exporter', 'unchanged'],
      ['falco', 'unchanged'],
    ]);
    expect(outcome(clusters[1])).toContainEqual(['dcgm-exporter', 'complete']);
    expect(outcome(clusters[2])).toEqual([
      ['fluent-bit', 'complete'],
      ['node-exporter', 'complete'],
    ]);
    const text = await runCli(['plan', '--clusters', CLUSTERS, '--old', OLD, '--nodes', NODES]);
    expect(text.out).toMatch(/^Cluster edge\n\n/);
    expect(text.out).toContain('\nCluster prod (new in the fleet)\n\n');
  });

  test('html (one cluster per page) and a missing nodes file are refused together, exit 2', async () => {
    const run = await runCli(['plan', '--clusters', CLUSTERS, '--old', OLD, '--nodes', INCOMPLETE, '-f', 'html']);
    expect(run.code).toBe(2);
    expect(run.err.split('\n').slice(0, 3)).toEqual([
      'node-services: 3 problems with the per-cluster inputs:',
      '  - --format html shows one cluster per page; with --clusters use text or json (or plan each cluster folder on its own)',
      `  - --nodes ${INCOMPLETE}: no file for cluster "edge" (expected edge.json, or .yaml / .yml)`,
    ]);
  });
});

describe('README examples of --clusters, byte for byte', () => {
  /** Runs the `$ node-services …` line of a README console block (paths relative to the repository) and returns both. */
  async function example(marker: string): Promise<{ expected: string; run: Run }> {
    const block = readmeBlock(marker, 'console');
    const newline = block.indexOf('\n');
    const command = block.slice(0, newline);
    expect(command.startsWith('$ node-services ')).toBe(true);
    const cwd = process.cwd();
    process.chdir(path.join(__dirname, '..', '..'));
    try {
      return { expected: block.slice(newline + 1), run: await runCli(command.slice('$ node-services '.length).split(' ')) };
    } finally {
      process.chdir(cwd);
    }
  }

  test('coverage --clusters (exit 1: the edge pool is over its allocatable)', async () => {
    const { expected, run } = await example('coverage-clusters-example');
    expect(run.out).toBe(expected);
    expect([run.code, run.err]).toEqual([1, '']);
  });

  test('diff --clusters', async () => {
    const { expected, run } = await example('diff-clusters-example');
    expect(run.out).toBe(expected);
    expect([run.code, run.err]).toEqual([0, '']);
  });
});
