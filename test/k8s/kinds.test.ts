import { Chart } from 'cdk8s';
import { CniPlugin, CsiNode, GpuMonitor, LogAgent, MonitoringAgent, SecurityAgent } from '../../src';
import { checkManifests } from '../../src/policy/engine';
import {
  HostPathAllowance,
  isContainerRuntimeSocket,
  isHostPathAllowed,
  isSensitiveHostPath,
  kindProfile,
  kindProfiles,
  NodeServiceKind,
} from '../../src/policy/kinds';
import { SUPPRESSION_ANNOTATION_PREFIX } from '../../src/policy/suppression';
import { errorOf, only, synth, testChart } from '../support/synth';

describe('kind profiles', () => {
  test('GIVEN the log-agent profile THEN reads under /var/log and writes one dir below /var/lib only', () => {
    const p = kindProfile(NodeServiceKind.LOG_AGENT);
    expect(isHostPathAllowed(p, '/var/log/pods', false)).toBe(true);
    expect(isHostPathAllowed(p, '/var/log', true)).toBe(false);
    expect(isHostPathAllowed(p, '/var/lib/fluent-bit', true)).toBe(true);
    expect(isHostPathAllowed(p, '/var/lib', true)).toBe(false);
    expect(isHostPathAllowed(p, '/etc', false)).toBe(false);
  });

  test('GIVEN the same question asked again THEN the answer is the same, per access; a profile whose allowlist can change is asked afresh', () => {
    const p = kindProfile(NodeServiceKind.LOG_AGENT);
    for (let i = 0; i < 3; i++) {
      expect(isHostPathAllowed(p, '/var/lib/fluent-bit', true)).toBe(true);
      expect(isHostPathAllowed(p, '/var/log', true)).toBe(false);
      expect(isHostPathAllowed(p, '/var/log', false)).toBe(true);
    }
    const own = { ...p, hostPaths: [{ path: '/data', writable: false }] as HostPathAllowance[] };
    expect(isHostPathAllowed(own, '/data', true)).toBe(false);
    own.hostPaths[0] = { path: '/data', writable: true };
    expect(isHostPathAllowed(own, '/data', true)).toBe(true);
  });

  test('GIVEN the generic or an unknown kind THEN there is no allowlist', () => {
    expect(isHostPathAllowed(kindProfile(undefined), '/etc', true)).toBe(true);
    expect(kindProfile('something-else').kind).toBe(NodeServiceKind.GENERIC);
  });

  test('GIVEN the monitoring profile THEN everything is readable and nothing writable', () => {
    const p = kindProfile(NodeServiceKind.MONITORING_AGENT);
    expect(isHostPathAllowed(p, '/proc', false)).toBe(true);
    expect(isHostPathAllowed(p, '/tmp', true)).toBe(false);
  });

  test('runtime sockets and sensitive paths are recognized', () => {
    expect(isContainerRuntimeSocket('/run/containerd/containerd.sock')).toBe(true);
    expect(isContainerRuntimeSocket('/var/run')).toBe(true);
    expect(isContainerRuntimeSocket('/var/log')).toBe(false);
    expect(isSensitiveHostPath('/etc')).toBe(true);
    expect(isSensitiveHostPath('/etc/cni/net.d')).toBe(false);
  });
});

describe('the kind table', () => {
  test('GIVEN a `*` allowance THEN it never stands for a sensitive host path or a runtime socket directory', () => {
    const log = kindProfile(NodeServiceKind.LOG_AGENT);
    for (const p of ['/var/lib/kubelet', '/var/lib/kubelet/pods', '/var/lib/docker', '/var/lib/containerd', '/var/lib/etcd']) {
      expect({ p, writable: isHostPathAllowed(log, p, true) }).toEqual({ p, writable: false });
    }
    const cni = kindProfile(NodeServiceKind.CNI_PLUGIN);
    expect(isHostPathAllowed(cni, '/run/flannel', true)).toBe(true);
    expect(isHostPathAllowed(cni, '/var/run/cilium', true)).toBe(true);
    for (const p of ['/run/containerd', '/var/run/crio', '/run/docker.sock', '/run/k3s/containerd']) {
      expect({ p, writable: isHostPathAllowed(cni, p, true) }).toEqual({ p, writable: false });
    }
  });

  test('GIVEN any kind THEN its default capabilities are on its allowlist, and no kind may join the host IPC namespace', () => {
    for (const p of kindProfiles()) {
      for (const c of p.defaultCapabilities)
        expect({ kind: p.kind, c, listed: p.capabilities?.includes(c) ?? true }).toEqual({ kind: p.kind, c, listed: true });
      expect(p.hostIPC).toBe(false);
      if (p.privilegedExpected) expect(p.privilegedAllowed).toBe(true);
    }
  });

  test('GIVEN a caller that changes a profile THEN the table is unchanged (it is frozen)', () => {
    const cni = kindProfile(NodeServiceKind.CNI_PLUGIN);
    expect(() => (cni.capabilities as string[]).push('SYS_BOOT')).toThrow(TypeError);
    expect(() => Object.assign((cni.hostPaths as HostPathAllowance[])[3], { writable: true })).toThrow(TypeError);
    expect(kindProfile(NodeServiceKind.CNI_PLUGIN).capabilities).not.toContain('SYS_BOOT');
  });
});

