import { HostPath, HostPathType, Probe, SeccompProfile } from '../../src';
import { checkManifests } from '../../src/policy/engine';
import { isContainerRuntimeSocket } from '../../src/policy/kinds';
import { SecurityAgent, SecurityAgentMode, SecurityAgentProps } from '../../src/presets/security-agent';
import { addInfrastructure } from '../../examples/infrastructure';
import { apiRuleViolations } from '../support/api-rules';
import { validateAll } from '../support/schema';
import { containersOf, errorOf, only, synth, testChart } from '../support/synth';
import { ErrorRow } from '../support/table';

const image = 'docker.io/falcosecurity/falco:0.44.1';

function build(props: Partial<SecurityAgentProps> = {}): any[] {
  const chart = testChart('security');
  new SecurityAgent(chart, 'sensor', { name: 'falco', image, ...props });
  return synth(chart);
}

describe('SecurityAgent (runtime sensor)', () => {
  // GIVEN a runtime sensor with only an image WHEN synthesized
  const objects = build();
  const ds = only(objects, 'DaemonSet');
  const pod = ds.spec.template.spec;
  const agent = pod.containers[0];

  test('THEN it is a schema-valid DaemonSet with its ServiceAccount and RBAC, matching the snapshot', () => {
    expect(objects.map((o) => o.kind)).toEqual(['DaemonSet', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding']);
    validateAll(objects);
    expect(objects).toMatchSnapshot();
  });

  test('THEN it meets the API rules and nothing is privileged', () => {
    expect(apiRuleViolations(objects)).toEqual([]);
    expect(containersOf(ds).filter((c) => c.securityContext.privileged)).toEqual([]);
  });

  test('THEN the policy catalogue finds no error, and every warning it finds carries a recorded reason', () => {
    const report = checkManifests(objects);
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(report.findings.filter((f) => f.severity === 'warning' && !f.suppressed)).toEqual([]);
  });

  test('THEN it adds exactly the eBPF sensor capabilities and records why', () => {
    expect(agent.securityContext).toMatchObject({
      privileged: false,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsUser: 0,
      capabilities: { drop: ['ALL'], add: ['BPF', 'PERFMON', 'SYS_RESOURCE', 'SYS_PTRACE'] },
    });
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/dangerous-capability']).toContain('BPF and SYS_PTRACE: ');
  });

  test('THEN /proc, /etc and /sys/kernel are read-only and nothing on the host is writable', () => {
    expect(pod.volumes).toEqual([
      { name: 'proc', hostPath: { path: '/proc', type: 'Directory' } },
      { name: 'etc', hostPath: { path: '/etc', type: 'Directory' } },
      { name: 'sys-kernel', hostPath: { path: '/sys/kernel', type: 'Directory' } },
    ]);
    expect(agent.volumeMounts).toEqual([
      { name: 'proc', mountPath: '/host/proc', readOnly: true },
      { name: 'etc', mountPath: '/host/etc', readOnly: true },
      { name: 'sys-kernel', mountPath: '/sys/kernel', readOnly: true },
    ]);
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable']).toBeUndefined();
    expect(agent.env).toEqual([
      { name: 'HOST_ROOT', value: '/host' },
      { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    ]);
  });

  test('THEN it tolerates every taint, has no host namespaces, no priority class unless asked, and rolls one node at a time', () => {
    expect(pod.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(pod.hostNetwork).toBe(false);
    expect(pod.hostPID).toBe(false);
    expect(pod.priorityClassName).toBeUndefined();
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(agent.resources).toEqual({ requests: { cpu: '100m', memory: '512Mi' }, limits: { memory: '1Gi' } });
  });

  test('THEN startup, readiness and liveness probe the health endpoint, with a long startup budget', () => {
    expect(agent.ports).toEqual([{ name: 'health', containerPort: 8765, protocol: 'TCP' }]);
    for (const p of [agent.startupProbe, agent.readinessProbe, agent.livenessProbe])
      expect(p.httpGet).toEqual({ path: '/healthz', port: 'health', scheme: 'HTTP' });
    expect(agent.startupProbe.periodSeconds * agent.startupProbe.failureThreshold).toBeGreaterThanOrEqual(100);
  });

  test('THEN it reads pods, namespaces and nodes only', () => {
    expect(only(objects, 'ClusterRole').rules).toEqual([
      { apiGroups: [''], resources: ['pods', 'namespaces', 'nodes'], verbs: ['get', 'list', 'watch'] },
    ]);
    expect(pod.automountServiceAccountToken).toBe(true);
  });
});

describe('SecurityAgent options', () => {
  test('GIVEN a runtime socket THEN it is mounted read-only as a Socket below /host, with the reason recorded', () => {
    const objects = build({ runtimeSocket: '/run/containerd/containerd.sock' });
    const ds = only(objects, 'DaemonSet');
    const pod = ds.spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: 'runtime-socket', hostPath: { path: '/run/containerd/containerd.sock', type: 'Socket' } });
    expect(pod.containers[0].volumeMounts).toContainEqual({
      name: 'runtime-socket',
      mountPath: '/host/run/containerd/containerd.sock',
      readOnly: true,
    });
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/container-runtime-socket']).toContain(
      '/run/containerd/containerd.sock (read-only): ',
    );
    expect(apiRuleViolations(objects)).toEqual([]);
  });

  test('GIVEN privileged with a reason THEN the sensor is privileged and admissible, with the reason recorded', () => {
    const objects = build({ privileged: true, privilegedReason: 'the kernel-module driver loads into the host kernel' });
    const ds = only(objects, 'DaemonSet');
    expect(ds.spec.template.spec.containers[0].securityContext).toMatchObject({ privileged: true, allowPrivilegeEscalation: true });
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/privileged-container']).toBe(
      'agent: the kernel-module driver loads into the host kernel',
    );
    expect(apiRuleViolations(objects)).toEqual([]);
    validateAll(objects);
  });

  test('GIVEN appArmorUnconfined THEN the pod template carries the AppArmor annotation for the agent container', () => {
    const template = only(build({ appArmorUnconfined: true, podAnnotations: { 'checksum/rules': 'abc' } }), 'DaemonSet').spec.template;
    expect(template.metadata.annotations).toEqual({
      'checksum/rules': 'abc',
      'container.apparmor.security.beta.kubernetes.io/agent': 'unconfined',
    });
  });

  test('GIVEN another health port and path THEN all probes follow them', () => {
    const c = only(build({ healthPort: 9876, healthPath: '/health' }), 'DaemonSet').spec.template.spec.containers[0];
    expect(c.ports[0].containerPort).toBe(9876);
    for (const p of [c.startupProbe, c.readinessProbe, c.livenessProbe]) expect(p.httpGet.path).toBe('/health');
  });

  test('GIVEN a startup probe THEN it replaces the default', () => {
    const c = only(build({ startup: Probe.tcpSocket('health', { failureThreshold: 60 }) }), 'DaemonSet').spec.template.spec.containers[0];
    expect(c.startupProbe.tcpSocket).toEqual({ port: 'health' });
    expect(c.startupProbe.failureThreshold).toBe(60);
  });

  test('GIVEN an allowed extra capability with a reason THEN it is added and the reason recorded', () => {
    const ds = only(build({ extraCapabilities: ['DAC_READ_SEARCH'], extraCapabilitiesReason: 'reads root-only audit logs' }), 'DaemonSet');
    expect(ds.spec.template.spec.containers[0].securityContext.capabilities.add).toEqual([
      'BPF',
      'PERFMON',
      'SYS_RESOURCE',
      'SYS_PTRACE',
      'DAC_READ_SEARCH',
    ]);
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/dangerous-capability']).toContain(
      'DAC_READ_SEARCH: reads root-only audit logs',
    );
  });
});

