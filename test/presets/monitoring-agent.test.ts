import { HostPath, MonitoringAgent, MonitoringAgentProps } from '../../src';
import { validateAll } from '../support/schema';
import { errorOf, only, synth, testChart } from '../support/synth';

const image = 'quay.io/prometheus/node-exporter:v1.8.2';

function build(props: Partial<MonitoringAgentProps> = {}): any[] {
  const chart = testChart('monitoring');
  new MonitoringAgent(chart, 'metrics', { image, ...props });
  return synth(chart);
}

describe('MonitoringAgent', () => {
  // GIVEN a monitoring agent with only an image WHEN synthesized
  const objects = build();
  const ds = only(objects, 'DaemonSet');
  const pod = ds.spec.template.spec;
  const c = pod.containers[0];

  test('THEN it is one schema-valid DaemonSet (no API access) matching the snapshot', () => {
    expect(objects.map((o) => o.kind)).toEqual(['DaemonSet']);
    validateAll(objects);
    expect(objects).toMatchSnapshot();
  });

  test('THEN it uses host network and host PID with DNS policy Default', () => {
    expect(pod.hostNetwork).toBe(true);
    expect(pod.hostPID).toBe(true);
    expect(pod.hostIPC).toBeUndefined();
    expect(pod.dnsPolicy).toBe('Default');
    expect(c.ports).toEqual([{ name: 'metrics', containerPort: 9100, hostPort: 9100, protocol: 'TCP' }]);
  });

  test('THEN /, /sys and /proc are mounted read-only with HostToContainer propagation', () => {
    expect(pod.volumes).toEqual([
      { name: 'root', hostPath: { path: '/', type: 'Directory' } },
      { name: 'sys', hostPath: { path: '/sys', type: 'Directory' } },
      { name: 'proc', hostPath: { path: '/proc', type: 'Directory' } },
    ]);
    expect(c.volumeMounts).toEqual([
      { name: 'root', mountPath: '/host/root', readOnly: true, mountPropagation: 'HostToContainer' },
      { name: 'sys', mountPath: '/host/sys', readOnly: true, mountPropagation: 'HostToContainer' },
      { name: 'proc', mountPath: '/host/proc', readOnly: true, mountPropagation: 'HostToContainer' },
    ]);
    expect(c.args).toEqual(expect.arrayContaining(['--path.procfs=/host/proc', '--path.sysfs=/host/sys', '--path.rootfs=/host/root']));
  });

  test('THEN it runs as nobody, non-root, with no capabilities', () => {
    expect(c.securityContext).toMatchObject({ runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
    expect(c.securityContext.capabilities.add).toBeUndefined();
  });

  test('THEN it tolerates every taint, is cluster-critical and rolls 10% at a time without surge', () => {
    expect(pod.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(pod.priorityClassName).toBe('system-cluster-critical');
    expect(ds.spec.updateStrategy.rollingUpdate).toEqual({ maxUnavailable: '10%', maxSurge: 0 });
    expect(c.resources).toEqual({ requests: { cpu: '100m', memory: '180Mi' }, limits: { memory: '180Mi' } });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/', port: 'metrics', scheme: 'HTTP' });
  });

  test('GIVEN the time collector THEN SYS_TIME is added and the collector is not disabled', () => {
    const c2 = only(build({ timeCollector: true }), 'DaemonSet').spec.template.spec.containers[0];
    expect(c2.securityContext.capabilities.add).toEqual(['SYS_TIME']);
    expect(c2.args).not.toContain('--no-collector.time');
  });

  test('GIVEN a writable host path THEN construction fails: a metrics agent writes nothing on the host', () => {
    const message = errorOf(
      (scope) =>
        new MonitoringAgent(scope, 'metrics', {
          image,
          extraHostPaths: [HostPath.writable('/var/lib/node-exporter', { reason: 'textfile collector output' })],
        }),
    );
    expect(message).toContain('monitoring-agent host-path allowlist for writable mounts');
  });

  test('GIVEN a capability outside the allowlist THEN construction fails naming the allowlist', () => {
    const message = errorOf(
      (scope) =>
        new MonitoringAgent(scope, 'metrics', {
          image,
          extraCapabilities: ['NET_ADMIN'],
          extraCapabilitiesReason: 'reads interface statistics',
        }),
    );
    expect(message).toContain('monitoring-agent capability allowlist (SYS_TIME)');
  });
});
