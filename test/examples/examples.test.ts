import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { buildPlatform } from '../../examples/platform';
import { isHostPathAllowed, kindProfile } from '../../src/policy/kinds';
import { apiRuleViolations } from '../support/api-rules';
import { validateAll } from '../support/schema';

const DIST = path.join(__dirname, '..', '..', 'dist');

/** The manifests of the single-cluster platform: the `*.k8s.yaml` files directly in `dir` (the fleet's are below it). */
function manifestFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.k8s.yaml'))
    .sort();
}

function synthInto(dir: string): string[] {
  fs.rmSync(dir, { recursive: true, force: true });
  const app = new App({ outdir: dir });
  buildPlatform(app);
  app.synth();
  return fs.readdirSync(dir).sort();
}

function readObjects(dir: string): any[] {
  return manifestFiles(dir).flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8')).map((d) => d.toJS()));
}

describe('examples app', () => {
  const out = path.join(os.tmpdir(), `node-services-examples-${process.pid}`);
  const files = synthInto(out);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  test('GIVEN the examples WHEN synthesized THEN the committed dist/ is identical (re-run `npx cdk8s synth` and commit)', () => {
    expect(manifestFiles(DIST)).toEqual(files);
    for (const f of files) {
      expect(`${f}:\n${fs.readFileSync(path.join(DIST, f), 'utf8')}`).toBe(`${f}:\n${fs.readFileSync(path.join(out, f), 'utf8')}`);
    }
  });

  test('GIVEN the examples WHEN synthesized twice THEN the output is byte-identical', () => {
    const again = path.join(os.tmpdir(), `node-services-examples-again-${process.pid}`);
    synthInto(again);
    for (const f of files) expect(fs.readFileSync(path.join(again, f), 'utf8')).toBe(fs.readFileSync(path.join(out, f), 'utf8'));
    fs.rmSync(again, { recursive: true, force: true });
  });

  test('GIVEN dist/ THEN every object is valid for the Kubernetes API schema', () => {
    const objects = readObjects(DIST);
    expect(objects.length).toBeGreaterThan(0);
    validateAll(objects);
  });

  test('GIVEN dist/ THEN only the CSI driver is privileged, privilege is admissible, no runtime socket is writable, RBAC is least-privilege', () => {
    const objects = readObjects(DIST);
    expect(apiRuleViolations(objects)).toEqual([]);
    const privileged = objects
      .filter((o) => o.kind === 'DaemonSet')
      .flatMap((ds) =>
        [...(ds.spec.template.spec.initContainers ?? []), ...ds.spec.template.spec.containers].map((c: any) => [ds.metadata.name, c]),
      )
      .filter(([, c]) => c.securityContext?.privileged === true)
      .map(([name, c]) => `${name}/${c.name}`);
    expect(privileged).toEqual(['ebs-csi-node/driver']);
    // Its Windows equivalent, a HostProcess pod, only for the log agent's Windows variant.
    const hostProcess = objects
      .filter((o) => o.kind === 'DaemonSet' && o.spec.template.spec.securityContext.windowsOptions?.hostProcess === true)
      .map((ds) => ds.metadata.name);
    expect(hostProcess).toEqual(['fluent-bit-windows']);
  });

  test('GIVEN dist/ THEN every DaemonSet meets the foundation bars', () => {
    const daemonSets = readObjects(DIST).filter((o) => o.kind === 'DaemonSet');
    expect(daemonSets.map((d) => d.metadata.annotations['node-services.cdk8s.io/kind'])).toEqual(
      expect.arrayContaining(['log-agent', 'monitoring-agent', 'cni-plugin', 'csi-node', 'security-agent', 'gpu-monitor']),
    );
    for (const ds of daemonSets) {
      const id = `${ds.metadata.namespace}/${ds.metadata.name}`;
      expect([id, Object.keys(ds.spec.selector.matchLabels).sort()]).toEqual([
        id,
        ['app.kubernetes.io/instance', 'app.kubernetes.io/name'],
      ]);
      for (const [k, v] of Object.entries(ds.spec.selector.matchLabels)) expect(ds.spec.template.metadata.labels[k]).toBe(v);
      expect(ds.spec.updateStrategy.type).toMatch(/^(RollingUpdate|OnDelete)$/);
      const pod = ds.spec.template.spec;
      const windows = pod.os?.name === 'windows';
      if (windows) {
        // A HostProcess pod: on the host network, its security on the pod, no Linux-only field anywhere.
        expect([id, pod.hostNetwork, pod.nodeSelector['kubernetes.io/os']]).toEqual([id, true, 'windows']);
        expect([id, pod.securityContext]).toEqual([id, { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } }]);
      }
      for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
        const where = `${id} ${c.name}`;
        expect([
          where,
          c.resources.requests.cpu !== undefined,
          c.resources.requests.memory !== undefined,
          c.resources.limits.memory !== undefined,
        ]).toEqual([where, true, true, true]);
        expect([where, c.image]).not.toEqual([where, expect.stringMatching(/:latest$|^[^:@]+$/)]);
        if (windows) {
          expect([where, c.securityContext]).toEqual([where, undefined]);
          continue;
        }
        if (!c.securityContext.privileged) expect([where, c.securityContext.allowPrivilegeEscalation]).toEqual([where, false]);
        expect([where, c.securityContext.capabilities.drop]).toEqual([where, ['ALL']]);
        expect([where, c.securityContext.seccompProfile]).toEqual([where, { type: 'RuntimeDefault' }]);
      }
      for (const c of pod.containers) expect([id, c.name, c.readinessProbe !== undefined]).toEqual([id, c.name, true]);
      const profile = kindProfile(ds.metadata.annotations['node-services.cdk8s.io/kind']);
      const hostPaths = new Map<string, string>(
        (pod.volumes ?? []).filter((v: any) => v.hostPath).map((v: any) => [v.name, v.hostPath.path]),
      );
      for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
        for (const m of c.volumeMounts ?? []) {
          const hostPath = hostPaths.get(m.name);
          if (hostPath && !m.readOnly) expect([id, hostPath, isHostPathAllowed(profile, hostPath, true)]).toEqual([id, hostPath, true]);
        }
      }
      for (const v of pod.volumes ?? [])
        if (v.hostPath) expect([id, v.name, v.hostPath.type]).toEqual([id, v.name, expect.stringMatching(/^[A-Z]/)]);
    }
  });
});

