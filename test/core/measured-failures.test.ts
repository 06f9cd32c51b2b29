/**
 * Inputs that once crashed, produced YAML or produced unclear errors. Each must now be one clear NodeServiceError
 * naming the field as written (or, for the valid empty-key Exists toleration, be accepted).
 */

import { Construct } from 'constructs';
import {
  ApiPermission,
  Canary,
  ContainerRuntime,
  ContainerSpec,
  CsiNode,
  EnvSource,
  HostPath,
  LogAgent,
  MonitoringAgent,
  Mount,
  NodePool,
  NodeService,
  NodeServiceGuardrails,
  NodeServiceProps,
  NodeServicesNamespace,
  SecurityAgent,
  Toleration,
} from '../../src';
import { errorOf, propsErrorOf, synth, testChart } from '../support/synth';

const image = 'registry.example.com/agent:1.2.3';
const main: ContainerSpec = { name: 'main', image };

/** The problems `build` throws: [field, value] pairs (fails on anything but a NodeServiceError). */
function problems(build: (scope: Construct) => void): Array<[string, string]> {
  return propsErrorOf(build).problems.map((p) => [p.field, p.value]);
}

function service(
  props: Partial<NodeServiceProps> | Record<string, unknown>,
  container: Record<string, unknown> = {},
): (scope: Construct) => void {
  return (scope) => new NodeService(scope, 'svc', { name: 'agent', containers: [{ ...main, ...container }], ...props } as NodeServiceProps);
}

describe('crashes are now errors', () => {
  test.each<[string, (scope: Construct) => void, string]>([
    ['an undefined container', (s) => new NodeService(s, 'svc', { name: 'agent', containers: [undefined as any] }), 'containers[0]'],
    ['an undefined host path', service({}, { hostPaths: [undefined] }), 'containers[0].hostPaths[0]'],
    ['an undefined pool', service({ pools: [undefined as any] }), 'pools[0]'],
    [
      'HostPath.writable without options',
      (s) => service({}, { hostPaths: [(HostPath.writable as any)('/var/lib/agent')] })(s),
      'HostPath.writable(options)',
    ],
    ['a single Toleration for a list', service({ tolerations: Toleration.all() as any }), 'tolerations'],
    ['pools: 0', service({ pools: 0 as any }), 'pools'],
    ['command: 1', service({}, { command: 1 }), 'containers[0].command'],
    ["nodeAffinity: 'x'", service({ nodeAffinity: 'x' as any }), 'nodeAffinity'],
    ['a plain object for a Probe', service({}, { readiness: { httpGet: { path: '/', port: 80 } } }), 'containers[0].readiness'],
    ['a plain object for a Toleration', service({ tolerations: [{ key: 'a', operator: 'Exists' } as any] }), 'tolerations[0]'],
    [
      'a plain object for a Taint',
      (s) => service({ pools: [NodePool.of({ name: 'p', taints: [{ key: 'a', effect: 'NoSchedule' } as any] })] })(s),
      'NodePool.of(props.taints[0])',
    ],
  ])('%s', (_, build, field) => {
    expect(problems(build).map(([f]) => f)).toEqual([field]);
  });

  test('NodeServicesNamespace with a number as name', () => {
    expect(problems((s) => new NodeServicesNamespace(s, 'ns', { name: 5 as any })).map(([f]) => f)).toEqual(['name']);
  });

  test("exemptNamespaces: 'kube-system'", () => {
    const build = (s: Construct): unknown =>
      new NodeServiceGuardrails(s, 'g', {
        contact: '#platform',
        platformGroups: ['platform-admins'],
        exemptNamespaces: 'kube-system',
      } as any);
    expect(problems(build).map(([f]) => f)).toEqual(['exemptNamespaces']);
  });
});

