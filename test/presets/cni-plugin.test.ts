import { App, Chart } from 'cdk8s';
import { ApiPermission, HostPath, Mount, Probe, Rollout, Toleration } from '../../src';
import { checkManifests } from '../../src/policy/engine';
import { CniPlugin, CniPluginProps } from '../../src/presets/cni-plugin';
import { addInfrastructure } from '../../examples/infrastructure';
import { apiRuleViolations } from '../support/api-rules';
import { validateAll } from '../support/schema';
import { containersOf, errorOf, only, synth, testChart } from '../support/synth';
import { ErrorRow } from '../support/table';

const image = 'docker.io/flannel/flannel:v0.25.6';
const install = {
  image: 'docker.io/flannel/flannel-cni-plugin:v1.5.1-flannel2',
  command: [
    'sh',
    '-c',
    'cp -f /flannel /host/opt/cni/bin/flannel && cp -f /etc/kube-flannel/cni-conf.json /host/etc/cni/net.d/10-flannel.conflist',
  ],
  mounts: [Mount.configMap('kube-flannel-cfg', '/etc/kube-flannel')],
};

function build(props: Partial<CniPluginProps> = {}): any[] {
  const chart = testChart('kube-system');
  new CniPlugin(chart, 'network', { name: 'kube-flannel', image, install, healthPort: 8081, stateDir: '/run/flannel', ...props });
  return synth(chart);
}

const privilegedContainers = (objects: any[]): string[] =>
  containersOf(only(objects, 'DaemonSet'))
    .filter((c) => c.securityContext.privileged)
    .map((c) => c.name);

