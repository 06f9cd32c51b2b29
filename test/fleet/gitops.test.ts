/**
 * The GitOps hand-off of a fleet: an Argo CD ApplicationSet whose RollingSync steps follow the waves, or Flux
 * Kustomizations ordered with dependsOn and health checks; every object accepted by its CRD schema.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { Fleet, FleetClusterOptions, GitOps, KubernetesVersion, LogAgent, NodePool, NodeServiceError } from '../../src';
import { crdSchemaErrors } from '../support/crd-schema';

const POOLS = [NodePool.all()];

function clusters(): FleetClusterOptions[] {
  return [
    { name: 'canary', kubernetesVersion: KubernetesVersion.V1_30, pools: POOLS, wave: 0 },
    { name: 'eu-1', kubernetesVersion: KubernetesVersion.V1_28, pools: POOLS, wave: 2, labels: { region: 'eu' } },
    { name: 'eu-2', kubernetesVersion: KubernetesVersion.V1_28, pools: POOLS, wave: 2, labels: { region: 'eu' } },
    { name: 'edge', kubernetesVersion: KubernetesVersion.V1_28, pools: POOLS, wave: 5, kubeConfigSecret: 'edge-kubeconfig' },
  ];
}

/** Synthesizes a fleet with a log agent per cluster and returns its GitOps objects. */
function gitopsObjects(gitops: GitOps, options: FleetClusterOptions[] = clusters()): any[] {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-gitops-'));
  try {
    const fleet = new Fleet({ outdir, clusters: options, gitops });
    fleet.addServices({
      define: (_scope, c) =>
        void new LogAgent(c.chart('agents', { namespace: 'node-services' }), 'logs', {
          name: 'fluent-bit',
          image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
          pools: c.pools,
        }),
    });
    fleet.synth();
    const dir = path.join(outdir, 'gitops');
    return fs
      .readdirSync(dir)
      .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8')).map((d) => d.toJS()))
      .filter((o) => o);
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

/** The Application the ApplicationSet controller renders for `element` (the template's `{{.key}}` substituted). */
function renderApplication(appSet: any, element: { [key: string]: string }): any {
  const text = JSON.stringify(appSet.spec.template).replace(/\{\{\.(\w+)\}\}/g, (_m, key: string) => {
    if (!(key in element)) throw new Error(`missingkey=error: ${key}`);
    return element[key];
  });
  const template = JSON.parse(text);
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { ...template.metadata, namespace: appSet.metadata.namespace },
    spec: template.spec,
  };
}

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(NodeServiceError);
    return (e as NodeServiceError).problems.map((p) => `${p.field} = ${p.value}: ${p.problem}`);
  }
  throw new Error('expected a NodeServiceError');
}

