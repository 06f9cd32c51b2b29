import { ContainerRuntime, HostPath, LogAgent, LogAgentProps, NodePool } from '../../src';
import { validateAll } from '../support/schema';
import { errorOf, only, synth, testChart } from '../support/synth';

const image = 'cr.fluentbit.io/fluent/fluent-bit:3.1.9';

function build(props: Partial<LogAgentProps> = {}): any[] {
  const chart = testChart('logging');
  new LogAgent(chart, 'logs', { name: 'fluent-bit', image, ...props });
  return synth(chart);
}

describe('LogAgent', () => {
  // GIVEN a log agent with only an image WHEN synthesized
  const objects = build();
  const ds = only(objects, 'DaemonSet');
  const pod = ds.spec.template.spec;
  const agent = pod.containers[0];

  test('THEN it is schema-valid and matches the snapshot', () => {
    validateAll(objects);
    expect(objects).toMatchSnapshot();
  });

  test('THEN it reads /var/log read-only and keeps positions in one declared writable state dir', () => {
    expect(pod.volumes).toEqual([
      { name: 'host-var-log', hostPath: { path: '/var/log', type: 'Directory' } },
      { name: 'state', hostPath: { path: '/var/lib/fluent-bit', type: 'DirectoryOrCreate' } },
    ]);
    expect(agent.volumeMounts).toEqual([
      { name: 'host-var-log', mountPath: '/var/log', readOnly: true },
      { name: 'state', mountPath: '/var/lib/fluent-bit', readOnly: false },
    ]);
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable']).toContain(
      '/var/lib/fluent-bit: keeps read positions',
    );
  });

  test('THEN it runs as root with every capability dropped, no host namespaces, and the node name', () => {
    expect(agent.securityContext).toMatchObject({
      runAsUser: 0,
      runAsNonRoot: false,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(pod.hostNetwork).toBe(false);
    expect(pod.hostPID).toBe(false);
    expect(agent.env).toEqual([{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]);
  });

  test('THEN requests, memory limit, probes, rollout and grace period have the preset defaults', () => {
    expect(agent.resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } });
    expect(agent.readinessProbe.tcpSocket).toEqual({ port: 'http' });
    expect(agent.livenessProbe.tcpSocket).toEqual({ port: 'http' });
    expect(ds.spec.updateStrategy.rollingUpdate).toEqual({ maxUnavailable: 1, maxSurge: 0 });
    expect(pod.terminationGracePeriodSeconds).toBe(60);
    expect(ds.metadata.annotations['node-services.cdk8s.io/kind']).toBe('log-agent');
  });

  test('THEN it does not run on the control plane or tainted nodes unless asked, and skips virtual nodes', () => {
    expect(pod.tolerations).toBeUndefined();
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      {
        matchExpressions: [
          { key: 'eks.amazonaws.com/compute-type', operator: 'NotIn', values: ['fargate'] },
          { key: 'type', operator: 'NotIn', values: ['virtual-kubelet'] },
        ],
      },
    ]);
  });

  test('THEN it gets read-only API access to pods and namespaces for metadata', () => {
    const role = only(objects, 'ClusterRole');
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] }]);
    expect(pod.automountServiceAccountToken).toBe(true);
  });

  test('GIVEN controlPlane, Docker and journal THEN the control-plane toleration and the extra read-only paths are added', () => {
    const p = only(
      build({ controlPlane: true, containerRuntime: ContainerRuntime.DOCKER, journal: true, metadataEnrichment: false }),
      'DaemonSet',
    ).spec.template.spec;
    expect(p.tolerations).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }]);
    expect(p.volumes.map((v: any) => [v.hostPath.path, v.hostPath.type])).toEqual([
      ['/var/log', 'Directory'],
      ['/var/lib/docker/containers', 'Directory'],
      ['/run/log/journal', 'DirectoryOrCreate'],
      ['/etc/machine-id', 'File'],
      ['/var/lib/fluent-bit', 'DirectoryOrCreate'],
    ]);
    expect(p.containers[0].volumeMounts.filter((m: any) => !m.readOnly).map((m: any) => m.mountPath)).toEqual(['/var/lib/fluent-bit']);
    expect(p.automountServiceAccountToken).toBe(false);
  });

  test('GIVEN a host path outside the log-agent allowlist THEN construction fails naming the allowlist and the generic NodeService', () => {
    const message = errorOf((scope) => new LogAgent(scope, 'logs', { image, extraHostPaths: [HostPath.readOnly('/etc/kubernetes')] }));
    expect(message).toContain('[test/logs]');
    expect(message).toContain('"/etc/kubernetes"');
    expect(message).toContain('log-agent host-path allowlist');
    expect(message).toContain('/var/log (read-only)');
    expect(message).toContain('generic NodeService');
  });

  test('GIVEN a writable /var/log THEN construction fails: only the state dir may be written', () => {
    const message = errorOf(
      (scope) =>
        new LogAgent(scope, 'logs', { image, extraHostPaths: [HostPath.writable('/var/log', { reason: 'writes its own log files' })] }),
    );
    expect(message).toContain('allowlist for writable mounts');
  });
});

