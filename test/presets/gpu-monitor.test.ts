import { ApiPermission, HostPath, NodeRequirement, Toleration } from '../../src';
import { checkManifests } from '../../src/policy/engine';
import { GpuMonitor, GpuMonitorProps } from '../../src/presets/gpu-monitor';
import { addInfrastructure } from '../../examples/infrastructure';
import { apiRuleViolations } from '../support/api-rules';
import { validateAll } from '../support/schema';
import { containersOf, errorOf, only, synth, testChart } from '../support/synth';
import { ErrorRow } from '../support/table';

const image = 'nvcr.io/nvidia/k8s/dcgm-exporter:4.5.3-4.8.2-distroless';

function build(props: Partial<GpuMonitorProps> = {}): any[] {
  const chart = testChart('gpu-monitoring');
  new GpuMonitor(chart, 'gpu', { image, ...props });
  return synth(chart);
}

describe('GpuMonitor', () => {
  // GIVEN a GPU monitor with only an image WHEN synthesized
  const objects = build();
  const ds = only(objects, 'DaemonSet');
  const pod = ds.spec.template.spec;
  const exporter = pod.containers[0];

  test('THEN it is one schema-valid DaemonSet without API access, matching the snapshot', () => {
    expect(objects.map((o) => o.kind)).toEqual(['DaemonSet']);
    expect(ds.metadata.name).toBe('dcgm-exporter');
    validateAll(objects);
    expect(objects).toMatchSnapshot();
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.serviceAccountName).toBeUndefined();
  });

  test('THEN it meets the API rules and the policy catalogue finds nothing to warn about', () => {
    expect(apiRuleViolations(objects)).toEqual([]);
    expect(checkManifests(objects).findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  test('THEN it targets only GPU nodes (either GPU-present label) and tolerates the nvidia.com/gpu taint, nothing else', () => {
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: 'nvidia.com/gpu.present', operator: 'In', values: ['true'] }] },
      { matchExpressions: [{ key: 'feature.node.kubernetes.io/pci-10de.present', operator: 'In', values: ['true'] }] },
    ]);
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
  });

  test('THEN it mounts only the kubelet pod-resources dir read-only, plus an in-memory /tmp', () => {
    expect(pod.volumes).toEqual([
      { name: 'pod-resources', hostPath: { path: '/var/lib/kubelet/pod-resources', type: 'Directory' } },
      { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
    ]);
    expect(exporter.volumeMounts).toEqual([
      { name: 'pod-resources', mountPath: '/var/lib/kubelet/pod-resources', readOnly: true },
      { name: 'tmp', mountPath: '/tmp', readOnly: false },
    ]);
  });

  test('THEN it has no capability without profiling metrics, no privilege and no host namespaces', () => {
    expect(exporter.securityContext).toMatchObject({
      privileged: false,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsUser: 0,
      capabilities: { drop: ['ALL'] },
    });
    expect(exporter.securityContext.capabilities.add).toBeUndefined();
    expect(pod.hostNetwork).toBe(false);
    expect(pod.hostPID).toBe(false);
  });

  test('THEN it is node-critical, rolls one node at a time, and probes /health on the metrics port after DCGM starts', () => {
    expect(pod.priorityClassName).toBe('system-node-critical');
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(exporter.ports).toEqual([{ name: 'metrics', containerPort: 9400, protocol: 'TCP' }]);
    expect(exporter.readinessProbe).toMatchObject({
      httpGet: { path: '/health', port: 'metrics', scheme: 'HTTP' },
      initialDelaySeconds: 45,
    });
    expect(exporter.livenessProbe).toMatchObject({
      httpGet: { path: '/health', port: 'metrics', scheme: 'HTTP' },
      initialDelaySeconds: 45,
    });
    expect(exporter.resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '512Mi' } });
    expect(exporter.env).toEqual([
      { name: 'DCGM_EXPORTER_KUBERNETES', value: 'true' },
      { name: 'DCGM_EXPORTER_LISTEN', value: ':9400' },
      { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    ]);
  });
});

describe('GpuMonitor options', () => {
  test('GIVEN profiling metrics THEN SYS_ADMIN is added with its reason and the profiling counters are collected', () => {
    const objects = build({ profilingMetrics: true });
    const ds = only(objects, 'DaemonSet');
    const c = ds.spec.template.spec.containers[0];
    expect(c.securityContext.capabilities).toEqual({ drop: ['ALL'], add: ['SYS_ADMIN'] });
    expect(c.securityContext.allowPrivilegeEscalation).toBe(false);
    expect(c.securityContext.privileged).toBe(false);
    expect(c.env).toContainEqual({ name: 'DCGM_EXPORTER_COLLECTORS', value: '/etc/dcgm-exporter/dcp-metrics-included.csv' });
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/dangerous-capability']).toContain('SYS_ADMIN: ');
    expect(checkManifests(objects).findings.filter((f) => f.severity !== 'info' && !f.suppressed)).toEqual([]);
    validateAll(objects);
  });

  test('GIVEN the GPU operator gate as node affinity THEN it replaces the default GPU selection', () => {
    const pod = only(
      build({ nodeAffinity: [{ requirements: [NodeRequirement.in('nvidia.com/gpu.deploy.dcgm-exporter', ['true'])] }] }),
      'DaemonSet',
    ).spec.template.spec;
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: 'nvidia.com/gpu.deploy.dcgm-exporter', operator: 'In', values: ['true'] }] },
    ]);
  });

  test('GIVEN the control plane and another port THEN the control-plane toleration is added and the listener follows the port', () => {
    const c = only(build({ controlPlane: true, port: 9401, tolerations: [Toleration.exists('example.com/gpu-pool')] }), 'DaemonSet').spec
      .template.spec;
    expect(c.tolerations).toEqual([
      { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'example.com/gpu-pool', operator: 'Exists' },
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    expect(c.containers[0].ports[0].containerPort).toBe(9401);
    expect(c.containers[0].env).toContainEqual({ name: 'DCGM_EXPORTER_LISTEN', value: ':9401' });
  });

  test('GIVEN pod-label enrichment THEN it reads pods only, with its own ServiceAccount and token', () => {
    const objects = build({ apiAccess: [ApiPermission.read(['pods'])] });
    expect(objects.map((o) => o.kind)).toEqual(['DaemonSet', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding']);
    expect(only(objects, 'ClusterRole').rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }]);
    expect(only(objects, 'DaemonSet').spec.template.spec.automountServiceAccountToken).toBe(true);
    expect(apiRuleViolations(objects)).toEqual([]);
  });
});