describe('bad input no longer yields YAML', () => {
  test.each<[string, (scope: Construct) => void, string, string?]>([
    ['string args', service({}, { args: '--flag' }), 'containers[0].args'],
    ['string command', service({}, { command: 'run' }), 'containers[0].command'],
    ['an undefined env value', service({}, { env: { A: undefined } }), 'containers[0].env["A"]', 'undefined'],
    [
      'a 70-character volume name',
      service({}, { mounts: [Mount.emptyDir('/tmp', { volumeName: 'v'.repeat(70) })] }),
      'containers[0].mounts[0].volumeName',
    ],
    ["hostNetwork: 'true'", service({ hostNetwork: 'true' }), 'hostNetwork', '"true"'],
    ['hostPID: 0', service({ hostPID: 0 }), 'hostPID', '0'],
    ["readOnlyRootFilesystem: 'false'", service({}, { readOnlyRootFilesystem: 'false' }), 'containers[0].readOnlyRootFilesystem'],
    ['runAsUser: -1', service({}, { runAsUser: -1 }), 'containers[0].runAsUser', '-1'],
    ['fsGroup: 1000.5', service({ fsGroup: 1000.5 }), 'fsGroup', '1000.5'],
    ["imagePullPolicy: 'always'", service({}, { imagePullPolicy: 'always' }), 'containers[0].imagePullPolicy'],
    ['a misspelt dnsPolicy', service({ dnsPolicy: 'ClusterFirstWithHostNetwork' }), 'dnsPolicy'],
    ['fieldRef spec.nodename', service({}, { fieldEnv: { NODE: 'spec.nodename' } }), 'containers[0].fieldEnv["NODE"]'],
    ['an envFrom name with spaces', service({}, { envFrom: [EnvSource.configMap('agent config')] }), 'containers[0].envFrom[0].name'],
    ["an envFrom prefix with '='", service({}, { envFrom: [EnvSource.secret('agent', 'A=')] }), 'containers[0].envFrom[0].prefix'],
    [
      "Mount.configMap('Agent_Config')",
      service({}, { mounts: [Mount.configMap('Agent_Config', '/etc/agent')] }),
      'containers[0].mounts[0].configMap',
    ],
    ["Mount.secret('')", service({}, { mounts: [Mount.secret('', '/etc/tls', { volumeName: 'tls' })] }), 'containers[0].mounts[0].secret'],
    [
      "nvidia.com/gpu: '0.5'",
      service({}, { resources: { cpuRequest: '1', memoryRequest: '1Gi', memoryLimit: '1Gi', extended: { 'nvidia.com/gpu': '0.5' } } }),
      'containers[0].resources.extended["nvidia.com/gpu"]',
    ],
    ['a 71-character CSI driver name', (s) => new CsiNode(s, 'csi', { image, driverName: 'a.'.repeat(35) + 'b' }), 'driverName'],
    [
      "containerRuntime: 'podman'",
      (s) => new LogAgent(s, 'logs', { image, containerRuntime: 'podman' as ContainerRuntime }),
      'containerRuntime',
    ],
    ['capability NET_ADMN', service({}, { capabilities: ['NET_ADMN'] }), 'containers[0].capabilities[0]'],
    ["runtimeSocket: '/etc/shadow'", (s) => new SecurityAgent(s, 'sec', { image, runtimeSocket: '/etc/shadow' }), 'runtimeSocket'],
    ["RBAC resource 'Pods'", service({ apiAccess: [ApiPermission.read(['Pods'])] }), 'apiAccess[0]'],
    ['a user label app.kubernetes.io/name', service({ labels: { 'app.kubernetes.io/name': 'other' } }), 'labels["app.kubernetes.io/name"]'],
    ['minReadySeconds: 2^31', service({ minReadySeconds: 2 ** 31 }), 'minReadySeconds', '2147483648'],
    ['revisionHistoryLimit: 2^31', service({ revisionHistoryLimit: 2 ** 31 }), 'revisionHistoryLimit', '2147483648'],
  ])('%s', (...row) => {
    // A rest parameter: jest would take a fourth named parameter of a three-element row for a done callback.
    const [, build, field, value] = row;
    const found = problems(build);
    expect(found.map(([f]) => f)).toEqual([field]);
    if (value !== undefined) expect(found[0][1]).toBe(value);
  });

  test('probe timings of 2^31', () => {
    const { Probe } = require('../../src');
    expect(problems(service({}, { readiness: Probe.tcpSocketOnPort(80, { periodSeconds: 2 ** 31 }) })).map(([f]) => f)).toEqual([
      'containers[0].readiness.periodSeconds',
    ]);
  });

  test('a capability misspelling suggests the capability', () => {
    expect(errorOf(service({}, { capabilities: ['NET_ADMN'] }))).toContain("is not a Linux capability (did you mean 'NET_ADMIN'?)");
  });
});

