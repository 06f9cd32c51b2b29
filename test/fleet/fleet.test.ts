/**
 * Fleet: clusters as separate cdk8s Apps, each verified at synth for its own version, pools and node tax; services
 * declared once and built per cluster; the boundary check of every option; the folder layout.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import {
  AdmissionPolicyApiVersion,
  Fleet,
  FleetCluster,
  FleetClusterOptions,
  GitOps,
  KubernetesVersion,
  LogAgent,
  Toleration,
  NodeBudget,
  NodePool,
  NodeServiceChecks,
  NodeServiceError,
  NodeServiceGuardrails,
  NodeServicesNamespace,
  PolicyLoggers,
} from '../../src';
import { versionProblems } from '../../src/k8s/api-fields';
import { validateAll } from '../support/schema';

const GENERAL = NodePool.of({ name: 'general', labels: { 'node.example.com/pool': 'general' }, allocatable: { cpu: '4', memory: '16Gi' } });

function cluster(name: string, extra: Partial<FleetClusterOptions> = {}): FleetClusterOptions {
  return { name, kubernetesVersion: KubernetesVersion.V1_28, pools: [GENERAL], ...extra };
}

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-fleet-'));
}

function objectsOf(dir: string): any[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.k8s.yaml'))
    .sort()
    .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8')).map((d) => d.toJS()))
    .filter((o) => o);
}

function addLogAgent(c: FleetCluster, props: { resources?: any } = {}): LogAgent {
  const chart = c.chart('node-agents', { namespace: 'node-services', disableResourceNameHashes: true });
  NodeServiceChecks.of(c.app, { logger: PolicyLoggers.silent() });
  return new LogAgent(chart, 'logs', { name: 'fluent-bit', image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9', pools: c.pools, ...props });
}

function addGuardrails(c: FleetCluster): void {
  const chart = c.chart('guardrails', { disableResourceNameHashes: true });
  new NodeServicesNamespace(chart, 'namespace', { name: 'node-services' });
  new NodeServiceGuardrails(chart, 'admission', { contact: '#platform', platformGroups: ['platform-admins'] });
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

function synthError(fn: () => void): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('Fleet: version-aware output per cluster', () => {
  test('GIVEN a 1.28 and a 1.30 cluster side by side WHEN both get guardrails THEN each follows its version and passes its own schema', () => {
    const outdir = tmp();
    const fleet = new Fleet({
      outdir,
      clusters: [
        cluster('old', { kubernetesVersion: KubernetesVersion.V1_28 }),
        cluster('new', { kubernetesVersion: KubernetesVersion.V1_30 }),
      ],
    });
    fleet.addServices({ define: (_scope, c) => addGuardrails(c) });
    fleet.synth();

    // THEN the checks of each cluster's App are told its version
    expect(NodeServiceChecks.kubernetesVersionOf(fleet.cluster('old').app)).toBe('1.28');
    expect(NodeServiceChecks.kubernetesVersionOf(fleet.cluster('new').app)).toBe('1.30');
    const old = objectsOf(path.join(outdir, 'clusters', 'old'));
    const neu = objectsOf(path.join(outdir, 'clusters', 'new'));
    const policyVersions = (objects: any[]) =>
      [...new Set(objects.filter((o) => o.kind.startsWith('ValidatingAdmissionPolicy')).map((o) => o.apiVersion))].sort();
    expect(policyVersions(old)).toEqual([AdmissionPolicyApiVersion.V1BETA1]);
    expect(policyVersions(neu)).toEqual([AdmissionPolicyApiVersion.V1]);
    const nsLabels = (objects: any[]) => objects.find((o) => o.kind === 'Namespace').metadata.labels;
    expect(nsLabels(old)['pod-security.kubernetes.io/enforce-version']).toBe('v1.28');
    expect(nsLabels(neu)['pod-security.kubernetes.io/enforce-version']).toBe('v1.30');
    validateAll(old, KubernetesVersion.V1_28);
    validateAll(neu, KubernetesVersion.V1_30);
    // The 1.30 output would not be served by a 1.28 API server: the version matters.
    expect(
      neu.filter((o) => o.kind === 'ValidatingAdmissionPolicy').flatMap((o) => versionProblems(o, KubernetesVersion.V1_28)),
    ).not.toEqual([]);
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  test('GIVEN a single App targeting 1.30 THEN the guardrails default to v1 and the namespace to v1.30; an explicit choice is kept', () => {
    const app = new App();
    NodeServiceChecks.of(app, { kubernetesVersion: KubernetesVersion.V1_30, logger: PolicyLoggers.silent() });
    const chart = new Chart(app, 'guardrails');
    const byDefault = new NodeServiceGuardrails(chart, 'default', { contact: '#platform', platformGroups: ['platform-admins'] });
    const explicit = new NodeServiceGuardrails(chart, 'explicit', {
      name: 'explicit',
      contact: '#platform',
      platformGroups: ['platform-admins'],
      apiVersion: AdmissionPolicyApiVersion.V1BETA1,
    });
    expect(byDefault.apiVersion).toBe(AdmissionPolicyApiVersion.V1);
    expect(explicit.apiVersion).toBe(AdmissionPolicyApiVersion.V1BETA1);
    new NodeServicesNamespace(chart, 'namespace', { name: 'node-services' });
    const enforceVersion = (c: Chart) =>
      Testing.synth(c).find((o) => o.kind === 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce-version'];
    expect(enforceVersion(chart)).toBe('v1.30');
    const untargeted = new Chart(new App(), 'guardrails');
    expect(new NodeServiceGuardrails(untargeted, 'g', { contact: '#platform', platformGroups: ['platform-admins'] }).apiVersion).toBe(
      AdmissionPolicyApiVersion.V1BETA1,
    );
    new NodeServicesNamespace(untargeted, 'namespace', { name: 'node-services' });
    expect(enforceVersion(untargeted)).toBe('v1.28');
  });

  test('GIVEN a DaemonSet with a 1.30 field in both clusters WHEN synthesized THEN the rule catalogue refuses it on 1.28 only', () => {
    const outdir = tmp();
    const fleet = new Fleet({ outdir, clusters: [cluster('old'), cluster('new', { kubernetesVersion: KubernetesVersion.V1_30 })] });
    fleet.addServices({
      define: (_scope, c) => {
        // The log agent's DaemonSet as plain JSON (e.g. rendered by another tool), with the 1.30 appArmorProfile field.
        const json = addLogAgent(c).daemonSet.toJson();
        json.spec.template.spec.securityContext.appArmorProfile = { type: 'RuntimeDefault' };
        new ApiObject(c.chart('imported'), 'fluent-bit', json);
        c.app.node.findChild('node-agents').node.tryRemoveChild('logs');
      },
    });
    expect(() => fleet.cluster('new').app.synth()).not.toThrow();
    const e = synthError(() => fleet.synth());
    expect(e.message).toMatch(/^cluster 'old': /);
    expect(e.message).toContain('unknown-field');
    expect(e.message).toContain('appArmorProfile');
    fs.rmSync(outdir, { recursive: true, force: true });
  });
});

describe('Fleet: per-cluster verification at synth', () => {
  const edgePool = (cpu: string) =>
    NodePool.of({
      name: 'edge',
      labels: { 'node-role.kubernetes.io/edge': '' },
      allocatable: { cpu, memory: '4Gi' },
      budget: NodeBudget.of({ cpuPercent: 20, memoryPercent: 20 }),
    });

  test('GIVEN an edge cluster whose pool the log agent does not fit WHEN synthesized THEN synth fails naming the cluster, the pool and the service', () => {
    const outdir = tmp();
    const fleet = new Fleet({ outdir, clusters: [cluster('core-eu'), cluster('edge-eu', { pools: [edgePool('50m')], wave: 1 })] });
    fleet.addServices({ define: (_scope, c) => void addLogAgent(c) });
    const e = synthError(() => fleet.synth());
    expect(e.message).toMatch(/^cluster 'edge-eu': /);
    expect(e.message).toMatch(/coverage: DaemonSet fluent-bit is wanted on node pool "edge" but its pod would stay Pending/);
    expect(e.message).not.toContain('core-eu');
    // The healthy cluster before it was written; nothing of the broken one.
    expect(fs.readdirSync(path.join(outdir, 'clusters', 'core-eu')).sort()).toEqual(['kubernetes-version', 'node-agents.k8s.yaml']);
    expect(fs.existsSync(path.join(outdir, 'clusters', 'edge-eu', 'node-agents.k8s.yaml'))).toBe(false);
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  test('GIVEN services over an edge pool budget WHEN synthesized THEN the node tax of that cluster fails it; a per-cluster override fixes it', () => {
    const build = (override: boolean) => {
      const fleet = new Fleet({ outdir: tmp(), clusters: [cluster('core-eu'), cluster('edge-eu', { pools: [edgePool('2')] })] });
      fleet.addServices({
        define: (_scope, c) =>
          void addLogAgent(c, {
            resources: override && c.hasPool('edge') ? { cpuRequest: '50m', memoryRequest: '64Mi', memoryLimit: '128Mi' } : undefined,
          }),
      });
      return fleet;
    };
    // 100m of 2 CPUs is within 20 %; 128Mi of 4Gi too: raise the request to break the budget.
    const broken = new Fleet({ outdir: tmp(), clusters: [cluster('edge-eu', { pools: [edgePool('2')] })] });
    broken.addServices({
      define: (_scope, c) => void addLogAgent(c, { resources: { cpuRequest: '500m', memoryRequest: '64Mi', memoryLimit: '128Mi' } }),
    });
    const e = synthError(() => broken.synth());
    expect(e.message).toMatch(/^cluster 'edge-eu': /);
    expect(e.message).toContain('node tax: the node services landing on node pool "edge"');
    expect(e.message).toContain('node-services/fluent-bit');
    for (const f of [build(false), build(true), broken]) fs.rmSync(f.outdir, { recursive: true, force: true });
    const fixed = build(true);
    expect(() => fixed.synth()).not.toThrow();
    const edgeAgent = objectsOf(path.join(fixed.outdir, 'clusters', 'edge-eu')).find((o) => o.kind === 'DaemonSet');
    const coreAgent = objectsOf(path.join(fixed.outdir, 'clusters', 'core-eu')).find((o) => o.kind === 'DaemonSet');
    expect(edgeAgent.spec.template.spec.containers[0].resources.requests.cpu).toBe('50m');
    expect(coreAgent.spec.template.spec.containers[0].resources.requests.cpu).toBe('100m');
    fs.rmSync(fixed.outdir, { recursive: true, force: true });
  });

  test('GIVEN a service definition with invalid props for one cluster WHEN synthesized THEN the error names the cluster', () => {
    const fleet = new Fleet({ outdir: tmp(), clusters: [cluster('a'), cluster('b')] });
    const e = synthError(() => {
      fleet.addServices({
        define: (_scope, c) => {
          const chart = c.chart('x');
          new LogAgent(chart, 'logs', {
            image: c.name === 'b' ? 'NOT AN IMAGE' : 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
            pools: c.pools,
          });
        },
      });
      fleet.synth();
    });
    expect(e.message).toMatch(/^cluster 'b': Validation failed with the following errors:\n {2}\[x\/logs\] invalid props/);
    expect(e.message).toContain('- image = "NOT AN IMAGE"');
  });

  test('GIVEN a service definition that throws for one cluster THEN the error names the cluster and keeps its class', () => {
    const fleet = new Fleet({ outdir: tmp(), clusters: [cluster('a'), cluster('b')] });
    const e = synthError(() =>
      fleet.addServices({
        define: (_scope, c) => {
          if (c.name === 'b') Toleration.equal('nvidia.com/gpu', undefined as any);
        },
      }),
    );
    expect(e).toBeInstanceOf(NodeServiceError);
    expect(e.message).toMatch(/^cluster 'b': \[Toleration.equal\] invalid arguments/);
  });
});

describe('Fleet: warnings', () => {
  test('GIVEN a warning in one cluster WHEN synthesized THEN the fleet logger gets its summary naming the cluster', () => {
    const messages: string[] = [];
    const outdir = tmp();
    const fleet = new Fleet({ outdir, logger: { log: (m) => void messages.push(m) }, clusters: [cluster('quiet'), cluster('noisy')] });
    fleet.addServices({
      define: (_scope, c) =>
        void new LogAgent(c.chart('node-agents', { namespace: 'node-services' }), 'logs', {
          image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
          pools: c.pools,
          priorityClassName: c.name === 'noisy' ? 'platform-critical' : undefined,
        }),
    });
    fleet.synth();
    const noisy = messages.filter((m) => m.includes('priority-class-unknown'));
    expect(noisy).toEqual([expect.stringMatching(/^cluster 'noisy': node-services: /)]);
    expect(messages.filter((m) => m.startsWith("cluster 'quiet'") && m.includes('priority-class-unknown'))).toEqual([]);
    expect(problems(() => new Fleet({ logger: { write: () => undefined } } as any))).toEqual([
      'logger = {"write":[function write]}: must have a log(message) method',
    ]);
    fs.rmSync(outdir, { recursive: true, force: true });
  });
});

describe('Fleet: services declared once', () => {
  test('GIVEN definitions with and without matchLabels THEN each runs once per matching cluster, also for clusters added later', () => {
    const fleet = new Fleet({ outdir: tmp(), clusters: [cluster('a', { labels: { accelerators: 'nvidia' } }), cluster('b')] });
    const calls: string[] = [];
    fleet.addServices({ define: (scope, c) => void calls.push(`all:${c.name}:${scope === c.app}`) });
    fleet.addServices({ define: (_scope, c) => void calls.push(`gpu:${c.name}`) }, { matchLabels: { accelerators: 'nvidia' } });
    fleet.addCluster(cluster('c', { labels: { accelerators: 'nvidia', region: 'eu' } }));
    expect(calls).toEqual(['all:a:true', 'all:b:true', 'gpu:a', 'all:c:true', 'gpu:c']);
    expect(fleet.clusters.map((c) => c.name)).toEqual(['a', 'b', 'c']);
  });

  test('GIVEN a cluster THEN pool() returns its pools and explains an unknown one', () => {
    const fleet = new Fleet({ outdir: tmp(), clusters: [cluster('edge-eu', { pools: [GENERAL, NodePool.gpu()] })] });
    const c = fleet.cluster('edge-eu');
    expect(c.pool('gpu').name).toBe('gpu');
    expect(c.hasPool('gpu')).toBe(true);
    expect(c.hasPool('edge')).toBe(false);
    expect(() => c.pool('edge')).toThrow(
      `[FleetCluster.pool] invalid arguments (1 problem):\n  - FleetCluster.pool(name) = "edge": cluster 'edge-eu' has no such node pool (its pools: general, gpu). Fix: use one of them, or check cluster.hasPool(name) first`,
    );
    expect(() => fleet.cluster('nope')).toThrow(
      '[Fleet.cluster] invalid arguments (1 problem):\n  - Fleet.cluster(name) = "nope": the fleet has no such cluster (its clusters: edge-eu). Fix: use one of them',
    );
    expect(c.wave).toBe(0);
    expect(c.outdir).toBe(path.join(fleet.outdir, 'clusters', 'edge-eu'));
  });
});

describe('Fleet: boundary', () => {
  test('GIVEN plain-JavaScript options of the wrong types THEN one error lists every field, never a TypeError', () => {
    const fleet = new Fleet({ outdir: tmp() });
    const found = problems(() =>
      fleet.addCluster({
        name: 42,
        kubernetesVersion: 1.3,
        pools: 'general',
        labels: ['x'],
        wave: 'first',
        server: 1,
        kubeConfigSecret: true,
      } as any),
    );
    expect(found).toEqual([
      'name = 42: must be a string',
      'pools = "general": must be a list of NodePool (NodePool.of({ name, labels, taints }) or NodePool.all())',
      'labels = ["x"]: must be a map (object) of strings',
      'wave = "first": must be a whole number',
      'server = 1: must be a string',
      'kubeConfigSecret = true: must be a string',
      expect.stringMatching(/^kubernetesVersion = 1\.3: is the number 1\.3; write the version as a string such as '1\.30'/),
    ]);
    expect(problems(() => fleet.addCluster(undefined as any))).toEqual(['props = undefined: FleetClusterOptions props must be an object']);
  });

  test('GIVEN values outside the grammar THEN each is named with its fix', () => {
    const fleet = new Fleet({ outdir: tmp(), clusters: [cluster('taken')] });
    const found = problems(() =>
      fleet.addCluster({
        name: 'taken',
        kubernetesVersion: '1.27' as KubernetesVersion,
        pools: [GENERAL, GENERAL],
        labels: { 'bad key!': 'x', region: 'not valid!' },
        wave: -1,
        server: 'kubernetes.local',
        kubeConfigSecret: 'Not_A_Name',
        clusterName: 'x',
      } as any),
    );
    expect(found).toEqual([
      'clusterName = "x": is not an option of FleetClusterOptions',
      'name = "taken": is already a cluster of the fleet',
      expect.stringMatching(/^kubernetesVersion = "1\.27": is not a supported Kubernetes version \(one of 1\.28, /),
      'pools[1].name = "general": names a pool listed before',
      expect.stringMatching(/^labels\["bad key!"\] = "bad key!": name part must consist/),
      expect.stringMatching(/^labels\["region"\] = "not valid!": must be empty or consist/),
      'wave = -1: must not be negative',
      'server = "kubernetes.local": is not an API server URL',
      expect.stringMatching(/^kubeConfigSecret = "Not_A_Name": must consist of lower-case/),
    ]);
    expect(problems(() => fleet.addCluster(cluster('empty', { pools: [] })))).toEqual(['pools = []: must list at least one node pool']);
    expect(problems(() => fleet.addCluster(cluster('Upper')))).toEqual([
      expect.stringMatching(/^name = "Upper": must consist of lower-case/),
    ]);
    expect(problems(() => fleet.addCluster({ name: 'x' } as any))).toEqual([
      'kubernetesVersion = undefined: is required',
      'pools = undefined: is required',
    ]);
  });

  test('GIVEN clusters in the props THEN their problems name their position', () => {
    expect(problems(() => new Fleet({ clusters: [cluster('a'), { ...cluster('b'), wave: 1.5 }] }))).toEqual([
      'wave = 1.5: must be a whole number',
    ]);
    const e = synthError(() => new Fleet({ clusters: [cluster('a'), { ...cluster('b'), wave: 1.5 }] }));
    expect(e.message).toMatch(/^\[Fleet cluster 'b'\] invalid props/);
  });

  test('GIVEN wrong fleet props and services THEN they are refused', () => {
    expect(problems(() => new Fleet({ outdir: 3, gitops: { repoUrl: 'x' } } as any))).toEqual([
      'outdir = 3: must be a string',
      'gitops = {"repoUrl":"x"}: must be a GitOps (GitOps.argoCd({ repoUrl }) or GitOps.flux({ sourceName }))',
    ]);
    expect(problems(() => new Fleet({ outdir: ' ' }))).toEqual(['outdir = " ": must not be empty']);
    const fleet = new Fleet({ outdir: tmp() });
    expect(problems(() => fleet.addServices({} as any))).toEqual(['services = {}: must have a define(scope, cluster) method']);
    expect(problems(() => fleet.addServices({ define: () => undefined }, { matchLabels: { region: 7 } } as any))).toEqual([
      'matchLabels["region"] = 7: must be a string',
    ]);
  });

  test('GIVEN CDK8S_OUTDIR THEN it is the default outdir, else dist', () => {
    const saved = process.env.CDK8S_OUTDIR;
    try {
      process.env.CDK8S_OUTDIR = '/tmp/somewhere';
      expect(new Fleet().outdir).toBe('/tmp/somewhere');
      delete process.env.CDK8S_OUTDIR;
      expect(new Fleet().outdir).toBe('dist');
      expect(new Fleet({ outdir: 'out' }).outdir).toBe('out');
    } finally {
      if (saved === undefined) delete process.env.CDK8S_OUTDIR;
      else process.env.CDK8S_OUTDIR = saved;
    }
  });
});

describe('Fleet: output folders', () => {
  test('GIVEN a fleet WHEN synthesized twice, the second time without one chart THEN clusters/<name>/ holds only its current manifests and gitops/ the GitOps objects', () => {
    const outdir = tmp();
    const build = (withExtra: boolean) => {
      const fleet = new Fleet({
        outdir,
        clusters: [cluster('a'), cluster('b', { wave: 1, kubernetesVersion: KubernetesVersion.V1_30 })],
        gitops: GitOps.flux({ sourceName: 'platform' }),
      });
      fleet.addServices({
        define: (_scope, c) => {
          addLogAgent(c);
          if (withExtra) new ApiObject(new Chart(c.app, 'extra'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
        },
      });
      return fleet;
    };
    build(true).synth();
    expect(fs.readdirSync(path.join(outdir, 'clusters', 'a')).sort()).toEqual([
      'extra.k8s.yaml',
      'kubernetes-version',
      'node-agents.k8s.yaml',
    ]);
    build(false).synth();
    expect(fs.readdirSync(outdir).sort()).toEqual(['clusters', 'gitops']);
    expect(fs.readdirSync(path.join(outdir, 'clusters')).sort()).toEqual(['a', 'b']);
    expect(fs.readdirSync(path.join(outdir, 'clusters', 'a')).sort()).toEqual(['kubernetes-version', 'node-agents.k8s.yaml']);
    expect(fs.readdirSync(path.join(outdir, 'gitops'))).toEqual(['flux.k8s.yaml']);
    // each cluster folder records the cluster's Kubernetes version, for node-services coverage --clusters
    expect(Fleet.VERSION_FILE).toBe('kubernetes-version');
    expect(fs.readFileSync(path.join(outdir, 'clusters', 'a', Fleet.VERSION_FILE), 'utf8')).toBe('1.28\n');
    expect(fs.readFileSync(path.join(outdir, 'clusters', 'b', Fleet.VERSION_FILE), 'utf8')).toBe('1.30\n');
    fs.rmSync(outdir, { recursive: true, force: true });
  });
});
