/**
 * The alerts and monitors checked against their App at synth: they must select every DaemonSet of each service (the
 * canary and the variants too), and a PodMonitor must select the pods of each of them and find the metrics port.
 */

import { Chart } from 'cdk8s';
import { Canary, LogAgent, Variant } from '../../src';
import { NodeServiceAlerts } from '../../src/observability';
import { alertTargetOf as pick, app, synthError } from '../support/app';

const image = 'cr.fluentbit.io/fluent/fluent-bit:3.1.9';

function agentWithCanary(chart: Chart): LogAgent {
  return new LogAgent(chart, 'logs', {
    name: 'fluent-bit',
    image,
    canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'cr.fluentbit.io/fluent/fluent-bit:3.2.0' }),
  });
}

describe('NodeServiceAlerts select every DaemonSet of the services they watch', () => {
  test('GIVEN a service with a canary, targeted by name only WHEN synthesized THEN synthesis fails naming the canary DaemonSet and the fix', () => {
    const { app: a, chart } = app();
    agentWithCanary(chart);
    new NodeServiceAlerts(chart, 'alerts', { services: [{ name: 'fluent-bit', namespace: 'node-services', kind: 'log-agent' }] });
    const message = synthError(a);
    expect(message).toContain(
      '[c/alerts] alerts-miss-daemonset: services[0] (node-services/fluent-bit) alerts on DaemonSet fluent-bit but the App also runs fluent-bit-canary for the service',
    );
    expect(message).toContain("set daemonSetNames: ['fluent-bit', 'fluent-bit-canary']");
  });

  test('GIVEN a service with a variant, targeted with the stable DaemonSet only THEN the variant DaemonSet is named', () => {
    const { app: a, chart } = app();
    const agent = new LogAgent(chart, 'logs', {
      name: 'fluent-bit',
      image,
      variants: [Variant.byNodeLabel('arm64', 'kubernetes.io/arch', ['arm64'], { image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9-arm64' })],
    });
    const variantNames = agent.daemonSetNames.filter((n) => n !== 'fluent-bit');
    expect(variantNames).toHaveLength(1);
    new NodeServiceAlerts(chart, 'alerts', {
      services: [{ name: 'fluent-bit', namespace: 'node-services', kind: 'log-agent', daemonSetNames: ['fluent-bit'] }],
    });
    expect(synthError(a)).toContain(`but the App also runs ${variantNames[0]} for the service`);
  });

  test('GIVEN the NodeService itself as the target, with a PodMonitor on its pod selector THEN it synthesizes', () => {
    const { app: a, chart, warnings } = app();
    const agent = agentWithCanary(chart);
    new NodeServiceAlerts(chart, 'alerts', { services: [{ ...pick(agent), metrics: { port: 'http' } }] });
    expect(() => a.synth()).not.toThrow();
    expect(warnings.join('')).not.toContain('alerts-');
  });

  test('GIVEN a PodMonitor selecting the stable track only THEN synthesis fails: the canary pods are never scraped', () => {
    const { app: a, chart } = app();
    const agent = agentWithCanary(chart);
    const stableLabels = (agent.daemonSet.toJson() as any).spec.template.metadata.labels;
    new NodeServiceAlerts(chart, 'alerts', { services: [{ ...pick(agent), podSelector: stableLabels, metrics: { port: 'http' } }] });
    const message = synthError(a);
    expect(message).toContain('pod-monitor-misses-daemonset: services[0] (node-services/fluent-bit) PodMonitor selects');
    expect(message).toContain('which the pods of DaemonSet fluent-bit-canary do not carry');
    expect(message).not.toContain('pods of DaemonSet fluent-bit do not carry');
  });

  test('GIVEN a metrics port the pods do not name THEN synthesis fails naming the port', () => {
    const { app: a, chart } = app();
    const agent = agentWithCanary(chart);
    new NodeServiceAlerts(chart, 'alerts', { services: [{ ...pick(agent), metrics: { port: 'metrics' } }] });
    expect(synthError(a)).toContain("PodMonitor scrapes port 'metrics', which no container of DaemonSet fluent-bit names");
  });

  test('GIVEN daemonSetNames that name a DaemonSet the App does not define THEN it synthesizes with a warning', () => {
    const { app: a, chart, warnings } = app();
    new LogAgent(chart, 'logs', { name: 'fluent-bit', image });
    new NodeServiceAlerts(chart, 'alerts', {
      services: [{ name: 'fluent-bit', namespace: 'node-services', kind: 'log-agent', daemonSetNames: ['fluent-bit', 'fluent-bit-old'] }],
    });
    expect(() => a.synth()).not.toThrow();
    expect(warnings.join('')).toContain(
      'alerts-unknown-daemonset: services[0] (node-services/fluent-bit) selects DaemonSet fluent-bit-old, which the App does not define (drop it from daemonSetNames) [c/alerts]',
    );
  });

  test('GIVEN alerts for a service the App does not run (deployed elsewhere) THEN it synthesizes without a finding', () => {
    const { app: a, chart, warnings } = app();
    new NodeServiceAlerts(chart, 'alerts', { services: [{ name: 'cilium', namespace: 'kube-system', kind: 'cni-plugin' }] });
    expect(() => a.synth()).not.toThrow();
    expect(warnings.join('')).not.toContain('alerts-');
  });
});
