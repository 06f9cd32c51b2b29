/**
 * A Windows-only node service (`windows`): every pod a Windows HostProcess pod with all its containers, checked at the
 * boundary, clean under lint, scheduled on Windows nodes only by the coverage analyzer, admitted by the guardrails.
 */

import { Testing } from 'cdk8s';
import { analyzeCoverage, CoverageReason, CoverageStatus } from '../../src/coverage';
import {
  Canary,
  ContainerSpec,
  EnvField,
  HostPath,
  MountPropagation,
  NodePool,
  NodeRequirement,
  NodeService,
  NodeServiceGuardrails,
  NodeServiceKind,
  NodeServiceProps,
  NodeServicesNamespace,
  SeccompProfile,
  Taint,
  Variant,
} from '../../src';
import { checkManifests, Severity } from '../../src/policy';
import { validateAll } from '../support/schema';
import { app } from '../support/app';
import { errorOf, testChart } from '../support/synth';

const REASON = 'programs the HNS network and Open vSwitch on the Windows node';
const IMAGE = 'antrea/antrea-windows:v2.2.0';
const installer: ContainerSpec = {
  name: 'install-cni',
  image: IMAGE,
  command: ['powershell'],
  args: ['-file', '$env:CONTAINER_SANDBOX_MOUNT_POINT/var/lib/antrea-windows/Install-WindowsCNI-Containerd.ps1'],
};
const agent: ContainerSpec = {
  name: 'antrea-agent',
  image: IMAGE,
  command: ['powershell'],
  args: ['-file', '$env:CONTAINER_SANDBOX_MOUNT_POINT/var/lib/antrea-windows/Run-AntreaAgent-Containerd.ps1'],
  fieldEnv: { NODE_NAME: EnvField.NODE_NAME },
  hostPaths: [HostPath.writable('/etc/cni/net.d', { reason: 'writes the CNI configuration of the node' })],
};
const windowsPool = NodePool.of({
  name: 'windows',
  labels: { 'kubernetes.io/os': 'windows' },
  taints: [Taint.noSchedule('os', 'windows')],
});

function props(extra: Partial<NodeServiceProps> = {}): NodeServiceProps {
  return {
    name: 'antrea-agent-windows',
    kind: NodeServiceKind.CNI_PLUGIN,
    windows: { reason: REASON },
    containers: [agent],
    initContainers: [installer],
    ...extra,
  };
}

function synthesize(extra: Partial<NodeServiceProps> = {}): any[] {
  const chart = testChart('kube-system');
  new NodeService(chart, 'antrea', props(extra));
  return Testing.synth(chart).filter((o) => o.kind === 'DaemonSet');
}

