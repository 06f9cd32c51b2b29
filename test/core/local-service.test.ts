import { Canary, LogAgent, NodeService, NodeServiceProps, Probe, Protocol } from '../../src';
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
        { name: 'health', containerPort: 13133 },
      ],
      readiness: Probe.httpGet('/', 'health'),
    },
  ],
};

describe('localService', () => {
  test('a Service with internalTrafficPolicy Local for every named port, selecting the pods of both tracks', () => {
    const chart = testChart();
    new NodeService(chart, 'svc', {
      ...base,
      localService: {},
      canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'otel/opentelemetry-collector:0.111.0' }),
    });
    const objects = synth(chart);
    validateAll(objects);
    const svc = only(objects, 'Service');
    expect(svc.metadata).toMatchObject({ name: 'otel', namespace: 'node-services' });
    expect(svc.spec.internalTrafficPolicy).toBe('Local');
    expect(svc.spec.ports).toEqual([
      { name: 'otlp-grpc', port: 4317, targetPort: 'otlp-grpc' },
      { name: 'statsd', port: 8125, targetPort: 'statsd', protocol: 'UDP' },
      { name: 'health', port: 13133, targetPort: 'health' },
    ]);
    const daemonSets = objects.filter((o) => o.kind === 'DaemonSet');
    expect(daemonSets).toHaveLength(2);
    for (const ds of daemonSets) {
      for (const [k, v] of Object.entries(svc.spec.selector))
        expect([ds.metadata.name, ds.spec.template.metadata.labels[k]]).toEqual([ds.metadata.name, v]);
    }
  });

  test('a chosen name and ports, on a preset', () => {
    const chart = testChart();
    const agent = new LogAgent(chart, 'logs', {
      image: 'fluent/fluent-bit:3.1.9',
      localService: { name: 'logs-local', portNames: ['http'] },
    });
    const svc = only(synth(chart), 'Service');
    expect(svc.metadata.name).toBe('logs-local');
    expect(svc.spec.ports).toEqual([{ name: 'http', port: 2020, targetPort: 'http' }]);
    expect(agent.localService).toBeDefined();
  });

  test('no Service without localService', () => {
    const chart = testChart();
    new NodeService(chart, 'svc', base);
    expect(synth(chart).filter((o) => o.kind === 'Service')).toEqual([]);
  });

  test('wrong input: type, a bad name, an unknown port, no ports', () => {
    expect(errorOf((s) => new NodeService(s, 'svc', { ...base, localService: true as any }))).toContain('localService');
    expect(errorOf((s) => new NodeService(s, 'svc', { ...base, localService: { portNames: 'http' as any } }))).toContain(
      'localService.portNames',
    );
    const message = errorOf(
      (s) => new NodeService(s, 'svc', { ...base, localService: { name: '1otel', portNames: ['otlp-grpc', 'metrics'] } }),
    );
    expect(message).toContain('localService.name = "1otel": must start with a lower-case letter (DNS-1035 label)');
    expect(message).toContain('localService.portNames[1] = "metrics": names no port of the containers');
    const noPorts = errorOf(
      (s) =>
        new NodeService(s, 'svc', {
          name: 'x',
          containers: [{ name: 'c', image: 'r/x:1.0', readiness: Probe.exec(['true']) }],
          localService: {},
        }),
    );
    expect(noPorts).toContain('exposes no port');
  });
});
