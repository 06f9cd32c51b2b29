/**
 * The examples' fleet as committed in dist/clusters/<name>/ and dist/gitops/: identical to a fresh synthesis, every
 * cluster's objects valid for its own Kubernetes version and clean of policy errors, the GitOps objects accepted by
 * their CRD schemas and pointing at the committed folders.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { buildFleet, FLEET_CLUSTERS } from '../../examples/fleet';
import { checkManifests, KubernetesVersion, Severity } from '../../src';
import { apiRuleViolations } from '../support/api-rules';
import { crdSchemaErrors } from '../support/crd-schema';
import { validateAll } from '../support/schema';

const ROOT = path.join(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');

/** Every file below `dir`, as paths relative to it, sorted. */
function filesBelow(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesBelow(dir, path.join(prefix, e.name)) : [path.join(prefix, e.name)]))
    .sort();
}

function objectsIn(dir: string): any[] {
  return filesBelow(dir)
    .filter((f) => f.endsWith('.k8s.yaml'))
    .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8'), { version: '1.1' }).map((d) => d.toJS()))
    .filter((o) => o);
}

describe('examples fleet (dist/clusters, dist/gitops)', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-fleet-dist-'));
  buildFleet(out).synth();
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  test('GIVEN the examples fleet WHEN synthesized THEN dist/clusters and dist/gitops are identical (re-run `npx cdk8s synth` and commit)', () => {
    const fresh = filesBelow(out);
    expect(fresh.filter((f) => !f.startsWith(`clusters${path.sep}`) && !f.startsWith(`gitops${path.sep}`))).toEqual([]);
    const committed = [
      ...filesBelow(path.join(DIST, 'clusters')).map((f) => path.join('clusters', f)),
      ...filesBelow(path.join(DIST, 'gitops')).map((f) => path.join('gitops', f)),
    ].sort();
    expect(committed).toEqual(fresh);
    for (const f of fresh)
      expect(`${f}:\n${fs.readFileSync(path.join(DIST, f), 'utf8')}`).toBe(`${f}:\n${fs.readFileSync(path.join(out, f), 'utf8')}`);
  });

  test('GIVEN the fleet THEN it has a GPU cluster, a 1.30 cluster and an edge cluster, each folder holding its manifests and version', () => {
    expect(fs.readdirSync(path.join(DIST, 'clusters')).sort()).toEqual(FLEET_CLUSTERS.map((c) => c.name).sort());
    const daemonSets = (name: string) =>
      objectsIn(path.join(DIST, 'clusters', name))
        .filter((o) => o.kind === 'DaemonSet')
        .map((o) => o.metadata.name)
        .sort();
    expect(daemonSets('prod-eu')).toEqual(['dcgm-exporter', 'fluent-bit', 'node-exporter']);
    expect(daemonSets('apps-us')).toEqual(['fluent-bit', 'node-exporter']);
    expect(daemonSets('edge-eu')).toEqual(['fluent-bit', 'node-exporter']);
    expect(FLEET_CLUSTERS.find((c) => c.name === 'apps-us')!.kubernetesVersion).toBe(KubernetesVersion.V1_30);
    expect(FLEET_CLUSTERS.find((c) => c.name === 'edge-eu')!.pools.map((p) => p.name)).toEqual(['edge']);
    for (const f of filesBelow(path.join(DIST, 'clusters'))) expect(f).toMatch(/^[a-z0-9-]+\/([^/]+\.k8s\.yaml|kubernetes-version)$/);
    for (const c of FLEET_CLUSTERS)
      expect(fs.readFileSync(path.join(DIST, 'clusters', c.name, 'kubernetes-version'), 'utf8')).toBe(`${c.kubernetesVersion}\n`);
  });

  test.each(FLEET_CLUSTERS.map((c) => [c.name, c.kubernetesVersion] as const))(
    'GIVEN cluster %s (Kubernetes %s) THEN every object is valid for its version, meets the API rules and lints with 0 errors',
    (name, version) => {
      const objects = objectsIn(path.join(DIST, 'clusters', name));
      expect(objects.length).toBeGreaterThan(10);
      validateAll(objects, version);
      expect(apiRuleViolations(objects)).toEqual([]);
      const report = checkManifests(objects, { kubernetesVersion: version });
      expect(report.findings.filter((f) => f.severity === Severity.ERROR && !f.suppressed).map((f) => `${f.ruleId}: ${f.message}`)).toEqual(
        [],
      );
      const policies = objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy').map((o) => o.apiVersion);
      expect(new Set(policies)).toEqual(
        new Set([version === KubernetesVersion.V1_28 ? 'admissionregistration.k8s.io/v1beta1' : 'admissionregistration.k8s.io/v1']),
      );
    },
  );

  test('GIVEN dist/gitops THEN the ApplicationSet is accepted by its CRD schema, its waves follow the clusters and its paths exist', () => {
    const objects = objectsIn(path.join(DIST, 'gitops'));
    expect(objects.map((o) => o.kind)).toEqual(['ApplicationSet']);
    expect(crdSchemaErrors(objects)).toEqual([]);
    const elements = objects[0].spec.generators[0].list.elements;
    expect(elements.map((e: any) => [e.cluster, e.wave])).toEqual(FLEET_CLUSTERS.map((c) => [c.name, String(c.wave ?? 0)]));
    // The repository is this one: repoPath "dist" holds the fleet.
    for (const e of elements) expect([e.path, fs.existsSync(path.join(ROOT, e.path))]).toEqual([e.path, true]);
    expect(objects[0].spec.strategy.rollingSync.steps.map((s: any) => s.matchExpressions[0].values)).toEqual([['0'], ['1'], ['2']]);
  });
});