describe('a Windows-only node service', () => {
  const [ds] = synthesize();
  const pod = ds.spec.template.spec;

  test('GIVEN windows WHEN synthesized THEN a HostProcess pod on the host network, on Windows nodes, run as SYSTEM', () => {
    expect(pod.os).toEqual({ name: 'windows' });
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
    expect(pod.hostNetwork).toBe(true);
    expect(pod.hostPID).toBe(false);
    expect(pod.dnsPolicy).toBe('ClusterFirstWithHostNet');
    expect(pod.securityContext).toEqual({ windowsOptions: { hostProcess: true, runAsUserName: Variant.WINDOWS_SYSTEM_USER } });
    expect(ds).toMatchSnapshot();
  });

  test('GIVEN an init container WHEN synthesized THEN every container is kept, with its Windows command as written and no Linux security context', () => {
    expect(pod.initContainers.map((c: any) => c.name)).toEqual(['install-cni']);
    expect(pod.containers.map((c: any) => c.name)).toEqual(['antrea-agent']);
    expect(pod.initContainers[0].args).toEqual(installer.args);
    expect(pod.containers[0].command).toEqual(['powershell']);
    for (const c of [...pod.initContainers, ...pod.containers]) expect(c.securityContext).toBeUndefined();
    expect(pod.volumes).toEqual([{ name: 'host-etc-cni-net-d', hostPath: { path: '/etc/cni/net.d', type: 'Directory' } }]);
  });

  test('GIVEN a runAsUserName WHEN synthesized THEN the pod runs as that user', () => {
    const [own] = synthesize({ windows: { reason: REASON, runAsUserName: 'NT AUTHORITY\\Local service' } });
    expect(own.spec.template.spec.securityContext.windowsOptions.runAsUserName).toBe('NT AUTHORITY\\Local service');
  });

  test('GIVEN the DaemonSet WHEN linted THEN no error (windows-fields-invalid included), and the HostProcess finding carries the reason', () => {
    const findings = checkManifests([ds]).findings;
    expect(findings.filter((f) => f.severity === Severity.ERROR && !f.suppressed).map((f) => f.ruleId)).toEqual([]);
    expect(findings.filter((f) => f.ruleId === 'windows-fields-invalid')).toEqual([]);
    const hostProcess = findings.filter((f) => f.ruleId === 'privileged-container');
    expect(hostProcess.length).toBeGreaterThan(0);
    for (const f of hostProcess)
      expect(f).toMatchObject({ suppressed: true, suppressionReason: expect.stringContaining(`Windows HostProcess: ${REASON}`) });
  });

  test('GIVEN the DaemonSet WHEN validated against the 1.28 schema THEN it is valid', () => {
    expect(() => validateAll([ds])).not.toThrow();
  });

  test('GIVEN a canary WHEN synthesized THEN the canary DaemonSet is a HostProcess pod with every container too', () => {
    const all = synthesize({ canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'antrea/antrea-windows:v2.3.0' }) });
    const canary = all.find((d) => d.metadata.name === 'antrea-agent-windows-canary');
    const spec = canary.spec.template.spec;
    expect(spec.os).toEqual({ name: 'windows' });
    expect(spec.securityContext.windowsOptions.hostProcess).toBe(true);
    expect(spec.containers[0].image).toBe('antrea/antrea-windows:v2.3.0');
    expect(spec.initContainers.map((c: any) => c.name)).toEqual(['install-cni']);
    expect(checkManifests(all).findings.filter((f) => f.severity === Severity.ERROR && !f.suppressed)).toEqual([]);
  });
});

describe('coverage of a Windows-only service', () => {
  const node = (name: string, os: string, taints: any[] = []) => ({
    metadata: { name, labels: { 'kubernetes.io/os': os, 'kubernetes.io/hostname': name } },
    spec: { taints },
  });
  const nodes = [
    node('linux-1', 'linux'),
    node('linux-2', 'linux'),
    node('win-1', 'windows', [{ key: 'os', value: 'windows', effect: 'NoSchedule' }]),
  ];

  test('GIVEN a Linux agent and a Windows-only agent on a mixed node list THEN each node runs the one built for its operating system', () => {
    const chart = testChart('kube-system');
    new NodeService(chart, 'linux', {
      name: 'antrea-agent',
      kind: NodeServiceKind.CNI_PLUGIN,
      hostNetwork: true,
      containers: [{ name: 'agent', image: 'antrea/antrea-agent:v2.2.0' }],
    });
    new NodeService(chart, 'windows', props({ pools: [windowsPool] }));
    const daemonSets = Testing.synth(chart).filter((o) => o.kind === 'DaemonSet');
    const report = analyzeCoverage(daemonSets, nodes);
    const running = nodes.map((n) => [
      n.metadata.name,
      report.workloads.filter((w) => w.nodes.find((x) => x.node === n.metadata.name)?.status === CoverageStatus.RUNNING).map((w) => w.name),
    ]);
    expect(running).toEqual([
      ['linux-1', ['antrea-agent']],
      ['linux-2', ['antrea-agent']],
      ['win-1', ['antrea-agent-windows']],
    ]);
  });

  test('GIVEN a Windows-only service whose selector is dropped WHEN analyzed THEN the Linux nodes refuse its pods for the operating system', () => {
    const [ds] = synthesize();
    delete ds.spec.template.spec.nodeSelector;
    const report = analyzeCoverage([ds], nodes);
    const linux = report.workloads[0].nodes.find((x) => x.node === 'linux-1');
    expect(linux).toMatchObject({ status: CoverageStatus.NOT_RUNNING, reason: CoverageReason.OS });
  });

  test('GIVEN a Windows pool THEN synth passes; GIVEN a Linux pool THEN it fails for the operating system', () => {
    expect(() => synthesize({ pools: [windowsPool] })).not.toThrow();
    const linux = NodePool.of({ name: 'general', labels: { 'kubernetes.io/os': 'linux' } });
    expect(errorOf((scope) => new NodeService(scope, 'svc', props({ pools: [linux] })))).toContain('would not run on node pool "general"');
  });
});