describe('examples app: warnings and the fleet', () => {
  test('GIVEN the examples app command WHEN run THEN it writes the manifests and prints nothing on stderr (no warning)', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-examples-quiet-'));
    try {
      const run = require('child_process').spawnSync(process.execPath, [path.join(__dirname, '..', '..', 'examples', 'app.js')], {
        encoding: 'utf8',
        env: { ...process.env, CDK8S_OUTDIR: out },
      });
      expect([run.status, run.stderr]).toEqual([0, '']);
      expect(fs.readdirSync(path.join(out, 'clusters')).length).toBeGreaterThan(0);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  test('GIVEN dist/clusters THEN every cluster carries a coverage PrometheusRule for each of its DaemonSets', () => {
    const clusters = fs.readdirSync(path.join(DIST, 'clusters')).sort();
    expect(clusters.length).toBeGreaterThanOrEqual(3);
    const uncovered = clusters.flatMap((cluster) => {
      const objects = readObjects(path.join(DIST, 'clusters', cluster));
      const alerted = new Set(
        objects
          .filter((o) => o.kind === 'PrometheusRule')
          .flatMap((o) => o.spec.groups.flatMap((g: any) => g.rules.map((r: any) => `${o.metadata.namespace}/${r.labels?.node_service}`))),
      );
      const services = objects
        .filter((o) => o.kind === 'DaemonSet')
        .map((o) => `${o.metadata.namespace}/${o.metadata.labels['app.kubernetes.io/name']}`);
      expect(services.length).toBeGreaterThan(0);
      return services.filter((s) => !alerted.has(s)).map((s) => `${cluster}: ${s}`);
    });
    expect(uncovered).toEqual([]);
  });
});