describe('CniPlugin', () => {
  // GIVEN a flannel-style CNI with only its image, installer, health port and state dir WHEN synthesized
  const objects = build();
  const ds = only(objects, 'DaemonSet');
  const pod = ds.spec.template.spec;
  const agent = pod.containers[0];
  const installer = pod.initContainers[0];

  test('THEN it is a schema-valid DaemonSet with its ServiceAccount and RBAC, matching the snapshot', () => {
    expect(objects.map((o) => o.kind)).toEqual(['DaemonSet', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding']);
    validateAll(objects);
    expect(objects).toMatchSnapshot();
  });

  test('THEN it meets the API rules: no privileged container, no wildcard, no Secrets, no namespaced cluster object', () => {
    expect(apiRuleViolations(objects)).toEqual([]);
    expect(privilegedContainers(objects)).toEqual([]);
  });

  test('THEN the policy catalogue finds no error, and every warning it finds carries a recorded reason', () => {
    const report = checkManifests(objects);
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(report.findings.filter((f) => f.severity === 'warning' && !f.suppressed)).toEqual([]);
  });

  test('THEN it uses the host network with DNS policy Default, tolerates every taint and is node-critical', () => {
    expect(pod.hostNetwork).toBe(true);
    expect(pod.hostPID).toBe(false);
    expect(pod.dnsPolicy).toBe('Default');
    expect(pod.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(pod.priorityClassName).toBe('system-node-critical');
    expect(ds.metadata.annotations['node-services.cdk8s.io/kind']).toBe('cni-plugin');
  });

  test('THEN the installer alone writes /opt/cni/bin and /etc/cni/net.d, both typed DirectoryOrCreate', () => {
    expect(installer.name).toBe('install-cni');
    expect(installer.image).toBe(install.image);
    expect(installer.command).toEqual(install.command);
    expect(installer.volumeMounts).toEqual([
      { name: 'cni-bin', mountPath: '/host/opt/cni/bin', readOnly: false },
      { name: 'cni-net-d', mountPath: '/host/etc/cni/net.d', readOnly: false },
      { name: 'cm-kube-flannel-cfg', mountPath: '/etc/kube-flannel', readOnly: true },
    ]);
    const byName = new Map<string, any>(pod.volumes.map((v: any) => [v.name, v]));
    expect(byName.get('cni-bin').hostPath).toEqual({ path: '/opt/cni/bin', type: 'DirectoryOrCreate' });
    expect(byName.get('cni-net-d').hostPath).toEqual({ path: '/etc/cni/net.d', type: 'DirectoryOrCreate' });
    expect(agent.volumeMounts.map((m: any) => m.name)).not.toContain('cni-bin');
    expect(agent.volumeMounts.map((m: any) => m.name)).not.toContain('cni-net-d');
    expect(installer.securityContext).toMatchObject({
      privileged: false,
      allowPrivilegeEscalation: false,
      runAsUser: 0,
      capabilities: { drop: ['ALL'] },
    });
  });

  test('THEN the agent has the xtables lock (FileOrCreate) and its state dir writable, /lib/modules read-only, each writable path with its reason', () => {
    const byName = new Map<string, any>(pod.volumes.map((v: any) => [v.name, v]));
    expect(byName.get('xtables-lock').hostPath).toEqual({ path: '/run/xtables.lock', type: 'FileOrCreate' });
    expect(byName.get('lib-modules').hostPath).toEqual({ path: '/lib/modules', type: 'Directory' });
    expect(byName.get('state').hostPath).toEqual({ path: '/run/flannel', type: 'DirectoryOrCreate' });
    expect(agent.volumeMounts).toEqual([
      { name: 'xtables-lock', mountPath: '/run/xtables.lock', readOnly: false },
      { name: 'lib-modules', mountPath: '/lib/modules', readOnly: true },
      { name: 'state', mountPath: '/run/flannel', readOnly: false },
    ]);
    const reasons = ds.metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable'];
    for (const path of ['/run/xtables.lock', '/run/flannel', '/opt/cni/bin', '/etc/cni/net.d']) expect(reasons).toContain(`${path}: `);
  });

  test('THEN the agent is unprivileged with only NET_ADMIN and NET_RAW, whose reason is recorded', () => {
    expect(agent.securityContext).toMatchObject({
      privileged: false,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsUser: 0,
      capabilities: { drop: ['ALL'], add: ['NET_ADMIN', 'NET_RAW'] },
    });
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/dangerous-capability']).toContain('NET_ADMIN: ');
  });

  test('THEN probes use the health port on the node, the rollout never surges and the grace period is short', () => {
    expect(agent.ports).toEqual([{ name: 'health', containerPort: 8081, hostPort: 8081, protocol: 'TCP' }]);
    expect(agent.readinessProbe.httpGet).toEqual({ path: '/healthz', port: 'health', scheme: 'HTTP' });
    expect(agent.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health', scheme: 'HTTP' });
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(pod.terminationGracePeriodSeconds).toBe(1);
    expect(agent.env).toEqual([{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]);
  });

  test('THEN it reads nodes, patches only the node status and gets pods, with the token mounted', () => {
    expect(only(objects, 'ClusterRole').rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
    ]);
    expect(only(objects, 'ClusterRoleBinding').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'kube-flannel', namespace: 'kube-system' },
    ]);
    expect(pod.serviceAccountName).toBe('kube-flannel');
    expect(pod.automountServiceAccountToken).toBe(true);
  });
});

describe('CniPlugin options', () => {
  test('GIVEN privileged with a reason and the BPF filesystem THEN the agent is privileged, admissible, and the BPF mount is Bidirectional', () => {
    const objects = build({
      privileged: true,
      privilegedReason: 'the iptables dataplane needs full network privileges',
      bpfFilesystem: true,
    });
    const ds = only(objects, 'DaemonSet');
    const agent = ds.spec.template.spec.containers[0];
    expect(privilegedContainers(objects)).toEqual(['agent']);
    expect(agent.securityContext).toMatchObject({ privileged: true, allowPrivilegeEscalation: true });
    expect(agent.volumeMounts).toContainEqual({
      name: 'bpf-maps',
      mountPath: '/sys/fs/bpf',
      readOnly: false,
      mountPropagation: 'Bidirectional',
    });
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/privileged-container']).toBe(
      'agent: the iptables dataplane needs full network privileges',
    );
    expect(apiRuleViolations(objects)).toEqual([]);
    validateAll(objects);
  });

  test('GIVEN the BPF filesystem without privilege THEN the mount uses HostToContainer propagation', () => {
    const agent = only(build({ bpfFilesystem: true }), 'DaemonSet').spec.template.spec.containers[0];
    expect(agent.volumeMounts).toContainEqual({
      name: 'bpf-maps',
      mountPath: '/sys/fs/bpf',
      readOnly: false,
      mountPropagation: 'HostToContainer',
    });
  });

  test('GIVEN the agent writes the CNI configuration THEN it shares the installer volume, writable', () => {
    const pod = only(build({ agentWritesCniConfig: true }), 'DaemonSet').spec.template.spec;
    expect(pod.containers[0].volumeMounts).toContainEqual({ name: 'cni-net-d', mountPath: '/host/etc/cni/net.d', readOnly: false });
    expect(pod.volumes.filter((v: any) => v.hostPath?.path === '/etc/cni/net.d')).toHaveLength(1);
  });

  test('GIVEN extra capabilities with a reason THEN they are added after the defaults and the reason is recorded', () => {
    const ds = only(
      build({ extraCapabilities: ['BPF', 'PERFMON'], extraCapabilitiesReason: 'the eBPF dataplane loads its programs' }),
      'DaemonSet',
    );
    expect(ds.spec.template.spec.containers[0].securityContext.capabilities.add).toEqual(['NET_ADMIN', 'NET_RAW', 'BPF', 'PERFMON']);
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/dangerous-capability']).toContain(
      'BPF, PERFMON: the eBPF dataplane loads its programs',
    );
  });

  test('GIVEN OnDelete with a reason THEN the update strategy is OnDelete and the reason is recorded', () => {
    const ds = only(build({ rollout: Rollout.onDelete('nodes are drained and replaced by the node upgrade pipeline') }), 'DaemonSet');
    expect(ds.spec.updateStrategy).toEqual({ type: 'OnDelete' });
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/on-delete-without-reason']).toBe(
      'nodes are drained and replaced by the node upgrade pipeline',
    );
  });

  test('GIVEN a readiness probe and no health port THEN no port is declared and the given probe is used', () => {
    const c = only(build({ healthPort: undefined, readiness: Probe.exec(['/bin/true']) }), 'DaemonSet').spec.template.spec.containers[0];
    expect(c.ports).toBeUndefined();
    expect(c.readinessProbe.exec).toEqual({ command: ['/bin/true'] });
    expect(c.livenessProbe).toBeUndefined();
  });

  test('GIVEN apiAccess [] THEN no ServiceAccount or RBAC is created and no token is mounted', () => {
    const objects = build({ apiAccess: [] });
    expect(objects.map((o) => o.kind)).toEqual(['DaemonSet']);
    expect(only(objects, 'DaemonSet').spec.template.spec.automountServiceAccountToken).toBe(false);
  });

  test('GIVEN a chart namespace THEN the ClusterRole and its binding still carry none', () => {
    const chart = new Chart(new App({ outdir: require('os').tmpdir() + '/cdk8s-node-services-test' }), 'ns', { namespace: 'kube-network' });
    new CniPlugin(chart, 'network', {
      image,
      install,
      healthPort: 8081,
      apiAccess: [...CniPlugin.defaultApiAccess(), ApiPermission.read(['endpointslices'], 'discovery.k8s.io')],
    });
    const objects = synth(chart);
    expect(apiRuleViolations(objects)).toEqual([]);
    expect(only(objects, 'ClusterRole').rules).toHaveLength(4);
    expect(only(objects, 'ClusterRole').metadata.name).toBe('kube-network-cni-plugin');
  });

  test('GIVEN extra tolerations THEN they follow the tolerate-all toleration', () => {
    const pod = only(build({ tolerations: [Toleration.exists('example.com/dedicated')] }), 'DaemonSet').spec.template.spec;
    expect(pod.tolerations).toEqual([{ operator: 'Exists' }, { key: 'example.com/dedicated', operator: 'Exists' }]);
  });
});