describe('guardrails of a Windows-only service', () => {
  test('GIVEN it in the platform namespace THEN audit and warn are privileged (HostProcess meets only privileged)', () => {
    const chart = testChart();
    const svc = new NodeService(chart, 'svc', props());
    new NodeServicesNamespace(chart, 'ns', { services: [svc] });
    const ns = Testing.synth(chart).find((o) => o.kind === 'Namespace');
    expect(ns.metadata.labels['pod-security.kubernetes.io/audit']).toBe('privileged');
    expect(ns.metadata.labels['pod-security.kubernetes.io/warn']).toBe('privileged');
  });

  test('GIVEN guardrails whose allowlists cover it WHEN synthesized THEN they admit it', () => {
    const { app: a, chart, warnings } = app();
    const svc = new NodeService(chart, 'svc', props());
    new NodeServicesNamespace(chart, 'ns', { services: [svc] });
    new NodeServiceGuardrails(chart, 'admission', {
      contact: '#platform-team',
      platformGroups: ['platform-admins'],
      hostPathAllowlist: ['/etc/cni/net.d'],
      registryAllowlist: ['docker.io/antrea'],
    });
    expect(() => a.synth()).not.toThrow();
    expect(warnings.join('')).not.toContain('guardrails-');
  });
});

describe('bad input to a Windows-only service', () => {
  const linuxPool = NodePool.of({ name: 'general', labels: { 'kubernetes.io/os': 'linux' } });
  test.each<[string, Partial<NodeServiceProps>, string]>([
    ['a short reason', { windows: { reason: 'short' } }, 'windows.reason = "short"'],
    // what a plain-JavaScript or jsii caller may pass
    ['windows as a boolean', { windows: true as any }, 'windows = true: must be an object (WindowsPodOptions)'],
    ['a reason of the wrong type', { windows: { reason: 5 as any } }, 'windows.reason = 5: must be a string'],
    [
      'a user name of the wrong type',
      { windows: { reason: REASON, runAsUserName: 7 as any } },
      'windows.runAsUserName = 7: must be a string',
    ],
    ['an unknown option', { windows: { reason: REASON, hostProcess: true } as any }, 'windows.hostProcess = true: is not an option here'],
    ['an invalid Windows user', { windows: { reason: REASON, runAsUserName: 'a\\b\\c' } }, 'windows.runAsUserName = "a\\\\b\\\\c"'],
    [
      'a kind without a Windows form',
      { kind: NodeServiceKind.GPU_MONITOR },
      'kind = "gpu-monitor": a gpu-monitor may not run Windows HostProcess pods',
    ],
    ['a pod-level user', { runAsUser: 1000 }, 'runAsUser = 1000: is Linux-only'],
    ['a pod-level group', { runAsGroup: 1000 }, 'runAsGroup = 1000: is Linux-only'],
    ['fsGroup', { fsGroup: 2000 }, 'fsGroup = 2000: is Linux-only'],
    ['no host network', { hostNetwork: false }, 'hostNetwork = false: a HostProcess pod must use the host network'],
    ['the host PID namespace', { hostPID: true }, 'hostPID = true: has no meaning on Windows'],
    [
      'a Linux node selector',
      { nodeSelector: { 'kubernetes.io/os': 'linux' } },
      'nodeSelector["kubernetes.io/os"] = "linux": selects other nodes than Windows ones',
    ],
    [
      'a node requirement of Linux nodes',
      { nodeRequirements: [NodeRequirement.in('kubernetes.io/os', ['linux'])] },
      'nodeRequirements[0] = {"key":"kubernetes.io/os","operator":"In","values":["linux"]}: leaves out the Windows nodes',
    ],
    [
      'an affinity term that leaves out Windows',
      { nodeAffinity: [{ requirements: [NodeRequirement.notIn('kubernetes.io/os', ['windows'])] }] },
      'nodeAffinity[0].requirements[0] = {"key":"kubernetes.io/os","operator":"NotIn","values":["windows"]}: leaves out the Windows nodes',
    ],
    [
      'an AppArmor annotation',
      { podAnnotations: { 'container.apparmor.security.beta.kubernetes.io/antrea-agent': 'unconfined' } },
      'podAnnotations["container.apparmor.security.beta.kubernetes.io/antrea-agent"] = "unconfined": AppArmor is Linux-only',
    ],
    [
      'capabilities',
      { containers: [{ ...agent, capabilities: ['NET_ADMIN'] }] },
      'containers[0].capabilities = ["NET_ADMIN"]: is Linux-only',
    ],
    [
      'a seccomp profile',
      { containers: [{ ...agent, seccompProfile: SeccompProfile.runtimeDefault() }] },
      'containers[0].seccompProfile = ',
    ],
    [
      'readOnlyRootFilesystem',
      { initContainers: [{ ...installer, readOnlyRootFilesystem: false }] },
      'initContainers[0].readOnlyRootFilesystem = false: is Linux-only',
    ],
    ['a container user', { containers: [{ ...agent, runAsUser: 0 }] }, 'containers[0].runAsUser = 0: is Linux-only'],
    ['a container group', { containers: [{ ...agent, runAsGroup: 0 }] }, 'containers[0].runAsGroup = 0: is Linux-only'],
    ['runAsNonRoot', { containers: [{ ...agent, runAsNonRoot: true }] }, 'containers[0].runAsNonRoot = true: is Linux-only'],
    [
      'privileged',
      { containers: [{ ...agent, privileged: true, privilegedReason: 'loads kernel modules for OVS' }] },
      'containers[0].privileged = true: is Linux-only',
    ],
    [
      'mount propagation',
      { containers: [{ ...agent, hostPaths: [HostPath.readOnly('/run/antrea', { propagation: MountPropagation.HOST_TO_CONTAINER })] }] },
      'containers[0].hostPaths[0].propagation = "HostToContainer": mount propagation is not supported on Windows',
    ],
    [
      'a Windows variant',
      { variants: [Variant.windows('win', { image: IMAGE, reason: REASON })] },
      'variants[0] = "win": is a Windows variant of a Windows-only service',
    ],
    [
      'a pool variant of Linux nodes',
      { pools: [linuxPool], variants: [Variant.forPool('general', linuxPool)] },
      'variants[0].pool = "general": is a pool of linux nodes',
    ],
  ])('GIVEN %s WHEN synthesized THEN one error names the field, the value and the fix', (_what, extra, expected) => {
    const message = errorOf((scope) => new NodeService(scope, 'svc', props(extra)));
    expect(message).toContain(expected);
    expect(message).toContain('Fix: ');
  });

  test('GIVEN several Linux-only props at once THEN one error lists every problem', () => {
    const message = errorOf(
      (scope) =>
        new NodeService(
          scope,
          'svc',
          props({ runAsUser: 1000, hostPID: true, containers: [{ ...agent, capabilities: ['NET_ADMIN'], readOnlyRootFilesystem: true }] }),
        ),
    );
    expect(message).toContain('invalid props (4 problems)');
    for (const field of ['runAsUser = 1000', 'hostPID = true', 'containers[0].capabilities', 'containers[0].readOnlyRootFilesystem = true'])
      expect(message).toContain(field);
  });
});