describe('GpuMonitor errors', () => {
  const rows: ErrorRow<GpuMonitorProps>[] = [
    {
      name: 'GIVEN a host path outside the gpu-monitor allowlist THEN construction fails naming the allowlist',
      input: { image, extraHostPaths: [HostPath.readOnly('/dev')] },
      want: [
        '[test/gpu]',
        'extraHostPaths[0].path = "/dev"',
        'gpu-monitor host-path allowlist for read-only mounts (allowed: /var/lib/kubelet/pod-resources (read-only))',
      ],
    },
    {
      name: 'GIVEN the whole kubelet dir THEN construction fails: only pod-resources is allowed',
      input: { image, extraHostPaths: [HostPath.readOnly('/var/lib/kubelet')] },
      want: ['"/var/lib/kubelet": is not on the gpu-monitor host-path allowlist'],
    },
    {
      name: 'GIVEN a capability outside the allowlist (with a reason) THEN construction fails naming the allowlist',
      input: { image, extraCapabilities: ['SYS_RAWIO'], extraCapabilitiesReason: 'reads GPU registers directly' },
      want: ['extraCapabilities[0] = "SYS_RAWIO"', 'gpu-monitor capability allowlist (SYS_ADMIN)'],
    },
    {
      name: 'GIVEN an extra capability without a reason THEN construction fails asking for one',
      input: { image, extraCapabilities: ['SYS_ADMIN'] },
      want: ['extraCapabilitiesReason = undefined: extraCapabilities SYS_ADMIN need a reason'],
    },
    {
      name: 'GIVEN API access to Secrets THEN construction fails: least privilege',
      input: { image, apiAccess: [ApiPermission.read(['secrets'])] },
      want: ['apiAccess[0]', 'grants access to Secrets'],
    },
  ];

  test.each(rows)('$name', ({ input, want }) => {
    // WHEN the monitor is built from the props of the row
    const message = errorOf((scope) => new GpuMonitor(scope, 'gpu', input));
    // THEN the one error holds each wanted text
    for (const text of want) expect(message).toContain(text);
  });
});

describe('the API-rule checker used above', () => {
  test('GIVEN objects breaking each rule THEN it reports every violation', () => {
    const objects = build({ apiAccess: [ApiPermission.read(['pods'])] });
    const ds = only(objects, 'DaemonSet');
    const exporter = containersOf(ds)[0];
    exporter.securityContext = { ...exporter.securityContext, privileged: true };
    exporter.volumeMounts.push({ name: 'sock', mountPath: '/var/run/docker.sock' });
    ds.spec.template.spec.volumes.push({ name: 'sock', hostPath: { path: '/var/run/docker.sock' } });
    ds.spec.template.spec.containers.push({
      name: 'side',
      securityContext: {},
      volumeMounts: [{ name: 'tmp', mountPath: '/x', mountPropagation: 'Bidirectional' }],
    });
    const role = only(objects, 'ClusterRole');
    role.metadata.namespace = 'gpu-monitoring';
    role.rules.push({ apiGroups: [''], resources: ['secrets'], verbs: ['list'] });
    expect(apiRuleViolations(objects)).toEqual([
      'exporter: allowPrivilegeEscalation false beside privileged',
      'exporter: runtime socket /var/run/docker.sock writable',
      'side: Bidirectional mount /x on an unprivileged container',
      `ClusterRole ${role.metadata.name} carries a namespace`,
      `${role.metadata.name}: touches secrets`,
    ]);
  });
});

describe('GpuMonitor in the examples app', () => {
  test('GIVEN the infrastructure example THEN its GPU monitor is schema-valid, targets GPU nodes and is error-free', () => {
    const chart = testChart('node-services');
    addInfrastructure(chart);
    const objects = synth(chart);
    const ds = objects.find((o) => o.kind === 'DaemonSet' && o.metadata.annotations['node-services.cdk8s.io/kind'] === 'gpu-monitor');
    validateAll(objects);
    expect(apiRuleViolations(objects)).toEqual([]);
    expect(ds.spec.template.spec.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
    expect(checkManifests([ds]).errorCount).toBe(0);
  });
});
