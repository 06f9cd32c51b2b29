/**
 * The two modes of a {@link SecurityAgent} (eBPF runtime sensor, compliance scanner): their resources, capabilities,
 * host paths, checks and rule suppressions.
 */

import { Resources } from '../core/container';
import { ProblemCollector, userParts } from '../k8s/problems';
import { hostPathFrom } from './common';
import { HostPath, HostPathType } from '../core/host-path';
import { RuleSuppression } from '../core/props';
import { isContainerRuntimeSocket, kindProfile, NodeServiceKind } from '../policy/kinds';
import type { SecurityAgentProps } from './security-agent';

/** What the security agent does. */
export enum SecurityAgentMode {
  /**
   * An eBPF runtime sensor: watches syscalls and processes with the capabilities BPF, PERFMON, SYS_RESOURCE and
   * SYS_PTRACE, reading `/proc`, `/etc` and `/sys/kernel` (read-only).
   */
  RUNTIME = 'runtime',
  /**
   * A compliance / node-baseline scanner: sees host processes (host PID) and reads the kubelet, CNI and systemd
   * configuration (read-only), with no capability at all.
   */
  COMPLIANCE = 'compliance',
}

/** Default resources of a runtime sensor: requests 100m CPU / 512Mi, memory limit 1Gi, no CPU limit (a throttled sensor drops events). */
export const SECURITY_AGENT_RESOURCES: Resources = { cpuRequest: '100m', memoryRequest: '512Mi', memoryLimit: '1Gi' };

/** Default resources of a compliance scanner: requests 50m CPU / 64Mi, memory limit 128Mi. */
export const COMPLIANCE_SCANNER_RESOURCES: Resources = { cpuRequest: '50m', memoryRequest: '64Mi', memoryLimit: '128Mi' };

/** The capabilities of the eBPF runtime sensor: load eBPF programs, read perf events, raise memlock, read other processes. */
export const RUNTIME_SENSOR_CAPABILITIES: readonly string[] = kindProfile(NodeServiceKind.SECURITY_AGENT).defaultCapabilities;

/** Where the runtime sensor sees the host's files: `/host/proc`, `/host/etc`, and the runtime socket below `/host`. */
export const SECURITY_AGENT_HOST_ROOT = '/host';

/** The default host paths of the compliance scanner (all read-only, at the same path in the container). @internal */
export function defaultComplianceHostPaths(): HostPath[] {
  return [
    HostPath.readOnly('/etc/kubernetes'),
    HostPath.readOnly('/etc/systemd'),
    HostPath.readOnly('/lib/systemd'),
    HostPath.readOnly('/etc/cni/net.d'),
    HostPath.readOnly('/opt/cni/bin'),
    HostPath.readOnly('/var/lib/kubelet/config.yaml', { type: HostPathType.FILE }),
  ];
}

/** Reports the props that contradict the mode (and a runtime socket that is not one). @internal */
export function checkSecurityAgent(props: SecurityAgentProps, runtime: boolean, problems: ProblemCollector): void {
  if (props.privileged && !runtime) {
    problems.add(
      'privileged',
      true,
      'a compliance scanner only reads files and processes and must not be privileged',
      'drop privileged (add DAC_READ_SEARCH with a reason if it cannot read a file)',
    );
  }
  if (props.complianceHostPaths !== undefined && runtime) {
    problems.add(
      'complianceHostPaths',
      props.complianceHostPaths.map((h) => h.path),
      'only applies in compliance mode',
      'set mode: SecurityAgentMode.COMPLIANCE, or use extraHostPaths',
    );
  }
  if (props.runtimeSocket !== undefined && !isContainerRuntimeSocket(props.runtimeSocket)) {
    problems.add(
      'runtimeSocket',
      props.runtimeSocket,
      'is not a container runtime socket',
      'use the node runtime\'s socket, e.g. "/run/containerd/containerd.sock" or "/run/crio/crio.sock"',
    );
  }
}

/** The host paths of the agent: the runtime sensor's `/proc`, `/etc` and `/sys/kernel`, or the compliance scanner's; plus the runtime socket. @internal */
export function securityAgentHostPaths(props: SecurityAgentProps, runtime: boolean): HostPath[] {
  const root = SECURITY_AGENT_HOST_ROOT;
  const hostPaths: HostPath[] = runtime
    ? [
        HostPath.readOnly('/proc', { mountPath: `${root}/proc`, volumeName: 'proc' }),
        HostPath.readOnly('/etc', { mountPath: `${root}/etc`, volumeName: 'etc' }),
        HostPath.readOnly('/sys/kernel', { volumeName: 'sys-kernel' }),
      ]
    : props.complianceHostPaths
      ? userParts(props.complianceHostPaths, 'complianceHostPaths')
      : defaultComplianceHostPaths();
  if (props.runtimeSocket !== undefined) {
    const socket = HostPath.readOnly(props.runtimeSocket, {
      type: HostPathType.SOCKET,
      mountPath: `${root}${props.runtimeSocket}`,
      volumeName: 'runtime-socket',
    });
    hostPaths.push(hostPathFrom(socket, 'runtimeSocket'));
  }
  return hostPaths;
}

/** The rule suppressions the agent's mode and runtime socket call for, each with its reason. @internal */
export function securityAgentSuppressions(props: SecurityAgentProps, runtime: boolean): RuleSuppression[] {
  const suppressions: RuleSuppression[] = [];
  if (runtime)
    suppressions.push({
      ruleId: 'dangerous-capability',
      reason: 'BPF and SYS_PTRACE: the sensor loads its eBPF probes and reads the processes it watches',
    });
  if (props.runtimeSocket !== undefined) {
    suppressions.push({
      ruleId: 'container-runtime-socket',
      reason: `${props.runtimeSocket} (read-only): the sensor reads container metadata to attribute events to pods`,
    });
  }
  return suppressions;
}
