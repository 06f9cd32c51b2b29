import { ApiObject, App, JsonPatch, Testing } from 'cdk8s';
import { buildPlatform } from '../../examples/platform';
import { CONFIG_HASH_ANNOTATION } from '../../src';
import { vectorSelectors } from '../observability/promql';

function platform(): { app: App; objects: () => any[] } {
  const app = Testing.app();
  const { agents } = buildPlatform(app);
  return { app, objects: () => Testing.synth(agents) };
}

function daemonSet(objects: any[], name: string): any {
  return objects.find((o) => o.kind === 'DaemonSet' && o.metadata.name === name);
}

/** Whether a PromQL matcher `[op, value]` accepts `value` (regular expressions are anchored, as in Prometheus). */
function accepts([op, pattern]: [string, string], value: string): boolean {
  if (op === '=') return pattern === value;
  if (op === '=~') return new RegExp(`^(?:${pattern})$`).test(value);
  throw new Error(`unexpected matcher ${op}`);
}

describe('examples: the log agent', () => {
  test('the pod template carries a hash of its ConfigMap that changes when the ConfigMap content changes', () => {
    const { app, objects } = platform();
    const before = daemonSet(objects(), 'fluent-bit').spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION];
    const canaryBefore = daemonSet(objects(), 'fluent-bit-canary').spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION];
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    const config = app.node
      .findAll()
      .find((c) => ApiObject.isApiObject(c) && c.kind === 'ConfigMap' && c.name === 'fluent-bit-config') as ApiObject;
    config.addJsonPatch(JsonPatch.replace('/data/fluent-bit.conf', '[SERVICE]\n    Flush 1\n'));
    const after = daemonSet(objects(), 'fluent-bit').spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION];
    expect(after).toMatch(/^[0-9a-f]{64}$/);
    expect(after).not.toBe(before);
    // The canary mounts the next configuration: its hash does not move with the stable one.
    expect(daemonSet(objects(), 'fluent-bit-canary').spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION]).toBe(canaryBefore);
  });

  test('the alerts and the PodMonitor select the canary DaemonSet and its pods too', () => {
    const { objects } = platform();
    const all = objects();
    const stable = daemonSet(all, 'fluent-bit');
    const canary = daemonSet(all, 'fluent-bit-canary');
    expect([stable.metadata.labels['node-services.cdk8s.io/track'], canary.metadata.labels['node-services.cdk8s.io/track']]).toEqual([
      'stable',
      'canary',
    ]);
    const rule = all.find((o) => o.kind === 'PrometheusRule' && o.metadata.name === 'fluent-bit-alerts');
    const exprs: string[] = rule.spec.groups.flatMap((g: any) => g.rules.map((r: any) => r.expr));
    let checked = 0;
    for (const expr of exprs) {
      for (const sel of vectorSelectors(expr)) {
        const m = sel.matchers.daemonset ?? sel.matchers.owner_name;
        if (!m) continue;
        checked++;
        expect([expr, accepts(m, 'fluent-bit'), accepts(m, 'fluent-bit-canary'), accepts(m, 'fluent-bit-other')]).toEqual([
          expr,
          true,
          true,
          false,
        ]);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
    const monitor = all.find((o) => o.kind === 'PodMonitor' && o.metadata.name === 'fluent-bit');
    for (const ds of [stable, canary]) {
      for (const [k, v] of Object.entries(monitor.spec.selector.matchLabels))
        expect([ds.metadata.name, k, ds.spec.template.metadata.labels[k]]).toEqual([ds.metadata.name, k, v]);
    }
  });
});