describe('the constructs take their allowances from the kind table', () => {
  const image = 'registry.example.com/agent:1.2.3';
  const install = { command: ['/install.sh'] };

  test('GIVEN the presets THEN their default capabilities are the kind table’s', () => {
    expect(CniPlugin.DEFAULT_CAPABILITIES).toEqual(kindProfile(NodeServiceKind.CNI_PLUGIN).defaultCapabilities);
    expect(SecurityAgent.RUNTIME_CAPABILITIES).toEqual(kindProfile(NodeServiceKind.SECURITY_AGENT).defaultCapabilities);
    const chart = testChart('kube-system');
    new CniPlugin(chart, 'cni', { image, install, healthPort: 8081 });
    const agent = only(synth(chart), 'DaemonSet').spec.template.spec.containers[0];
    expect(agent.securityContext.capabilities).toEqual({ drop: ['ALL'], add: ['NET_ADMIN', 'NET_RAW'] });
  });

  test('GIVEN a CniPlugin with a capability off the CNI allowlist THEN it is refused, naming the allowlist', () => {
    const message = errorOf(
      (s) =>
        new CniPlugin(s, 'cni', {
          image,
          install,
          healthPort: 8081,
          extraCapabilities: ['SYS_CHROOT'],
          extraCapabilitiesReason: 'chroot into the host for plugins',
        }),
    );
    expect(message).toContain('SYS_CHROOT');
    expect(message).toContain('is not on the cni-plugin capability allowlist');
  });

  test('GIVEN a CniPlugin with SYS_ADMIN and a reason THEN lint of its output reports dangerous-capability only as suppressed with that reason', () => {
    const chart = testChart('kube-system');
    new CniPlugin(chart, 'cni', {
      image,
      install,
      healthPort: 8081,
      extraCapabilities: ['SYS_ADMIN'],
      extraCapabilitiesReason: 'mounts the cgroup2 filesystem for socket load balancing',
    });
    const report = checkManifests(synth(chart));
    const found = report.findings.filter((f) => f.ruleId === 'dangerous-capability');
    expect(found.map((f) => [f.message, f.suppressed])).toEqual([[expect.stringContaining("'SYS_ADMIN'"), true]]);
    expect(found[0].suppressionReason).toContain('mounts the cgroup2 filesystem');
  });

  test('GIVEN a LogAgent whose state dir is the kubelet directory THEN it is refused (no `*` grants a sensitive path)', () => {
    const message = errorOf((s) => new LogAgent(s, 'logs', { image, stateDir: '/var/lib/kubelet' }));
    expect(message).toContain('/var/lib/kubelet');
    expect(message).toContain('is not on the log-agent host-path allowlist for writable mounts');
  });

  test.each([
    ['LogAgent', (s: Chart) => new LogAgent(s, 'x', { image })],
    ['MonitoringAgent', (s: Chart) => new MonitoringAgent(s, 'x', { image })],
    ['GpuMonitor', (s: Chart) => new GpuMonitor(s, 'x', { image })],
    ['CniPlugin', (s: Chart) => new CniPlugin(s, 'x', { image, install, healthPort: 8081 })],
    ['CsiNode', (s: Chart) => new CsiNode(s, 'x', { image, driverName: 'ebs.csi.aws.com' })],
    ['SecurityAgent', (s: Chart) => new SecurityAgent(s, 'x', { image })],
  ])('GIVEN the default %s with its suppressions removed THEN it passes every rule at error level', (_name, build) => {
    const chart = testChart('node-services');
    build(chart);
    const objects = synth(chart).map((o) => {
      const annotations = Object.fromEntries(
        Object.entries(o.metadata?.annotations ?? {}).filter(([k]) => !k.startsWith(SUPPRESSION_ANNOTATION_PREFIX)),
      );
      return { ...o, metadata: { ...o.metadata, annotations } };
    });
    const report = checkManifests(objects);
    expect(report.objects.map((o) => o.kindSource)).toEqual(['annotation']);
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => `${f.ruleId} ${f.path}`)).toEqual([]);
  });
});
