import * as kplus from 'cdk8s-plus-28';
import { DnsPolicy, HostPath, ImagePullSecret, LogAgent, MonitoringAgent, NodeService, Probe } from '../../src';
import { validateAll } from '../support/schema';
import { errorOf, only, synth, testChart } from '../support/synth';

const shipper = {
  name: 'shipper',
  image: 'registry.example.com/shipper:1.0.0',
  ports: [{ name: 'shipper-http', containerPort: 8090 }],
  readiness: Probe.httpGet('/ready', 'shipper-http'),
  resources: { cpuRequest: '10m', memoryRequest: '16Mi', memoryLimit: '32Mi' },
};

describe('imagePullSecrets', () => {
  test('names and cdk8s-plus Secrets, on every preset', () => {
    const chart = testChart();
    const secret = new kplus.Secret(chart, 'regcred', { metadata: { name: 'regcred' }, type: 'kubernetes.io/dockerconfigjson' });
    new LogAgent(chart, 'logs', {
      image: 'fluent/fluent-bit:3.1.9',
      imagePullSecrets: [ImagePullSecret.fromSecret(secret), ImagePullSecret.fromName('mirror-credentials')],
    });
    const objects = synth(chart);
    validateAll(objects);
    expect(only(objects, 'DaemonSet').spec.template.spec.imagePullSecrets).toEqual([{ name: 'regcred' }, { name: 'mirror-credentials' }]);
  });

  test('wrong input: a string, a bad name, a duplicate', () => {
    expect(
      errorOf(
        (s) => new MonitoringAgent(s, 'm', { image: 'quay.io/prometheus/node-exporter:v1.8.2', imagePullSecrets: ['regcred'] as any }),
      ),
    ).toContain('imagePullSecrets[0]');
    const message = errorOf(
      (s) =>
        new MonitoringAgent(s, 'm', {
          image: 'quay.io/prometheus/node-exporter:v1.8.2',
          imagePullSecrets: [ImagePullSecret.fromName('Reg_Cred'), ImagePullSecret.fromName('a'), ImagePullSecret.fromName('a')],
        }),
    );
    expect(message).toContain('imagePullSecrets[0] = "Reg_Cred"');
    expect(message).toContain('imagePullSecrets[2] = "a": is listed twice');
  });
});

describe('sidecars and extra init containers on presets', () => {
  test('added after the preset containers, with the same secure defaults', () => {
    const chart = testChart();
    new LogAgent(chart, 'logs', {
      image: 'fluent/fluent-bit:3.1.9',
      sidecars: [shipper],
      extraInitContainers: [{ name: 'wait', image: 'registry.example.com/wait:1.0.0', command: ['/wait'] }],
    });
    const objects = synth(chart);
    validateAll(objects);
    const pod = only(objects, 'DaemonSet').spec.template.spec;
    expect(pod.containers.map((c: any) => c.name)).toEqual(['agent', 'shipper']);
    expect(pod.initContainers.map((c: any) => c.name)).toEqual(['wait']);
    for (const c of [pod.containers[1], pod.initContainers[0]]) {
      expect(c.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
        seccompProfile: { type: 'RuntimeDefault' },
      });
    }
  });

  test("held to the kind's allowlists, named as written", () => {
    const message = errorOf(
      (s) =>
        new LogAgent(s, 'logs', {
          image: 'fluent/fluent-bit:3.1.9',
          sidecars: [{ ...shipper, hostPaths: [HostPath.readOnly('/etc/kubernetes')], capabilities: ['SYS_ADMIN'] }],
          extraInitContainers: [{ name: 'agent', image: 'registry.example.com/wait:1.0.0' }],
        }),
    );
    expect(message).toMatch(/sidecars\[0\]\.hostPaths\[0\]/);
    expect(message).toMatch(/sidecars\[0\]\.capabilities/);
    expect(message).toMatch(/extraInitContainers\[0\]\.name = "agent": duplicates/);
    expect(message).not.toMatch(/containers\[1\]/);
  });

  test('wrong input: not a list, an element of the wrong type', () => {
    expect(errorOf((s) => new LogAgent(s, 'logs', { image: 'fluent/fluent-bit:3.1.9', sidecars: shipper as any }))).toContain('sidecars');
    expect(errorOf((s) => new LogAgent(s, 'logs', { image: 'fluent/fluent-bit:3.1.9', extraInitContainers: [42] as any }))).toContain(
      'extraInitContainers[0]',
    );
  });
});