describe('CniPlugin errors', () => {
  const rows: ErrorRow<CniPluginProps>[] = [
    {
      name: 'GIVEN a host path outside the cni-plugin allowlist THEN construction fails naming the path and the allowlist',
      input: { image, install, healthPort: 8081, extraHostPaths: [HostPath.readOnly('/var/lib/kubelet')] },
      want: [
        '[test/network]',
        'extraHostPaths[0].path = "/var/lib/kubelet"',
        'cni-plugin host-path allowlist for read-only mounts',
        '/opt/cni/bin (read-write)',
      ],
    },
    {
      name: 'GIVEN a state dir outside /run THEN construction fails naming the writable allowlist',
      input: { image, install, healthPort: 8081, stateDir: '/var/lib/flannel' },
      want: ['"/var/lib/flannel"', 'cni-plugin host-path allowlist for writable mounts'],
    },
    {
      name: 'GIVEN a capability outside the allowlist (with a reason) THEN construction fails naming the allowlist',
      input: { image, install, healthPort: 8081, extraCapabilities: ['SYS_PTRACE'], extraCapabilitiesReason: 'inspects other processes' },
      want: ['extraCapabilities[0] = "SYS_PTRACE"', 'cni-plugin capability allowlist (NET_ADMIN, NET_RAW, NET_BIND_SERVICE, BPF'],
    },
    {
      name: 'GIVEN extra capabilities without a reason THEN construction fails asking for one',
      input: { image, install, healthPort: 8081, extraCapabilities: ['BPF'] },
      want: ['[test/network]', 'extraCapabilitiesReason = undefined: extraCapabilities BPF need a reason of at least 10 characters'],
    },
    {
      name: 'GIVEN privileged without a reason THEN construction fails asking for privilegedReason',
      input: { image, install, healthPort: 8081, privileged: true },
      want: ['privilegedReason = undefined: no reason given', 'Fix: say why the container must be privileged (privilegedReason)'],
    },
    {
      name: 'GIVEN privileged with a too short reason THEN construction fails showing the reason',
      input: { image, install, healthPort: 8081, privileged: true, privilegedReason: 'needed' },
      want: ['privilegedReason = "needed"'],
    },
    {
      name: 'GIVEN a surge rollout THEN construction fails: a CNI never surges',
      input: { image, install, healthPort: 8081, rollout: Rollout.surge(1) },
      want: ['rollout = {"maxSurge":1}: a CNI agent must never surge'],
    },
    {
      name: 'GIVEN neither a health port nor a readiness probe THEN construction fails asking for one',
      input: { image, install },
      want: ['healthPort = undefined: a CNI agent needs a readiness probe'],
    },
    {
      name: 'GIVEN an installer without a command THEN construction fails',
      input: { image, install: { command: [] }, healthPort: 8081 },
      want: ['install.command = []: the installer needs a command'],
    },
    {
      name: 'GIVEN an unpinned installer image THEN construction fails naming the init container',
      input: { image, install: { ...install, image: 'docker.io/flannel/flannel-cni-plugin' }, healthPort: 8081 },
      want: ['install.image = "docker.io/flannel/flannel-cni-plugin"'],
    },
  ];

  test.each(rows)('$name', ({ input, want }) => {
    // WHEN the plugin is built from the props of the row
    const message = errorOf((scope) => new CniPlugin(scope, 'network', input));
    // THEN the one error holds each wanted text
    for (const text of want) expect(message).toContain(text);
  });
});