describe('SecurityAgent (compliance scanner)', () => {
  // GIVEN a compliance scanner with only an image WHEN synthesized
  const objects = build({ name: 'node-baseline', mode: SecurityAgentMode.COMPLIANCE });
  const ds = only(objects, 'DaemonSet');
  const pod = ds.spec.template.spec;
  const agent = pod.containers[0];

  test('THEN it is one schema-valid DaemonSet without API access, matching the snapshot', () => {
    expect(objects.map((o) => o.kind)).toEqual(['DaemonSet']);
    validateAll(objects);
    expect(objects).toMatchSnapshot();
    expect(pod.automountServiceAccountToken).toBe(false);
  });

  test('THEN it sees host processes and reads the kubelet, CNI and systemd configuration read-only, not the whole kubelet dir', () => {
    expect(pod.hostPID).toBe(true);
    expect(pod.hostNetwork).toBe(false);
    expect(pod.volumes.map((v: any) => [v.hostPath.path, v.hostPath.type])).toEqual([
      ['/etc/kubernetes', 'Directory'],
      ['/etc/systemd', 'Directory'],
      ['/lib/systemd', 'Directory'],
      ['/etc/cni/net.d', 'Directory'],
      ['/opt/cni/bin', 'Directory'],
      ['/var/lib/kubelet/config.yaml', 'File'],
    ]);
    expect(agent.volumeMounts.every((m: any) => m.readOnly === true)).toBe(true);
    expect(agent.volumeMounts.map((m: any) => m.mountPath)).toEqual(pod.volumes.map((v: any) => v.hostPath.path));
  });

  test('THEN the container is hardened: unprivileged, no capability, read-only root filesystem', () => {
    expect(agent.securityContext).toEqual({
      privileged: false,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsUser: 0,
      runAsNonRoot: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(agent.env).toEqual([{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]);
    expect(pod.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  test('THEN the policy catalogue finds nothing to warn about', () => {
    const report = checkManifests(objects);
    expect(report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  test('GIVEN other compliance paths THEN they replace the defaults', () => {
    const pod2 = only(
      build({
        mode: SecurityAgentMode.COMPLIANCE,
        complianceHostPaths: [
          HostPath.readOnly('/etc/kubernetes'),
          HostPath.readOnly('/var/lib/kubelet/kubeconfig', { type: HostPathType.FILE }),
        ],
      }),
      'DaemonSet',
    ).spec.template.spec;
    expect(pod2.volumes.map((v: any) => v.hostPath.path)).toEqual(['/etc/kubernetes', '/var/lib/kubelet/kubeconfig']);
  });
});

describe('SecurityAgent errors', () => {
  const rows: ErrorRow<SecurityAgentProps>[] = [
    {
      name: 'GIVEN a host path outside the security-agent allowlist THEN construction fails naming the allowlist',
      input: { image, extraHostPaths: [HostPath.readOnly('/var/log')] },
      want: [
        '[test/sensor]',
        'extraHostPaths[0].path = "/var/log"',
        'security-agent host-path allowlist for read-only mounts (allowed: /proc (read-only)',
      ],
    },
    {
      name: 'GIVEN a writable /etc THEN construction fails: the agent only reads the host',
      input: { image, extraHostPaths: [HostPath.writable('/etc/falco', { reason: 'writes its rules to the host' })] },
      want: ['security-agent host-path allowlist for writable mounts'],
    },
    {
      name: 'GIVEN a runtime socket that is not a known socket path THEN construction fails naming the allowlist',
      input: { image, runtimeSocket: '/var/run/podman/podman.sock' },
      want: ['"/var/run/podman/podman.sock": is not on the security-agent host-path allowlist'],
    },
    {
      name: 'GIVEN a capability outside the allowlist (with a reason) THEN construction fails naming the allowlist',
      input: { image, extraCapabilities: ['SYS_MODULE'], extraCapabilitiesReason: 'loads its kernel module' },
      want: [
        'extraCapabilities[0] = "SYS_MODULE"',
        'security-agent capability allowlist (BPF, PERFMON, SYS_RESOURCE, SYS_PTRACE, SYS_ADMIN, DAC_READ_SEARCH, IPC_LOCK, NET_ADMIN)',
      ],
    },
    {
      name: 'GIVEN an extra capability without a reason THEN construction fails asking for one',
      input: { image, extraCapabilities: ['SYS_ADMIN'], extraCapabilitiesReason: 'short' },
      want: ['extraCapabilitiesReason = "short": extraCapabilities SYS_ADMIN need a reason of at least 10 characters'],
    },
    {
      name: 'GIVEN privileged without a reason THEN construction fails asking for privilegedReason',
      input: { image, privileged: true },
      want: ['privilegedReason = undefined: no reason given'],
    },
    {
      name: 'GIVEN a privileged compliance scanner THEN construction fails even with a reason',
      input: { image, mode: SecurityAgentMode.COMPLIANCE, privileged: true, privilegedReason: 'reads every file on the node' },
      want: ['privileged = true: a compliance scanner only reads files and processes and must not be privileged'],
    },
    {
      name: 'GIVEN compliance paths in runtime mode THEN construction fails pointing at the mode',
      input: { image, complianceHostPaths: [HostPath.readOnly('/etc/kubernetes')] },
      want: ['complianceHostPaths = ["/etc/kubernetes"]: only applies in compliance mode'],
    },
    {
      name: 'GIVEN an unknown mode THEN construction fails listing the modes',
      input: { image, mode: 'audit' as SecurityAgentMode },
      want: ['mode = "audit": is not one of SecurityAgentMode (runtime, compliance)'],
    },
  ];

  test.each(rows)('$name', ({ input, want }) => {
    // WHEN the agent is built from the props of the row
    const message = errorOf((scope) => new SecurityAgent(scope, 'sensor', input));
    // THEN the one error holds each wanted text
    for (const text of want) expect(message).toContain(text);
  });
});

describe('the API-rule checker used above', () => {
  test('GIVEN objects breaking each rule THEN it reports every violation', () => {
    const ds = only(build({ runtimeSocket: '/run/containerd/containerd.sock' }), 'DaemonSet');
    const agent = containersOf(ds)[0];
    agent.securityContext = { ...agent.securityContext, privileged: true };
    agent.volumeMounts = agent.volumeMounts.map((m: any) => (m.name === 'runtime-socket' ? { ...m, readOnly: false } : m));
    agent.volumeMounts.push({ name: 'proc', mountPath: '/bi', mountPropagation: 'Bidirectional' });
    const unprivileged = {
      ...agent,
      name: 'other',
      securityContext: { privileged: false },
      volumeMounts: [{ name: 'proc', mountPath: '/bi', mountPropagation: 'Bidirectional' }],
    };
    ds.spec.template.spec.containers.push(unprivileged);
    const role = { kind: 'ClusterRole', metadata: { name: 'r' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }] };
    expect(apiRuleViolations([ds, role])).toEqual([
      'agent: allowPrivilegeEscalation false beside privileged',
      'agent: runtime socket /run/containerd/containerd.sock writable',
      'other: Bidirectional mount /bi on an unprivileged container',
      'r: wildcard in {"apiGroups":[""],"resources":["pods"],"verbs":["*"]}',
    ]);
  });
});

describe('SecurityAgent in the examples app', () => {
  test('GIVEN the infrastructure example THEN its runtime sensor is schema-valid, unprivileged, reads the runtime socket read-only and is error-free', () => {
    const chart = testChart('node-services');
    addInfrastructure(chart);
    const objects = synth(chart);
    const ds = objects.find((o) => o.kind === 'DaemonSet' && o.metadata.annotations['node-services.cdk8s.io/kind'] === 'security-agent');
    validateAll(objects);
    expect(apiRuleViolations(objects)).toEqual([]);
    expect(containersOf(ds).filter((c) => c.securityContext.privileged)).toEqual([]);
    expect(
      ds.spec.template.spec.volumes.filter((v: any) => isContainerRuntimeSocket(v.hostPath?.path ?? '')).map((v: any) => v.name),
    ).toEqual(['runtime-socket']);
    expect(checkManifests([ds]).errorCount).toBe(0);
  });
});

describe('SecurityAgent seccomp', () => {
  test('GIVEN a Localhost seccomp profile THEN the sensor container uses it', () => {
    const chart = testChart('security');
    new SecurityAgent(chart, 'falco', {
      image: 'docker.io/falcosecurity/falco:0.44.1',
      seccompProfile: SeccompProfile.localhost('profiles/falco.json'),
    });
    const sensor = only(synth(chart), 'DaemonSet').spec.template.spec.containers[0];
    expect(sensor.securityContext.seccompProfile).toEqual({ type: 'Localhost', localhostProfile: 'profiles/falco.json' });
  });
});