describe('runtimeClassName, hostAliases, dnsConfig', () => {
  test('rendered on the pod, on presets too', () => {
    const chart = testChart();
    new LogAgent(chart, 'logs', {
      image: 'fluent/fluent-bit:3.1.9',
      runtimeClassName: 'gvisor',
      hostAliases: [{ ip: '10.0.0.10', hostnames: ['logs.internal', 'aggregator.internal'] }],
      dnsConfig: { searches: ['corp.example.com'], options: { ndots: '2', 'single-request-reopen': '' } },
    });
    const objects = synth(chart);
    validateAll(objects);
    const pod = only(objects, 'DaemonSet').spec.template.spec;
    expect(pod.runtimeClassName).toBe('gvisor');
    expect(pod.hostAliases).toEqual([{ ip: '10.0.0.10', hostnames: ['logs.internal', 'aggregator.internal'] }]);
    expect(pod.dnsConfig).toEqual({
      searches: ['corp.example.com'],
      options: [{ name: 'ndots', value: '2' }, { name: 'single-request-reopen' }],
    });
  });

  test('DnsPolicy.NONE with a dnsConfig on NodeService', () => {
    const chart = testChart();
    new NodeService(chart, 'svc', {
      name: 'resolver-test',
      containers: [{ name: 'c', image: 'registry.example.com/c:1.0.0', readiness: Probe.exec(['true']) }],
      dnsPolicy: DnsPolicy.NONE,
      dnsConfig: { nameservers: ['169.254.20.10'] },
    });
    const pod = only(synth(chart), 'DaemonSet').spec.template.spec;
    expect([pod.dnsPolicy, pod.dnsConfig]).toEqual(['None', { nameservers: ['169.254.20.10'] }]);
  });

  test('wrong input', () => {
    const image = 'fluent/fluent-bit:3.1.9';
    expect(errorOf((s) => new LogAgent(s, 'l', { image, runtimeClassName: 7 as any }))).toContain('runtimeClassName');
    expect(errorOf((s) => new LogAgent(s, 'l', { image, runtimeClassName: 'NVIDIA' }))).toContain('runtimeClassName = "NVIDIA"');
    const aliases = errorOf(
      (s) =>
        new LogAgent(s, 'l', {
          image,
          hostAliases: [
            { ip: '10.0.0.300', hostnames: ['Bad_Host'] },
            { ip: '::1', hostnames: [] },
          ],
        }),
    );
    expect(aliases).toContain('hostAliases[0].ip = "10.0.0.300": must be an IP address');
    expect(aliases).toContain('hostAliases[0].hostnames[0] = "Bad_Host"');
    expect(aliases).toContain('hostAliases[1].hostnames = []');
    expect(errorOf((s) => new LogAgent(s, 'l', { image, dnsConfig: { nameservers: ['dns.example.com'] } }))).toContain(
      'must be an IP address',
    );
    expect(errorOf((s) => new LogAgent(s, 'l', { image, dnsConfig: { options: 'ndots:2' as any } }))).toContain('dnsConfig.options');
    expect(
      errorOf(
        (s) =>
          new NodeService(s, 'svc', {
            name: 'x',
            containers: [{ name: 'c', image: 'registry.example.com/c:1.0.0' }],
            dnsPolicy: DnsPolicy.NONE,
          }),
      ),
    ).toContain("dnsPolicy 'None' needs a dnsConfig with at least one nameserver");
  });
});