describe('the API-rule checker used above', () => {
  test('GIVEN objects breaking each rule THEN it reports every violation', () => {
    const ds = only(build(), 'DaemonSet');
    const [installer, agent] = containersOf(ds);
    installer.securityContext = { ...installer.securityContext, privileged: true, allowPrivilegeEscalation: false };
    agent.volumeMounts.push({ name: 'sock', mountPath: '/host/run/containerd/containerd.sock', mountPropagation: 'Bidirectional' });
    ds.spec.template.spec.volumes.push({ name: 'sock', hostPath: { path: '/run/containerd/containerd.sock', type: 'Socket' } });
    const role = {
      kind: 'ClusterRole',
      metadata: { name: 'r', namespace: 'x' },
      rules: [{ apiGroups: [''], resources: ['secrets', '*'], verbs: ['get'] }],
    };
    expect(apiRuleViolations([ds, role])).toEqual([
      'install-cni: allowPrivilegeEscalation false beside privileged',
      'agent: Bidirectional mount /host/run/containerd/containerd.sock on an unprivileged container',
      'agent: runtime socket /run/containerd/containerd.sock writable',
      'ClusterRole r carries a namespace',
      'r: wildcard in {"apiGroups":[""],"resources":["secrets","*"],"verbs":["get"]}',
      'r: touches secrets',
    ]);
  });
});

describe('CniPlugin in the examples app', () => {
  test('GIVEN the infrastructure example THEN its CNI is schema-valid, unprivileged and error-free under the policy catalogue', () => {
    const chart = testChart('node-services');
    addInfrastructure(chart);
    const objects = synth(chart);
    const ds = objects.find((o) => o.kind === 'DaemonSet' && o.metadata.annotations['node-services.cdk8s.io/kind'] === 'cni-plugin');
    validateAll(objects);
    expect(apiRuleViolations(objects)).toEqual([]);
    expect(containersOf(ds).filter((c) => c.securityContext.privileged)).toEqual([]);
    expect(checkManifests([ds]).errorCount).toBe(0);
    expect(ds.spec.template.spec.initContainers[0].image).toMatch(/flannel-cni-plugin:v\d/);
  });
});