describe('GitOps.argoCd', () => {
  const objects = gitopsObjects(
    GitOps.argoCd({ repoUrl: 'https://git.example.com/platform.git', repoPath: 'deploy/fleet', targetRevision: 'main', maxUpdate: 1 }),
  );
  const appSet = objects[0];

  test('GIVEN a fleet with sparse waves THEN one ApplicationSet with one RollingSync step per wave, in order, accepted by its CRD schema', () => {
    expect(objects.map((o) => `${o.apiVersion} ${o.kind} ${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'argoproj.io/v1alpha1 ApplicationSet argocd/node-services',
    ]);
    expect(appSet.spec.strategy.type).toBe('RollingSync');
    expect(appSet.spec.strategy.rollingSync.steps).toEqual(
      ['0', '2', '5'].map((w) => ({ matchExpressions: [{ key: GitOps.WAVE_LABEL, operator: 'In', values: [w] }], maxUpdate: 1 })),
    );
    expect(appSet.spec.generators[0].list.elements).toEqual([
      { cluster: 'canary', wave: '0', path: 'deploy/fleet/clusters/canary' },
      { cluster: 'eu-1', wave: '2', path: 'deploy/fleet/clusters/eu-1' },
      { cluster: 'eu-2', wave: '2', path: 'deploy/fleet/clusters/eu-2' },
      { cluster: 'edge', wave: '5', path: 'deploy/fleet/clusters/edge' },
    ]);
    expect(crdSchemaErrors(objects)).toEqual([]);
  });

  test('GIVEN the template THEN every Application it renders is valid, applies its folder, carries the label its step selects', () => {
    const apps = appSet.spec.generators[0].list.elements.map((e: any) => renderApplication(appSet, e));
    expect(crdSchemaErrors(apps)).toEqual([]);
    expect(apps.map((a: any) => [a.metadata.name, a.spec.source.path, a.spec.destination, a.metadata.labels[GitOps.WAVE_LABEL]])).toEqual([
      ['node-services-canary', 'deploy/fleet/clusters/canary', { name: 'canary' }, '0'],
      ['node-services-eu-1', 'deploy/fleet/clusters/eu-1', { name: 'eu-1' }, '2'],
      ['node-services-eu-2', 'deploy/fleet/clusters/eu-2', { name: 'eu-2' }, '2'],
      ['node-services-edge', 'deploy/fleet/clusters/edge', { name: 'edge' }, '5'],
    ]);
    // Each Application is selected by exactly one step: the one of its wave.
    for (const a of apps) {
      const selecting = appSet.spec.strategy.rollingSync.steps.filter((s: any) =>
        s.matchExpressions.every((m: any) => m.operator === 'In' && m.values.includes(a.metadata.labels[m.key])),
      );
      expect([a.metadata.name, selecting.length]).toEqual([a.metadata.name, 1]);
    }
    expect(apps[0].spec.source).toEqual({
      repoURL: 'https://git.example.com/platform.git',
      targetRevision: 'main',
      path: 'deploy/fleet/clusters/canary',
    });
    expect(apps[0].spec.project).toBe('default');
  });

  test('GIVEN clusters with API server URLs THEN the destination is the server', () => {
    const withServers = clusters().map((c, i) => ({ ...c, server: `https://k8s-${i}.example.com:6443` }));
    const [set] = gitopsObjects(GitOps.argoCd({ repoUrl: 'https://git.example.com/platform.git' }), withServers);
    expect(set.spec.template.spec.destination).toEqual({ server: '{{.server}}' });
    const app = renderApplication(set, set.spec.generators[0].list.elements[1]);
    expect(app.spec.destination).toEqual({ server: 'https://k8s-1.example.com:6443' });
    expect(app.spec.source.path).toBe('clusters/eu-1');
    expect(crdSchemaErrors([set, app])).toEqual([]);
  });

  test('GIVEN a broken ApplicationSet THEN the CRD schema rejects it (the check can fail)', () => {
    const broken = { ...appSet, spec: { ...appSet.spec, strategy: { type: 'RollingSync', rollingSync: { steps: 'all' } } } };
    expect(crdSchemaErrors([broken])).toEqual([expect.stringContaining('ApplicationSet node-services is not valid for its CRD schema')]);
  });

  test('GIVEN bad options THEN one error lists each', () => {
    expect(problems(() => GitOps.argoCd({} as any))).toEqual(['repoUrl = undefined: is required']);
    expect(
      problems(() =>
        GitOps.argoCd({
          repoUrl: 'not a url',
          repoPath: '../up',
          targetRevision: '',
          project: 'Platform',
          name: 'node_services',
          namespace: 'Argo',
          maxUpdate: 0,
        }),
      ),
    ).toEqual([
      'repoUrl = "not a url": is not a repository URL',
      `repoPath = "../up": must not have empty, '.' or '..' elements`,
      expect.stringMatching(/^name = "node_services": must consist of lower-case/),
      expect.stringMatching(/^namespace = "Argo": must consist of lower-case/),
      'targetRevision = "": is not a revision',
      expect.stringMatching(/^project = "Platform": must consist of lower-case/),
      'maxUpdate = 0: must be at least 1 (0 would keep the step from ever syncing)',
    ]);
    expect(problems(() => GitOps.argoCd({ repoUrl: 'x', repoPath: '/abs', maxUpdate: 1.5, prune: true } as any))).toEqual([
      'maxUpdate = 1.5: must be a whole number',
      'prune = true: is not an option of GitOps.argoCd',
      'repoPath = "/abs": must be relative to the repository root',
    ]);
  });

  test('GIVEN clusters with and without a server THEN the fleet refuses the mix', () => {
    const fleet = new Fleet({ gitops: GitOps.argoCd({ repoUrl: 'https://git.example.com/platform.git' }), clusters: [clusters()[0]] });
    expect(problems(() => fleet.addCluster({ ...clusters()[1], server: 'https://k8s.example.com' }))).toEqual([
      'server = "https://k8s.example.com": is given while other clusters give none: the ApplicationSet\'s template has one destination field for every cluster',
    ]);
    expect(problems(() => fleet.addCluster({ ...clusters()[1], name: 'a'.repeat(50) }))).toEqual([
      `name = "${'a'.repeat(50)}": makes the GitOps object name "node-services-${'a'.repeat(50)}" longer than 63 characters (Argo CD and Flux put it in a label value)`,
    ]);
  });
});

describe('GitOps.flux', () => {
  const objects = gitopsObjects(GitOps.flux({ sourceName: 'platform', repoPath: 'dist', interval: '5m', timeout: '10m' }));
  const byName = new Map(objects.map((o) => [o.metadata.name, o]));

  test('GIVEN a fleet THEN one Kustomization per cluster, accepted by its CRD schema', () => {
    expect(objects.map((o) => `${o.apiVersion} ${o.kind} ${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'kustomize.toolkit.fluxcd.io/v1 Kustomization flux-system/node-services-canary',
      'kustomize.toolkit.fluxcd.io/v1 Kustomization flux-system/node-services-eu-1',
      'kustomize.toolkit.fluxcd.io/v1 Kustomization flux-system/node-services-eu-2',
      'kustomize.toolkit.fluxcd.io/v1 Kustomization flux-system/node-services-edge',
    ]);
    expect(crdSchemaErrors(objects)).toEqual([]);
    const eu1 = byName.get('node-services-eu-1');
    expect(eu1.spec).toEqual({
      interval: '5m',
      path: './dist/clusters/eu-1',
      prune: true,
      sourceRef: { kind: 'GitRepository', name: 'platform' },
      timeout: '10m',
      healthChecks: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'fluent-bit', namespace: 'node-services' }],
      dependsOn: [{ name: 'node-services-canary' }],
    });
    expect(eu1.metadata.labels).toEqual(
      expect.objectContaining({ region: 'eu', [GitOps.WAVE_LABEL]: '2', [GitOps.CLUSTER_LABEL]: 'eu-1' }),
    );
  });

  test('GIVEN waves 0, 2, 5 THEN each Kustomization depends on every one of the previous wave, the first on none', () => {
    expect(objects.map((o) => [o.metadata.name, (o.spec.dependsOn ?? []).map((d: any) => d.name)])).toEqual([
      ['node-services-canary', []],
      ['node-services-eu-1', ['node-services-canary']],
      ['node-services-eu-2', ['node-services-canary']],
      ['node-services-edge', ['node-services-eu-1', 'node-services-eu-2']],
    ]);
  });

  test('GIVEN a remote cluster THEN its Kustomization applies through its kubeconfig Secret', () => {
    expect(byName.get('node-services-edge').spec.kubeConfig).toEqual({ secretRef: { name: 'edge-kubeconfig' } });
    expect(byName.get('node-services-eu-1').spec.kubeConfig).toBeUndefined();
  });

  test('GIVEN wait, prune off and a source namespace THEN they are used instead of the health checks', () => {
    const [first] = gitopsObjects(
      GitOps.flux({ sourceName: 'platform', sourceNamespace: 'sources', wait: true, prune: false, name: 'agents', namespace: 'flux' }),
    );
    expect(first.metadata).toEqual(expect.objectContaining({ name: 'agents-canary', namespace: 'flux' }));
    expect(first.spec).toEqual({
      interval: '10m',
      path: './clusters/canary',
      prune: false,
      sourceRef: { kind: 'GitRepository', name: 'platform', namespace: 'sources' },
      timeout: '5m',
      wait: true,
    });
    expect(crdSchemaErrors([first])).toEqual([]);
  });

  test('GIVEN a broken Kustomization THEN the CRD schema rejects it (the check can fail)', () => {
    const eu1 = byName.get('node-services-eu-1');
    expect(crdSchemaErrors([{ ...eu1, spec: { ...eu1.spec, prune: 'yes' } }])).toEqual([
      expect.stringContaining('Kustomization node-services-eu-1 is not valid for its CRD schema'),
    ]);
  });

  test('GIVEN bad options THEN one error lists each', () => {
    expect(problems(() => GitOps.flux({ sourceName: 'Platform', interval: '10 minutes', timeout: '1d', wait: 'yes' } as any))).toEqual([
      'wait = "yes": must be a boolean (true or false)',
      expect.stringMatching(/^sourceName = "Platform": must consist of lower-case/),
      'interval = "10 minutes": is not a duration',
      'timeout = "1d": is not a duration',
    ]);
    expect(problems(() => GitOps.flux(undefined as any))).toEqual(['props = undefined: GitOps.flux props must be an object']);
  });
});