describe('LogAgent capability allowlist', () => {
  test('GIVEN an allowed extra capability THEN it is added', () => {
    const ds = only(
      build({ extraCapabilities: ['DAC_READ_SEARCH'], extraCapabilitiesReason: 'reads journal files owned by another group' }),
      'DaemonSet',
    );
    expect(ds.spec.template.spec.containers[0].securityContext.capabilities).toEqual({ drop: ['ALL'], add: ['DAC_READ_SEARCH'] });
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/dangerous-capability']).toBe(
      'DAC_READ_SEARCH: reads journal files owned by another group',
    );
  });

  test('GIVEN an extra capability without a reason THEN construction fails asking for one', () => {
    const message = errorOf((scope) => new LogAgent(scope, 'logs', { image, extraCapabilities: ['DAC_READ_SEARCH'] }));
    expect(message).toContain('[test/logs]');
    expect(message).toContain('extraCapabilitiesReason = undefined: extraCapabilities DAC_READ_SEARCH need a reason');
  });

  test('GIVEN a capability outside the allowlist THEN construction fails naming the allowlist', () => {
    const message = errorOf(
      (scope) =>
        new LogAgent(scope, 'logs', { image, extraCapabilities: ['SYS_ADMIN'], extraCapabilitiesReason: 'mounts filesystems of its own' }),
    );
    expect(message).toContain('extraCapabilities[0] = "SYS_ADMIN"');
    expect(message).toContain('log-agent capability allowlist (DAC_READ_SEARCH)');
  });
});

describe('LogAgent placement', () => {
  const terms = (objects: any[]) =>
    only(objects, 'DaemonSet').spec.template.spec.affinity?.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;
  const virtual = [
    { key: 'eks.amazonaws.com/compute-type', operator: 'NotIn', values: ['fargate'] },
    { key: 'type', operator: 'NotIn', values: ['virtual-kubelet'] },
  ];

  test('GIVEN pools THEN each pool-derived term still excludes virtual nodes', () => {
    const gpu = NodePool.gpu();
    const general = NodePool.of({ name: 'general', labels: { 'node.example.com/pool': 'general' } });
    expect(terms(build({ pools: [general, gpu] }))).toEqual([
      { matchExpressions: [{ key: 'node.example.com/pool', operator: 'In', values: ['general'] }, ...virtual] },
      { matchExpressions: [{ key: 'nvidia.com/gpu.present', operator: 'In', values: ['true'] }, ...virtual] },
    ]);
  });

  test('GIVEN includeVirtualNodes THEN no affinity is set', () => {
    expect(terms(build({ includeVirtualNodes: true }))).toBeUndefined();
  });
});
