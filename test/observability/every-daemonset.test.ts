import { Chart, Testing } from 'cdk8s';
import { Canary, LogAgent, NetworkPeer, NodePool, Variant } from '../../src';
import { NodeServiceAlerts } from '../../src/observability';
import { alertTargetOf as pick } from '../support/app';
import { errorOf, testChart } from '../support/synth';
import { validatePodMonitor, validatePrometheusRule } from './monitoring-schema';
import { promqlErrors, vectorSelectors } from './promql';

/** Whether a PromQL matcher `[op, value]` accepts `value` (regular expressions anchored, as in Prometheus). */
function accepts([op, pattern]: [string, string], value: string): boolean {
  if (op === '=') return pattern === value;
  if (op === '=~') return new RegExp(`^(?:${pattern})$`).test(value);
  throw new Error(`unexpected matcher ${op}`);
}

function alertsFor(build: (chart: Chart) => LogAgent): any[] {
  const chart = testChart();
  const agent = build(chart);
  new NodeServiceAlerts(chart, 'alerts', { services: [{ ...pick(agent), metrics: { port: 'http' } }] });
  return Testing.synth(chart);
}

describe('every DaemonSet of a service is watched', () => {
  const objects = alertsFor(
    (chart) =>
      new LogAgent(chart, 'logs', {
        name: 'fluent-bit',
        image: 'fluent/fluent-bit:3.1.9',
        canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'fluent/fluent-bit:3.2.0' }),
      }),
  );
  const rule = objects.find((o) => o.kind === 'PrometheusRule');
  const monitor = objects.find((o) => o.kind === 'PodMonitor');

  test('every DaemonSet selector of every alert accepts the stable and the canary DaemonSet, and nothing else', () => {
    validatePrometheusRule(rule);
    let checked = 0;
    for (const r of rule.spec.groups.flatMap((g: any) => g.rules)) {
      expect(promqlErrors(r.expr)).toEqual([]);
      for (const sel of vectorSelectors(r.expr)) {
        const m = sel.matchers.daemonset ?? sel.matchers.owner_name;
        if (!m) continue;
        checked++;
        expect([
          r.alert,
          accepts(m, 'fluent-bit'),
          accepts(m, 'fluent-bit-canary'),
          accepts(m, 'fluent-bit-x'),
          accepts(m, 'fluent'),
        ]).toEqual([r.alert, true, true, false, false]);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  test('the PodMonitor selects the pods of both DaemonSets, which the track label tells apart', () => {
    validatePodMonitor(monitor);
    const daemonSets = objects.filter((o) => o.kind === 'DaemonSet');
    expect(daemonSets.map((d) => [d.metadata.name, d.spec.template.metadata.labels['node-services.cdk8s.io/track']])).toEqual([
      ['fluent-bit', 'stable'],
      ['fluent-bit-canary', 'canary'],
    ]);
    for (const ds of daemonSets) {
      for (const [k, v] of Object.entries(monitor.spec.selector.matchLabels))
        expect([ds.metadata.name, ds.spec.template.metadata.labels[k]]).toEqual([ds.metadata.name, v]);
      // The selector stays the immutable pair.
      expect(Object.keys(ds.spec.selector.matchLabels).sort()).toEqual(['app.kubernetes.io/instance', 'app.kubernetes.io/name']);
    }
  });

  describe('with variants, a canary of a variant and a Windows variant', () => {
    const gpu = NodePool.gpu();
    const edge = NodePool.edge();
    let networkPolicy: any;
    const withVariants = alertsFor((chart) => {
      const agent = new LogAgent(chart, 'logs', {
        name: 'fluent-bit',
        image: 'fluent/fluent-bit:3.1.9',
        pools: [NodePool.all(), gpu, edge],
        canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'fluent/fluent-bit:3.2.0' }),
        networkPolicy: { ingress: [{ ports: ['http'], from: [NetworkPeer.namespace('monitoring')] }] },
        variants: [
          Variant.forPool('gpu', gpu, { resources: { cpuRequest: '200m', memoryRequest: '256Mi', memoryLimit: '1Gi' } }),
          Variant.forPool('edge', edge, { canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'fluent/fluent-bit:3.2.0' }) }),
          Variant.windows('windows', {
            image: 'fluent/fluent-bit:3.1.9-windows-2022',
            reason: 'reads the container logs as a host process',
          }),
        ],
      });
      networkPolicy = agent.networkPolicy;
      return agent;
    });
    const names = ['fluent-bit', 'fluent-bit-canary', 'fluent-bit-gpu', 'fluent-bit-edge', 'fluent-bit-edge-canary', 'fluent-bit-windows'];

    test('every DaemonSet selector of every alert accepts each of the six DaemonSets, and nothing else', () => {
      const rule = withVariants.find((o) => o.kind === 'PrometheusRule');
      validatePrometheusRule(rule);
      expect(withVariants.filter((o) => o.kind === 'DaemonSet').map((d) => d.metadata.name)).toEqual(names);
      let checked = 0;
      for (const r of rule.spec.groups.flatMap((g: any) => g.rules)) {
        expect(promqlErrors(r.expr)).toEqual([]);
        for (const sel of vectorSelectors(r.expr)) {
          const m = sel.matchers.daemonset ?? sel.matchers.owner_name;
          if (!m) continue;
          checked++;
          expect([r.alert, ...names.map((n) => accepts(m, n)), accepts(m, 'fluent-bit-x')]).toEqual([
            r.alert,
            ...names.map(() => true),
            false,
          ]);
        }
      }
      expect(checked).toBeGreaterThanOrEqual(10);
    });

    test('the PodMonitor and the NetworkPolicy select the pods of every DaemonSet', () => {
      const monitor = withVariants.find((o) => o.kind === 'PodMonitor');
      validatePodMonitor(monitor);
      const policy = withVariants.find((o) => o.kind === 'NetworkPolicy');
      expect(policy.metadata.name).toBe(networkPolicy.name);
      const daemonSets = withVariants.filter((o) => o.kind === 'DaemonSet');
      for (const selector of [monitor.spec.selector.matchLabels, policy.spec.podSelector.matchLabels])
        for (const ds of daemonSets)
          for (const [k, v] of Object.entries(selector))
            expect([ds.metadata.name, k, ds.spec.template.metadata.labels[k]]).toEqual([ds.metadata.name, k, v]);
    });
  });

  test('without a canary the expressions match the one DaemonSet exactly', () => {
    const single = alertsFor((chart) => new LogAgent(chart, 'logs', { name: 'vector', image: 'timberio/vector:0.40.0-debian' }));
    const r = single.find((o) => o.kind === 'PrometheusRule');
    expect(r.spec.groups[0].rules[0].expr).toContain('daemonset="vector"');
  });

  test('dots in DaemonSet names are matched literally', () => {
    const chart = testChart();
    new NodeServiceAlerts(chart, 'alerts', {
      services: [{ name: 'agent.v2', namespace: 'ns', kind: 'log-agent', daemonSetNames: ['agent.v2', 'agent.v2-canary'] }],
    });
    const expr = Testing.synth(chart)[0].spec.groups[0].rules[0].expr;
    const m = vectorSelectors(expr)[0].matchers.daemonset;
    expect([accepts(m, 'agent.v2'), accepts(m, 'agent.v2-canary'), accepts(m, 'agentxv2')]).toEqual([true, true, false]);
  });

  test('wrong input: daemonSetNames of the wrong type, empty, or with an invalid name; podSelector with a bad label', () => {
    const alertsError = (target: any): string =>
      errorOf(
        (scope) => new NodeServiceAlerts(scope, 'alerts', { services: [{ name: 'x', namespace: 'ns', kind: 'log-agent', ...target }] }),
      );
    expect(alertsError({ daemonSetNames: 'x' })).toContain('services[0].daemonSetNames');
    expect(alertsError({ daemonSetNames: [] })).toContain('must name at least one DaemonSet');
    expect(alertsError({ daemonSetNames: ['x', 'Bad_Name'] })).toContain('services[0].daemonSetNames[1]');
    expect(alertsError({ podSelector: { 'bad key!': 'v' } })).toContain('services[0].podSelector');
  });
});
