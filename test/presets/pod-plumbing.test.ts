import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { DnsPolicy, HostPath, ImagePullSecret, LogAgent, MonitoringAgent, NodeService, Probe } from '../../src';
import { validateAll } from '../support/schema';
import { errorOf, only, synth, testChart } from '../support/synth';
import { ErrorRow } from '../support/table';

/** Builds constructs in a scope. */
type Build = (scope: Construct) => void;

/** GIVEN the constructs of a row WHEN built THEN the one error holds each wanted text. */
function expectRefused({ input, want }: ErrorRow<Build>): void {
  const message = errorOf(input);
  for (const text of want) expect(message).toContain(text);
}

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

  describe('wrong input: a string, a bad name, a duplicate', () => {
    const image = 'quay.io/prometheus/node-exporter:v1.8.2';
    test.each<ErrorRow<Build>>([
      {
        name: 'a string',
        input: (s) => new MonitoringAgent(s, 'm', { image, imagePullSecrets: ['regcred'] as any }),
        want: ['imagePullSecrets[0]'],
      },
      {
        name: 'a bad name and a duplicate',
        input: (s) =>
          new MonitoringAgent(s, 'm', {
            image,
            imagePullSecrets: [ImagePullSecret.fromName('Reg_Cred'), ImagePullSecret.fromName('a'), ImagePullSecret.fromName('a')],
          }),
        want: ['imagePullSecrets[0] = "Reg_Cred"', 'imagePullSecrets[2] = "a": is listed twice'],
      },
    ])('$name', expectRefused);
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

  describe('wrong input: not a list, an element of the wrong type', () => {
    const image = 'fluent/fluent-bit:3.1.9';
    test.each<ErrorRow<Build>>([
      { name: 'not a list', input: (s) => new LogAgent(s, 'logs', { image, sidecars: shipper as any }), want: ['sidecars'] },
      {
        name: 'an element of the wrong type',
        input: (s) => new LogAgent(s, 'logs', { image, extraInitContainers: [42] as any }),
        want: ['extraInitContainers[0]'],
      },
    ])('$name', expectRefused);
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

  describe('wrong input', () => {
    const image = 'fluent/fluent-bit:3.1.9';
    test.each<ErrorRow<Build>>([
      {
        name: 'a runtimeClassName of the wrong type',
        input: (s) => new LogAgent(s, 'l', { image, runtimeClassName: 7 as any }),
        want: ['runtimeClassName'],
      },
      {
        name: 'a runtimeClassName with upper-case letters',
        input: (s) => new LogAgent(s, 'l', { image, runtimeClassName: 'NVIDIA' }),
        want: ['runtimeClassName = "NVIDIA"'],
      },
      {
        name: 'host aliases with a bad IP, a bad hostname and no hostnames',
        input: (s) =>
          new LogAgent(s, 'l', {
            image,
            hostAliases: [
              { ip: '10.0.0.300', hostnames: ['Bad_Host'] },
              { ip: '::1', hostnames: [] },
            ],
          }),
        want: [
          'hostAliases[0].ip = "10.0.0.300": must be an IP address',
          'hostAliases[0].hostnames[0] = "Bad_Host"',
          'hostAliases[1].hostnames = []',
        ],
      },
      {
        name: 'a nameserver that is not an IP address',
        input: (s) => new LogAgent(s, 'l', { image, dnsConfig: { nameservers: ['dns.example.com'] } }),
        want: ['must be an IP address'],
      },
      {
        name: 'dnsConfig options that are not a map',
        input: (s) => new LogAgent(s, 'l', { image, dnsConfig: { options: 'ndots:2' as any } }),
        want: ['dnsConfig.options'],
      },
      {
        name: 'DnsPolicy.NONE without a dnsConfig',
        input: (s) =>
          new NodeService(s, 'svc', {
            name: 'x',
            containers: [{ name: 'c', image: 'registry.example.com/c:1.0.0' }],
            dnsPolicy: DnsPolicy.NONE,
          }),
        want: ["dnsPolicy 'None' needs a dnsConfig with at least one nameserver"],
      },
    ])('$name', expectRefused);
  });
});