describe('messages', () => {
  test('a canary problem is reported once, under the canary field, quoted once', () => {
    const found = problems(
      service(
        { canary: Canary.byNodeLabel('canary', 'true', { image: 'registry.example.com/agent:latest' }) },
        { resources: { cpuRequest: 'x', memoryRequest: '1Gi', memoryLimit: '1Gi' } },
      ),
    );
    expect(found.sort()).toEqual([
      ['canary.image', '"registry.example.com/agent:latest"'],
      ['containers[0].resources.cpuRequest', '"x"'],
    ]);
  });

  test('preset fields are named as written', () => {
    expect(problems((s) => new LogAgent(s, 'logs', { image, extraHostPaths: [HostPath.readOnly('/etc')] })).map(([f]) => f)).toEqual([
      'extraHostPaths[0].path',
    ]);
    expect(problems((s) => new LogAgent(s, 'logs', { image, stateDir: '/etc/agent' })).map(([f]) => f)).toEqual(['stateDir']);
    expect(problems((s) => new SecurityAgent(s, 'sec', { image, healthPort: 0 })).map(([f]) => f)).toEqual(['healthPort']);
  });

  test("a pool's bad allocatable is a problem of the pool", () => {
    expect(problems(service({ pools: [NodePool.of({ name: 'big', allocatable: { memory: '16GB' } })] })).map(([f]) => f)).toEqual([
      'pools[0].allocatable["memory"]',
    ]);
  });

  test('an empty-key Exists toleration is valid (tolerates everything)', () => {
    const chart = testChart();
    new NodeService(chart, 'svc', { name: 'agent', containers: [main], tolerations: [Toleration.exists('')] });
    expect(synth(chart)[0].spec.template.spec.tolerations).toEqual([{ key: '', operator: 'Exists' }]);
  });

  test('preset and core problems come in one round', () => {
    const found = problems(
      (s) => new MonitoringAgent(s, 'm', { image: 'x:latest', port: 9200, args: ['--collector.systemd'], extraCapabilities: ['SYS_TIME'] }),
    );
    expect(found.map(([f]) => f).sort()).toEqual(['args', 'extraCapabilitiesReason', 'image']);
  });
});

describe('preset args', () => {
  test('GIVEN extraArgs THEN they follow the default args, which bind the changed port', () => {
    const chart = testChart();
    new MonitoringAgent(chart, 'm', { image, port: 9200, extraArgs: ['--collector.systemd'] });
    const c = synth(chart).find((o) => o.kind === 'DaemonSet').spec.template.spec.containers[0];
    expect(c.args).toContain('--web.listen-address=:9200');
    expect(c.args[c.args.length - 1]).toBe('--collector.systemd');
    expect(c.ports).toEqual([{ name: 'metrics', containerPort: 9200, hostPort: 9200, protocol: 'TCP' }]);
  });

  test('GIVEN args that bind the port THEN they replace the defaults', () => {
    const chart = testChart();
    new MonitoringAgent(chart, 'm', { image, port: 9200, args: ['--web.listen-address=:9200'] });
    expect(synth(chart).find((o) => o.kind === 'DaemonSet').spec.template.spec.containers[0].args).toEqual(['--web.listen-address=:9200']);
  });

  test('GIVEN args that do not bind the changed port THEN construction fails saying so', () => {
    const found = problems((s) => new MonitoringAgent(s, 'm', { image, port: 9200, args: ['--collector.systemd'] }));
    expect(found.map(([f]) => f)).toEqual(['args']);
  });

  test('GIVEN a bad extra argument THEN it is named as written', () => {
    const found = problems((s) => new MonitoringAgent(s, 'm', { image, extraArgs: ['--ok', 5 as any] }));
    expect(found.map(([f]) => f)).toEqual(['extraArgs[1]']);
  });
});
