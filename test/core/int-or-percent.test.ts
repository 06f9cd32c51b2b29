/**
 * Rolling-update amounts and probe ports have no union types (other languages would see `Object`): a count or a
 * percentage, a port name or a number, each has its own factory. Every factory is rendered, and every value a plain
 * JavaScript caller can pass to the wrong factory is refused with the factory that takes it.
 */
import { Construct } from 'constructs';
import { ContainerSpec, IntOrPercent, NodeService, NodeServiceProps, Probe, Rollout } from '../../src';
import { errorOf, only, synth, testChart } from '../support/synth';

const container: ContainerSpec = {
  name: 'main',
  image: 'registry.example.com/agent:1.2.3',
  ports: [{ name: 'http', containerPort: 8080 }],
};

function daemonSet(props: Partial<NodeServiceProps>, extra: Partial<ContainerSpec> = {}): any {
  const chart = testChart();
  new NodeService(chart, 'svc', { name: 'agent', containers: [{ ...container, ...extra }], ...props });
  return only(synth(chart), 'DaemonSet');
}

function rejected(props: Partial<NodeServiceProps>, extra: Partial<ContainerSpec> = {}): string {
  return errorOf((scope: Construct) => {
    new NodeService(scope, 'svc', { name: 'agent', containers: [{ ...container, ...extra }], ...props });
  });
}

describe('IntOrPercent', () => {
  test('a count and a percentage as Kubernetes writes them', () => {
    expect(IntOrPercent.count(3).toString()).toBe('3');
    expect(IntOrPercent.percent(10).toString()).toBe('10%');
    expect(IntOrPercent.percent(10).isPercent).toBe(true);
    expect(IntOrPercent.count(3).value).toBe(3);
  });
});

describe('Rollout amounts', () => {
  test.each([
    [Rollout.maxUnavailable(2), { maxUnavailable: 2, maxSurge: 0 }],
    [Rollout.maxUnavailablePercent(10), { maxUnavailable: '10%', maxSurge: 0 }],
    [Rollout.surge(1), { maxUnavailable: 0, maxSurge: 1 }],
    [Rollout.surgePercent(25), { maxUnavailable: 0, maxSurge: '25%' }],
  ])('%# renders its amount', (rollout, rollingUpdate) => {
    expect(daemonSet({ rollout }).spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate });
  });

  test('the amounts are readable as IntOrPercent', () => {
    const r = Rollout.maxUnavailablePercent(20);
    expect(r.maxUnavailableAmount?.toString()).toBe('20%');
    expect(r.maxSurgeAmount?.toString()).toBe('0');
    expect(Rollout.onDelete('nodes are replaced by the node pool upgrade').maxUnavailableAmount).toBeUndefined();
  });

  test.each<[string, Rollout, string, string, string]>([
    ['a fractional count', Rollout.maxUnavailable(1.5), 'rollout.maxUnavailable', 'non-negative integer', 'Rollout.maxUnavailable(1)'],
    ['a negative surge', Rollout.surge(-1), 'rollout.maxSurge', '-1', 'Rollout.surge(1)'],
    [
      'a fractional percentage',
      Rollout.maxUnavailablePercent(12.5),
      'rollout.maxUnavailable',
      'whole percentage from 0 to 100',
      'Rollout.maxUnavailablePercent(10)',
    ],
    ['a percentage over 100', Rollout.surgePercent(150), 'rollout.maxSurge', 'more than 100%', 'Rollout.surgePercent(10)'],
  ])('%s is refused with the factory that takes it', (_name, rollout, field, detail, fix) => {
    const message = rejected({ rollout });
    expect(message).toContain(field);
    expect(message).toContain(detail);
    expect(message).toContain(fix);
  });

  test.each<[string, () => unknown, string]>([
    [
      'a percentage string given as a count',
      () => Rollout.maxUnavailable('10%' as any),
      '- Rollout.maxUnavailable(count) = "10%": must be a finite number',
    ],
    [
      'a percentage string given to the percent factory',
      () => Rollout.maxUnavailablePercent('10%' as any),
      '- Rollout.maxUnavailablePercent(percent) = "10%"',
    ],
    ['a count given as a string', () => Rollout.surge('1' as any), '- Rollout.surge(count) = "1": must be a finite number'],
  ])('%s is refused by the factory', (_name, make, line) => {
    expect(make).toThrow(line);
  });

  test.each<[string, () => unknown, string]>([
    [
      'a number given as a port name',
      () => Probe.httpGet('/ready', 8080 as any),
      'Fix: for a port number, use Probe.httpGetOnPort(path, port)',
    ],
    [
      'a name given as a port number',
      () => Probe.httpGetOnPort('/ready', 'http' as any),
      'Fix: for a named port, use Probe.httpGet(path, portName)',
    ],
    ['a grpc port given as a name', () => Probe.grpc('http' as any), 'from 1 to 65535'],
  ])('%s is refused by the factory, naming the one that takes it', (_name, make, fix) => {
    expect(make).toThrow(fix);
  });

  test('an IntOrPercent that is not ours is refused by shape', () => {
    const fake = Object.create(Rollout.prototype);
    Object.assign(fake, { type: 'RollingUpdate', maxUnavailableAmount: { value: 1, isPercent: false } });
    expect(rejected({ rollout: fake })).toContain('IntOrPercent.count(n) or IntOrPercent.percent(p)');
  });
});

describe('probe ports', () => {
  test('a named port and a port number render as IntOrString', () => {
    const c = daemonSet({}, { readiness: Probe.httpGet('/ready', 'http'), liveness: Probe.httpGetOnPort('/live', 8080) }).spec.template.spec
      .containers[0];
    expect(c.readinessProbe.httpGet.port).toBe('http');
    expect(c.livenessProbe.httpGet.port).toBe(8080);
    const t = daemonSet({}, { readiness: Probe.tcpSocket('http'), liveness: Probe.tcpSocketOnPort(8080) }).spec.template.spec.containers[0];
    expect(t.readinessProbe.tcpSocket.port).toBe('http');
    expect(t.livenessProbe.tcpSocket.port).toBe(8080);
  });

  test.each<[string, Probe, string, string]>([
    ['a tcp port out of range', Probe.tcpSocketOnPort(70000), '70000', 'from 1 to 65535'],
    ['an undeclared port name', Probe.tcpSocket('metrics'), 'names no port of this container', 'Probe.tcpSocketOnPort'],
  ])('%s is refused', (_name, readiness, detail, fix) => {
    const message = rejected({}, { readiness });
    expect(message).toContain('containers[0].readiness.port');
    expect(message).toContain(detail);
    expect(message).toContain(fix);
  });
});
