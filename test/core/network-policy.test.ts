import { App, Chart } from 'cdk8s';
import { Canary, MonitoringAgent, NetworkPeer, NodeService, NodeServiceChecks, NodeServiceProps, Probe, Protocol } from '../../src';
import { validateAll } from '../support/schema';
import { errorOf, only, synth, testChart } from '../support/synth';

const base: NodeServiceProps = {
  name: 'otel',
  containers: [
    {
      name: 'collector',
      image: 'otel/opentelemetry-collector:0.110.0',
      ports: [
        { name: 'otlp-grpc', containerPort: 4317 },
        { name: 'statsd', containerPort: 8125, protocol: Protocol.UDP },
        { name: 'metrics', containerPort: 8888 },
      ],
      readiness: Probe.httpGet('/', 'metrics'),
    },
  ],
};

describe('networkPolicy', () => {
  test('ingress only to the declared ports from the declared sources, selecting the pods of both tracks', () => {
    const chart = testChart();
    new NodeService(chart, 'svc', {
      ...base,
      canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'otel/opentelemetry-collector:0.111.0' }),
      networkPolicy: {
        ingress: [
          { ports: ['metrics'], from: [NetworkPeer.namespace('monitoring')] },
          { ports: ['otlp-grpc', 'statsd'], from: [NetworkPeer.namespacesWithLabels({ team: 'apps' }), NetworkPeer.pods({ app: 'web' })] },
        ],
      },
    });
    const objects = synth(chart);
    validateAll(objects);
    const np = only(objects, 'NetworkPolicy');
    expect(np.spec.policyTypes).toEqual(['Ingress']);
    expect(np.spec.egress).toBeUndefined();
    expect(np.spec.ingress).toEqual([
      {
        ports: [{ port: 8888, protocol: 'TCP' }],
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
      },
      {
        ports: [
          { port: 4317, protocol: 'TCP' },
          { port: 8125, protocol: 'UDP' },
        ],
        from: [{ namespaceSelector: { matchLabels: { team: 'apps' } } }, { podSelector: { matchLabels: { app: 'web' } } }],
      },
    ]);
    for (const ds of objects.filter((o) => o.kind === 'DaemonSet')) {
      for (const [k, v] of Object.entries(np.spec.podSelector.matchLabels))
        expect([ds.metadata.name, ds.spec.template.metadata.labels[k]]).toEqual([ds.metadata.name, v]);
    }
  });

  test('no ingress rule denies all ingress; egress rules restrict egress', () => {
    const chart = testChart();
    new NodeService(chart, 'svc', {
      ...base,
      networkPolicy: {
        egress: [
          { to: [NetworkPeer.pods({ 'k8s-app': 'kube-dns' }, 'kube-system')], ports: [{ port: 53, protocol: Protocol.UDP }, { port: 53 }] },
          { to: [NetworkPeer.cidr('10.0.0.0/8', ['10.1.0.0/16'])] },
        ],
      },
    });
    const objects = synth(chart);
    validateAll(objects);
    const np = only(objects, 'NetworkPolicy');
    expect(np.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(np.spec.ingress).toEqual([]);
    expect(np.spec.egress).toEqual([
      {
        to: [
          {
            podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
          },
        ],
        ports: [
          { port: 53, protocol: 'UDP' },
          { port: 53, protocol: 'TCP' },
        ],
      },
      { to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }] },
    ]);
  });

  test('a host-network service gets a synth-time warning that the NetworkPolicy does not apply', () => {
    const app = new App({ outdir: require('os').tmpdir() + '/cdk8s-node-services-test' });
    const warnings: string[] = [];
    NodeServiceChecks.of(app, { logger: { log: (m: string) => void warnings.push(m) } });
    const chart = new Chart(app, 'c');
    new MonitoringAgent(chart, 'metrics', {
      image: 'quay.io/prometheus/node-exporter:v1.8.2',
      networkPolicy: { ingress: [{ ports: ['metrics'], from: [NetworkPeer.namespace('monitoring')] }] },
    });
    new NodeService(chart, 'pod-network', { ...base, networkPolicy: {} });
    app.synth();
    expect(warnings.join('').match(/network-policy-host-network: \[c\/metrics\] the pods use the host network/g)).toHaveLength(1);
    expect(warnings.join('')).not.toContain('network-policy-host-network: [c/pod-network]');
  });

  test('GIVEN hostNetworkReason THEN the warning is not printed and the NetworkPolicy is still written; a reason too short is refused', () => {
    const app = new App({ outdir: require('os').tmpdir() + '/cdk8s-node-services-test' });
    const warnings: string[] = [];
    NodeServiceChecks.of(app, { logger: { log: (m: string) => void warnings.push(m) } });
    const chart = new Chart(app, 'c');
    new MonitoringAgent(chart, 'metrics', {
      image: 'quay.io/prometheus/node-exporter:v1.8.2',
      networkPolicy: {
        ingress: [{ ports: ['metrics'], from: [NetworkPeer.namespace('monitoring')] }],
        hostNetworkReason: 'the nodes firewall admits only the monitoring subnet to port 9100',
      },
    });
    app.synth();
    expect(warnings.join('')).not.toContain('network-policy-host-network');
    expect(chart.toJson().filter((o: any) => o.kind === 'NetworkPolicy')).toHaveLength(1);
    const message = errorOf(
      (s) =>
        new MonitoringAgent(s, 'metrics', {
          image: 'quay.io/prometheus/node-exporter:v1.8.2',
          networkPolicy: { ingress: [{ ports: ['metrics'], from: [NetworkPeer.namespace('monitoring')] }], hostNetworkReason: 'ok' },
        }),
    );
    expect(message).toContain('networkPolicy.hostNetworkReason = "ok"');
  });

  test('wrong input: types, unknown ports, empty sources, bad peers', () => {
    expect(errorOf((s) => new NodeService(s, 'svc', { ...base, networkPolicy: { ingress: {} as any } }))).toContain(
      'networkPolicy.ingress',
    );
    expect(
      errorOf(
        (s) => new NodeService(s, 'svc', { ...base, networkPolicy: { ingress: [{ ports: ['metrics'], from: ['monitoring'] as any }] } }),
      ),
    ).toContain('networkPolicy.ingress[0].from[0]');
    const message = errorOf(
      (s) =>
        new NodeService(s, 'svc', {
          ...base,
          networkPolicy: {
            ingress: [
              { ports: ['metrics', 'admin'], from: [] },
              { ports: ['metrics'], from: [NetworkPeer.namespacesWithLabels({ 'bad key!': 'x' }), NetworkPeer.cidr('10.0.0.0/33')] },
            ],
            egress: [{ to: [NetworkPeer.cidr('example.com')], ports: [{ port: 70000 }] }],
          },
        }),
    );
    expect(message).toContain('networkPolicy.ingress[0].ports[1] = "admin": names no port of the containers');
    expect(message).toContain('networkPolicy.ingress[0].from = []: names no source');
    expect(message).toContain('networkPolicy.ingress[1].from[0].namespaceSelector["bad key!"]');
    expect(message).toContain('networkPolicy.ingress[1].from[1].cidr = "10.0.0.0/33": prefix length must be at most 32');
    expect(message).toContain('networkPolicy.egress[0].to[0].cidr = "example.com"');
    expect(message).toContain('networkPolicy.egress[0].ports[0].port = 70000');
  });
});
