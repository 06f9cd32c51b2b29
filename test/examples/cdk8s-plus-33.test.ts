/**
 * An app made the way `cdk8s init typescript-app` makes one today: cdk8s-plus-33 for the app's own objects, with node
 * services from this library beside them. The library keeps its own Kubernetes 1.28 L1 types (cdk8s-plus-28, a peer
 * dependency); both sit on the same cdk8s and constructs, so they share one App, one Chart and one synthesis.
 */
import { App, Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { LogAgent, Mount, NodeServiceChecks } from '../../src';
import { validateAll } from '../support/schema';

function build(app: App): { chart: Chart; daemonSet: kplus.DaemonSet } {
  const chart = new Chart(app, 'platform', { namespace: 'node-services' });
  const config = new kplus.ConfigMap(chart, 'fluent-bit-config', {
    metadata: { name: 'fluent-bit-config' },
    data: { 'fluent-bit.conf': '[SERVICE]\n' },
  });
  new kplus.Deployment(chart, 'log-backend', {
    containers: [
      { image: 'registry.example.com/log-backend:2.1.0', portNumber: 8080, resources: { memory: { limit: Size.mebibytes(256) } } },
    ],
  });
  new LogAgent(chart, 'logs', {
    name: 'fluent-bit',
    image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
    mounts: [Mount.configMap(config.name, '/fluent-bit/etc')],
  });
  // A DaemonSet of the app's own, written with cdk8s-plus-33: checked by the same rules at synth.
  const daemonSet = new kplus.DaemonSet(chart, 'legacy-agent', {
    containers: [
      {
        image: 'registry.example.com/legacy-agent:4.2.0',
        resources: { memory: { request: Size.mebibytes(64), limit: Size.mebibytes(128) } },
      },
    ],
  });
  return { chart, daemonSet };
}

describe('an app on cdk8s-plus-33 with node services', () => {
  test('GIVEN cdk8s-plus-33 objects and a LogAgent in one chart WHEN synthesized THEN both are in the output, and every object is valid', () => {
    const { chart } = build(Testing.app());
    const manifests = Testing.synth(chart);
    const kinds = manifests.map((m) => `${m.kind}/${m.metadata.name}`);
    expect(kinds).toContain('DaemonSet/fluent-bit');
    expect(kinds).toContain('ConfigMap/fluent-bit-config');
    expect(kinds.some((k) => k.startsWith('Deployment/'))).toBe(true);
    const fluentBit = manifests.find((m) => m.kind === 'DaemonSet' && m.metadata.name === 'fluent-bit');
    expect(fluentBit.spec.template.spec.volumes).toContainEqual(
      expect.objectContaining({ configMap: expect.objectContaining({ name: 'fluent-bit-config' }) }),
    );
    validateAll(manifests);
  });

  test('GIVEN a cdk8s-plus-33 DaemonSet in the app THEN the synth-time checks see it too', () => {
    const app = Testing.app();
    build(app);
    const checks = NodeServiceChecks.of(app);
    app.synth();
    const findings = checks.lastReport?.findings ?? [];
    const legacy = findings.filter((f) => f.object.name.includes('legacy-agent'));
    expect(legacy.map((f) => f.ruleId)).toContain('capabilities-not-dropped');
  });
});
