import { ApiPermission, HostPath, Rollout } from '../../src';
import { checkManifests } from '../../src/policy/engine';
import { CsiNode, CsiNodeProps } from '../../src/presets/csi-node';
import { addInfrastructure } from '../../examples/infrastructure';
import { apiRuleViolations } from '../support/api-rules';
import { validateAll } from '../support/schema';
import { containersOf, errorOf, only, synth, testChart } from '../support/synth';
import { ErrorRow } from '../support/table';

const image = 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.46.0';
const driverName = 'ebs.csi.aws.com';

function build(props: Partial<CsiNodeProps> = {}): any[] {
  const chart = testChart('kube-system');
  new CsiNode(chart, 'storage', { driverName, image, ...props });
  return synth(chart);
}

describe('CsiNode', () => {
  // GIVEN a CSI node plugin with only a driver name and an image WHEN synthesized
  const objects = build();
  const ds = only(objects, 'DaemonSet');
  const pod = ds.spec.template.spec;
  const [driver, registrar, probe] = pod.containers;
  const volume = (name: string): any => pod.volumes.find((v: any) => v.name === name);

  test('THEN it is a schema-valid DaemonSet named after the driver with its ServiceAccount and RBAC, matching the snapshot', () => {
    expect(objects.map((o) => o.kind)).toEqual(['DaemonSet', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding']);
    expect(ds.metadata.name).toBe('ebs-csi-node');
    validateAll(objects);
    expect(objects).toMatchSnapshot();
  });

  test('THEN only the driver container is privileged, and it stays admissible (privilege escalation not forbidden)', () => {
    expect(
      containersOf(ds)
        .filter((c) => c.securityContext.privileged)
        .map((c) => c.name),
    ).toEqual(['driver']);
    expect(driver.securityContext).toMatchObject({ privileged: true, allowPrivilegeEscalation: true });
    expect(apiRuleViolations(objects)).toEqual([]);
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/privileged-container']).toContain('driver: ');
  });

  test('THEN the policy catalogue finds no error, and every warning it finds carries a recorded reason', () => {
    const report = checkManifests(objects);
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(report.findings.filter((f) => f.severity === 'warning' && !f.suppressed)).toEqual([]);
  });

  test('THEN every path derives from the driver name', () => {
    expect(volume('plugin-dir').hostPath).toEqual({ path: '/var/lib/kubelet/plugins/ebs.csi.aws.com', type: 'DirectoryOrCreate' });
    expect(volume('registration-dir').hostPath).toEqual({ path: '/var/lib/kubelet/plugins_registry', type: 'Directory' });
    expect(volume('kubelet-dir').hostPath).toEqual({ path: '/var/lib/kubelet', type: 'Directory' });
    expect(volume('device-dir').hostPath).toEqual({ path: '/dev', type: 'Directory' });
    expect(registrar.args).toEqual([
      '--csi-address=/csi/csi.sock',
      '--kubelet-registration-path=/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock',
      '--http-endpoint=:9809',
    ]);
  });

  test('THEN the driver mounts the kubelet dir Bidirectional, its socket dir and /dev, and gets the node name and endpoint', () => {
    expect(driver.volumeMounts).toEqual([
      { name: 'kubelet-dir', mountPath: '/var/lib/kubelet', readOnly: false, mountPropagation: 'Bidirectional' },
      { name: 'plugin-dir', mountPath: '/csi', readOnly: false },
      { name: 'device-dir', mountPath: '/dev', readOnly: false },
    ]);
    expect(driver.env).toEqual([
      { name: 'CSI_ENDPOINT', value: 'unix:///csi/csi.sock' },
      { name: 'CSI_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    ]);
    expect(driver.args).toEqual(['--endpoint=$(CSI_ENDPOINT)']);
  });

  test("THEN the driver's liveness goes through the livenessprobe sidecar on port 9808, named healthz on the driver", () => {
    expect(driver.ports).toEqual([{ name: 'healthz', containerPort: 9808, protocol: 'TCP' }]);
    expect(driver.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'healthz', scheme: 'HTTP' });
    expect(driver.readinessProbe.httpGet).toEqual({ path: '/healthz', port: 'healthz', scheme: 'HTTP' });
    expect(probe.name).toBe('liveness-probe');
    expect(probe.args).toEqual(['--csi-address=/csi/csi.sock', '--health-port=9808']);
    expect(registrar.ports).toEqual([{ name: 'healthz', containerPort: 9809, protocol: 'TCP' }]);
  });

  test('THEN the sidecars share the socket dir read-only and are hardened; only the registrar writes the registration dir', () => {
    for (const sidecar of [registrar, probe]) {
      expect(sidecar.securityContext).toMatchObject({
        privileged: false,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(sidecar.securityContext.capabilities.add).toBeUndefined();
      expect(sidecar.volumeMounts).toContainEqual({ name: 'plugin-dir', mountPath: '/csi', readOnly: true });
      expect(sidecar.resources).toEqual({ requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '32Mi' } });
    }
    expect(registrar.image).toMatch(/^registry\.k8s\.io\/sig-storage\/csi-node-driver-registrar:v\d+\.\d+\.\d+$/);
    expect(probe.image).toMatch(/^registry\.k8s\.io\/sig-storage\/livenessprobe:v\d+\.\d+\.\d+$/);
    expect(registrar.volumeMounts).toContainEqual({ name: 'registration-dir', mountPath: '/registration', readOnly: false });
    expect(probe.volumeMounts).toHaveLength(1);
  });

  test('THEN it tolerates every taint, is node-critical, rolls 10% without surge and has no host namespaces', () => {
    expect(pod.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(pod.priorityClassName).toBe('system-node-critical');
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 } });
    expect(pod.hostNetwork).toBe(false);
    expect(pod.hostPID).toBe(false);
    expect(pod.terminationGracePeriodSeconds).toBe(30);
    expect(driver.resources).toEqual({ requests: { cpu: '10m', memory: '40Mi' }, limits: { memory: '256Mi' } });
  });

  test('THEN it reads nodes, csinodes and volumeattachments only', () => {
    expect(only(objects, 'ClusterRole').rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
      { apiGroups: ['storage.k8s.io'], resources: ['csinodes'], verbs: ['get'] },
      { apiGroups: ['storage.k8s.io'], resources: ['volumeattachments'], verbs: ['get', 'list', 'watch'] },
    ]);
    expect(pod.automountServiceAccountToken).toBe(true);
  });
});

describe('CsiNode options', () => {
  test('GIVEN a node-name variable, sidecar images and a preStop hook THEN the driver and sidecars use them', () => {
    const pod = only(
      build({
        name: 'ebs-node',
        nodeNameEnv: 'KUBE_NODE_NAME',
        registrarImage: 'registry.example.com/csi-node-driver-registrar:v2.14.0',
        livenessProbeImage: 'registry.example.com/livenessprobe:v2.16.0',
        preStop: ['/bin/aws-ebs-csi-driver', 'pre-stop-hook'],
      }),
      'DaemonSet',
    ).spec.template.spec;
    expect(pod.containers.map((c: any) => c.image)).toEqual([
      image,
      'registry.example.com/csi-node-driver-registrar:v2.14.0',
      'registry.example.com/livenessprobe:v2.16.0',
    ]);
    expect(pod.containers[0].env[1]).toEqual({ name: 'KUBE_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } });
    expect(pod.containers[0].lifecycle).toEqual({ preStop: { exec: { command: ['/bin/aws-ebs-csi-driver', 'pre-stop-hook'] } } });
  });

  test('GIVEN extra read-only host paths on the allowlist THEN the driver mounts them read-only', () => {
    const driver = only(build({ extraHostPaths: [HostPath.readOnly('/run/udev'), HostPath.readOnly('/sys')] }), 'DaemonSet').spec.template
      .spec.containers[0];
    expect(driver.volumeMounts.slice(3)).toEqual([
      { name: 'host-run-udev', mountPath: '/run/udev', readOnly: true },
      { name: 'host-sys', mountPath: '/sys', readOnly: true },
    ]);
  });

  test('GIVEN an allowed extra capability with a reason THEN it is added to the driver and the reason recorded', () => {
    const ds = only(
      build({ extraCapabilities: ['SYS_ADMIN'], extraCapabilitiesReason: 'mounts filesystems from an unprivileged build' }),
      'DaemonSet',
    );
    expect(ds.spec.template.spec.containers[0].securityContext.capabilities.add).toEqual(['SYS_ADMIN']);
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/dangerous-capability']).toBe(
      'SYS_ADMIN: mounts filesystems from an unprivileged build',
    );
  });

  test('GIVEN extra API access for the startup taint THEN the ClusterRole adds node patch, still without wildcards', () => {
    const objects = build({ apiAccess: [...CsiNode.defaultApiAccess(), ApiPermission.of('', ['nodes'], ['patch'])] });
    expect(only(objects, 'ClusterRole').rules[3]).toEqual({ apiGroups: [''], resources: ['nodes'], verbs: ['patch'] });
    expect(apiRuleViolations(objects)).toEqual([]);
  });

  test('GIVEN OnDelete with a reason THEN the update strategy is OnDelete', () => {
    expect(
      only(build({ rollout: Rollout.onDelete('storage nodes are replaced by the upgrade pipeline') }), 'DaemonSet').spec.updateStrategy,
    ).toEqual({ type: 'OnDelete' });
  });

  test('GIVEN the construct THEN it exposes the driver name, plugin dir and socket path', () => {
    const chart = testChart();
    const csi = new CsiNode(chart, 'storage', {
      driverName: 'hostpath.csi.k8s.io',
      image: 'registry.k8s.io/sig-storage/hostpathplugin:v1.17.0',
    });
    expect([csi.name, csi.driverName, csi.pluginDir, csi.socketPath]).toEqual([
      'hostpath-csi-node',
      'hostpath.csi.k8s.io',
      '/var/lib/kubelet/plugins/hostpath.csi.k8s.io',
      '/var/lib/kubelet/plugins/hostpath.csi.k8s.io/csi.sock',
    ]);
  });
});

describe('CsiNode default name', () => {
  test.each([
    ['ebs.csi.aws.com', 'ebs-csi-node'],
    ['pd.csi.storage.gke.io', 'pd-csi-node'],
    ['csi.acme.io', 'acme-csi-node'],
    ['csi.vsphere.vmware.com', 'vsphere-csi-node'],
    ['csi-powerstore.dellemc.com', 'powerstore-csi-node'],
    ['rook-ceph.rbd.csi.ceph.com', 'rook-ceph-csi-node'],
    ['driver.longhorn.io', 'driver-csi-node'],
    ['csi', 'csi-node'],
  ])('GIVEN driver %s and no name THEN the DaemonSet is %s (never "csi-csi-node")', (driver, expected) => {
    const chart = testChart('kube-system');
    new CsiNode(chart, 'storage', { driverName: driver, image });
    expect(only(synth(chart), 'DaemonSet').metadata.name).toBe(expected);
  });

  test('GIVEN an explicit name THEN it is used as given', () => {
    const chart = testChart('kube-system');
    new CsiNode(chart, 'storage', { driverName: 'csi.acme.io', image, name: 'acme-storage' });
    expect(only(synth(chart), 'DaemonSet').metadata.name).toBe('acme-storage');
  });
});

describe('CsiNode errors', () => {
  test.each([
    ['upper case', 'EBS.csi.aws.com'],
    ['an underscore', 'ebs_csi.aws.com'],
    ['an empty label', 'ebs..aws.com'],
    ['a slash', 'ebs.csi.aws.com/'],
  ])('GIVEN a driver name with %s THEN construction fails naming the field, the value and the fix', (_what, bad) => {
    const message = errorOf((scope) => new CsiNode(scope, 'storage', { driverName: bad, image }));
    expect(message).toContain('[test/storage]');
    expect(message).toContain(`driverName = ${JSON.stringify(bad)}: must consist of lower-case alphanumeric characters`);
    expect(message).toContain('Fix: use the driver name the driver registers, a DNS subdomain such as "ebs.csi.aws.com"');
  });

  const rows: ErrorRow<CsiNodeProps>[] = [
    {
      name: 'GIVEN a host path outside the csi-node allowlist THEN construction fails naming the allowlist',
      input: { driverName, image, extraHostPaths: [HostPath.readOnly('/etc/kubernetes')] },
      want: [
        'extraHostPaths[0].path = "/etc/kubernetes"',
        'csi-node host-path allowlist for read-only mounts (allowed: /var/lib/kubelet (read-write), /dev (read-write)',
      ],
    },
    {
      name: 'GIVEN a capability outside the allowlist (with a reason) THEN construction fails naming the allowlist',
      input: { driverName, image, extraCapabilities: ['NET_ADMIN'], extraCapabilitiesReason: 'configures the storage network' },
      want: ['extraCapabilities[0] = "NET_ADMIN"', 'csi-node capability allowlist (SYS_ADMIN)'],
    },
    {
      name: 'GIVEN an extra capability without a reason THEN construction fails asking for one',
      input: { driverName, image, extraCapabilities: ['SYS_ADMIN'] },
      want: ['extraCapabilitiesReason = undefined: extraCapabilities SYS_ADMIN need a reason'],
    },
    {
      name: 'GIVEN a surge rollout THEN construction fails: two drivers would fight over the socket',
      input: { driverName, image, rollout: Rollout.surgePercent(10) },
      want: ['rollout = {"maxSurge":"10%"}: a CSI node plugin must never surge'],
    },
    {
      name: 'GIVEN an invalid node-name variable THEN construction fails naming it',
      input: { driverName, image, nodeNameEnv: '1NODE' },
      want: ['nodeNameEnv = "1NODE"'],
    },
    {
      name: 'GIVEN an unpinned sidecar image THEN construction fails naming the sidecar',
      input: { driverName, image, registrarImage: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:latest' },
      want: ['registrarImage = "registry.k8s.io/sig-storage/csi-node-driver-registrar:latest"'],
    },
  ];

  test.each(rows)('$name', ({ input, want }) => {
    // WHEN the plugin is built from the props of the row
    const message = errorOf((scope) => new CsiNode(scope, 'storage', input));
    // THEN the one error holds each wanted text
    for (const text of want) expect(message).toContain(text);
  });
});

describe('the API-rule checker used above', () => {
  test('GIVEN objects breaking each rule THEN it reports every violation', () => {
    const ds = only(build(), 'DaemonSet');
    const [driver, registrar] = containersOf(ds);
    driver.securityContext = { ...driver.securityContext, allowPrivilegeEscalation: false };
    registrar.volumeMounts.push({ name: 'sock', mountPath: '/host/run/crio/crio.sock', mountPropagation: 'Bidirectional' });
    ds.spec.template.spec.volumes.push({ name: 'sock', hostPath: { path: '/run/crio/crio.sock', type: 'Socket' } });
    const binding = { kind: 'ClusterRoleBinding', metadata: { name: 'b', namespace: 'x' } };
    const role = {
      kind: 'ClusterRole',
      metadata: { name: 'r' },
      rules: [{ apiGroups: ['*'], resources: ['secrets/status'], verbs: ['get'] }],
    };
    expect(apiRuleViolations([ds, binding, role])).toEqual([
      'driver: allowPrivilegeEscalation false beside privileged',
      'node-driver-registrar: Bidirectional mount /host/run/crio/crio.sock on an unprivileged container',
      'node-driver-registrar: runtime socket /run/crio/crio.sock writable',
      'ClusterRoleBinding b carries a namespace',
      'r: wildcard in {"apiGroups":["*"],"resources":["secrets/status"],"verbs":["get"]}',
      'r: touches secrets',
    ]);
  });
});

describe('CsiNode in the examples app', () => {
  test('GIVEN the infrastructure example THEN its CSI node plugin is schema-valid, only its driver is privileged, and it is error-free', () => {
    const chart = testChart('node-services');
    addInfrastructure(chart);
    const objects = synth(chart);
    const ds = objects.find((o) => o.kind === 'DaemonSet' && o.metadata.annotations['node-services.cdk8s.io/kind'] === 'csi-node');
    validateAll(objects);
    expect(apiRuleViolations(objects)).toEqual([]);
    expect(
      containersOf(ds)
        .filter((c) => c.securityContext.privileged)
        .map((c) => c.name),
    ).toEqual(['driver']);
    expect(checkManifests([ds]).errorCount).toBe(0);
    expect(ds.spec.template.spec.containers[0].image).toMatch(/aws-ebs-csi-driver:v\d/);
  });
});