describe('examples: the log agent variants', () => {
  const all = platform().objects();
  const names = ['fluent-bit', 'fluent-bit-canary', 'fluent-bit-gpu', 'fluent-bit-edge', 'fluent-bit-windows'];

  test('two pool variants (GPU resources, edge configuration) and a Windows variant, each a DaemonSet of the service', () => {
    const mine = all.filter((o) => o.kind === 'DaemonSet' && o.metadata.labels['app.kubernetes.io/name'] === 'fluent-bit');
    expect(mine.map((d) => [d.metadata.name, d.metadata.labels['node-services.cdk8s.io/variant']])).toEqual([
      ['fluent-bit', undefined],
      ['fluent-bit-canary', undefined],
      ['fluent-bit-gpu', 'gpu'],
      ['fluent-bit-edge', 'edge'],
      ['fluent-bit-windows', 'windows'],
    ]);
    const main = (name: string) => daemonSet(all, name).spec.template.spec.containers[0];
    expect(main('fluent-bit-gpu').resources.limits.memory).toBe('512Mi');
    expect(main('fluent-bit').resources.limits.memory).toBe('256Mi');
    const configOf = (name: string) => daemonSet(all, name).spec.template.spec.volumes.find((v: any) => v.configMap)?.configMap.name;
    expect(names.map(configOf)).toEqual([
      'fluent-bit-config',
      'fluent-bit-config-next',
      'fluent-bit-config',
      'fluent-bit-config-edge',
      'fluent-bit-config-windows',
    ]);
    const windows = daemonSet(all, 'fluent-bit-windows').spec.template.spec;
    expect([windows.os, windows.hostNetwork, windows.securityContext.windowsOptions.hostProcess]).toEqual([
      { name: 'windows' },
      true,
      true,
    ]);
  });

  test('the alerts, the PodMonitor and the NetworkPolicy select every variant', () => {
    const rule = all.find((o) => o.kind === 'PrometheusRule' && o.metadata.name === 'fluent-bit-alerts');
    for (const expr of rule.spec.groups.flatMap((g: any) => g.rules.map((r: any) => r.expr)))
      for (const sel of vectorSelectors(expr)) {
        const m = sel.matchers.daemonset ?? sel.matchers.owner_name;
        if (m) expect([expr, ...names.map((n) => accepts(m, n))]).toEqual([expr, ...names.map(() => true)]);
      }
    const monitor = all.find((o) => o.kind === 'PodMonitor' && o.metadata.name === 'fluent-bit');
    const policy = all.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'fluent-bit');
    for (const name of names)
      for (const selector of [monitor.spec.selector.matchLabels, policy.spec.podSelector.matchLabels])
        for (const [k, v] of Object.entries(selector))
          expect([name, k, daemonSet(all, name).spec.template.metadata.labels[k]]).toEqual([name, k, v]);
  });
});

describe('examples: pod plumbing and node-local access', () => {
  const { objects } = platform();
  const all = objects();

  test('a node-local Service selects the log agent pods of both tracks', () => {
    const svc = all.find((o) => o.kind === 'Service' && o.metadata.name === 'fluent-bit-local');
    expect(svc.spec.internalTrafficPolicy).toBe('Local');
    for (const name of ['fluent-bit', 'fluent-bit-canary']) {
      const labels = daemonSet(all, name).spec.template.metadata.labels;
      for (const [k, v] of Object.entries(svc.spec.selector)) expect([name, k, labels[k]]).toEqual([name, k, v]);
    }
  });

  test('a NetworkPolicy admits only the monitoring and tenant namespaces to the log agent HTTP port, for both tracks', () => {
    const np = all.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'fluent-bit');
    expect(np.spec.policyTypes).toEqual(['Ingress']);
    expect(np.spec.ingress.map((r: any) => r.ports)).toEqual([[{ port: 2020, protocol: 'TCP' }]]);
    for (const name of ['fluent-bit', 'fluent-bit-canary']) {
      const labels = daemonSet(all, name).spec.template.metadata.labels;
      for (const [k, v] of Object.entries(np.spec.podSelector.matchLabels)) expect([name, k, labels[k]]).toEqual([name, k, v]);
    }
  });

  test('the GPU monitor pulls with an image pull secret; the metrics agent runs a sidecar with the secure defaults', () => {
    expect(daemonSet(all, 'dcgm-exporter').spec.template.spec.imagePullSecrets).toEqual([{ name: 'ngc-registry' }]);
    const pod = daemonSet(all, 'node-exporter').spec.template.spec;
    const sidecar = pod.containers.find((c: any) => c.name === 'textfile-metrics');
    expect(sidecar.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(pod.volumes.filter((v: any) => v.name === 'textfile')).toHaveLength(1);
  });
});
