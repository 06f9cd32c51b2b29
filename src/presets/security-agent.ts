/**
 * `SecurityAgent`: a runtime-security sensor (Falco, Tetragon…) or a node compliance / baseline scanner, with the
 * least privilege each job needs.
 */

import { Construct } from 'constructs';
import { ApiPermission } from '../core/api-access';
import { EnvField, Probe, Resources } from '../core/container';
import { ProblemCollector } from '../core/errors';
import { HostPath, HostPathType } from '../core/host-path';
import { NodeService } from '../core/node-service';
import { HEALTH_ENDPOINT_SHAPE, HealthEndpointOptions, PRIVILEGE_SHAPE, PrivilegeOptions, RuleSuppression } from '../core/options';
import { Toleration } from '../core/placement';
import { bool, instance, list, oneOf, opt, str } from '../core/shape';
import { isContainerRuntimeSocket, NodeServiceKind } from '../policy/kinds';
import { NodeServicePresetProps, PresetDefaults, presetServiceProps } from './common';

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
export const RUNTIME_SENSOR_CAPABILITIES: readonly string[] = ['BPF', 'PERFMON', 'SYS_RESOURCE', 'SYS_PTRACE'];

/** Where the runtime sensor sees the host's files: `/host/proc`, `/host/etc`, and the runtime socket below `/host`. */
export const SECURITY_AGENT_HOST_ROOT = '/host';

/**
 * Props of {@link SecurityAgent}. The health endpoint (`healthPort`, `healthPath`) defaults to port 8765 and
 * `/healthz` (Falco's web server), probed for startup (every 5 s, up to 20 failures: loading eBPF probes takes time),
 * readiness and liveness. `privileged` is for runtime mode only (kernel-module drivers), with `privilegedReason`;
 * prefer the eBPF capabilities. `apiAccess` defaults to {@link SecurityAgent.defaultApiAccess} in runtime mode and to
 * none in compliance mode.
 */
export interface SecurityAgentProps extends NodeServicePresetProps, HealthEndpointOptions, PrivilegeOptions {
  /**
   * What the agent does.
   * @default SecurityAgentMode.RUNTIME
   */
  readonly mode?: SecurityAgentMode;
  /**
   * A container runtime socket to read container metadata from (e.g. `/run/containerd/containerd.sock`), mounted
   * read-only at `/host<path>` with hostPath type `Socket`. It must be one of the known runtime sockets.
   * @default none
   */
  readonly runtimeSocket?: string;
  /**
   * The host paths the compliance scanner reads (compliance mode only), each read-only at the same path. Replaces the
   * default list.
   * @default `/etc/kubernetes`, `/etc/systemd`, `/lib/systemd`, `/etc/cni/net.d`, `/opt/cni/bin` (Directory) and the
   * kubelet configuration file `/var/lib/kubelet/config.yaml` (File)
   */
  readonly complianceHostPaths?: HostPath[];
  /**
   * Run the agent unconfined by AppArmor. AppArmor hosts (Ubuntu, Container-Optimized OS) otherwise keep a sensor from
   * reading other processes; Falco's least-privileged mode sets it.
   * @default false
   */
  readonly appArmorUnconfined?: boolean;
}

const SECURITY_AGENT_SHAPE = {
  ...HEALTH_ENDPOINT_SHAPE,
  ...PRIVILEGE_SHAPE,
  mode: opt(oneOf('SecurityAgentMode', Object.values(SecurityAgentMode))),
  runtimeSocket: opt(str),
  complianceHostPaths: opt(list(instance(HostPath, 'HostPath.readOnly(path)'))),
  appArmorUnconfined: opt(bool),
};

/**
 * A runtime-security or compliance agent on every node: it tolerates every taint (a sensor that skips nodes leaves
 * blind spots), runs as root with a read-only root filesystem, `NODE_NAME` from the downward API, HTTP startup,
 * readiness and liveness probes on `/healthz` at port 8765, rolls one node at a time, has 30 s to stop, excludes
 * virtual nodes, and sets no priority class unless asked.
 *
 * RUNTIME mode (default): an eBPF sensor with every capability dropped except BPF, PERFMON, SYS_RESOURCE and SYS_PTRACE
 * (more only by name with a reason; privileged only with a reason), `/proc` at `/host/proc`, `/etc` at `/host/etc`
 * and `/sys/kernel` read-only, optionally one container runtime socket read-only at `/host<path>`,
 * `HOST_ROOT=/host`, requests 100m/512Mi with a 1Gi memory limit, and read-only API access to pods, namespaces and
 * nodes for metadata.
 *
 * COMPLIANCE mode: a node-baseline scanner with host PID, no capability, never privileged, read-only mounts of
 * `/etc/kubernetes`, `/etc/systemd`, `/lib/systemd`, `/etc/cni/net.d`, `/opt/cni/bin` and the kubelet configuration
 * `/var/lib/kubelet/config.yaml` (not the whole kubelet directory: it holds every pod's Secret volumes), requests
 * 50m/64Mi with a 128Mi memory limit, and no API access.
 *
 * Host-path allowlist: `/proc`, `/etc`, `/sys/kernel`, `/sys/fs/cgroup`, `/boot`, `/lib/modules`, `/usr/src`,
 * `/usr/bin`, `/usr/lib/systemd`, `/lib/systemd`, `/var/lib/kubelet`, `/var/lib/etcd`, `/opt/cni/bin`,
 * `/srv/kubernetes` and the container runtime sockets (read-only); `/sys/fs/bpf` (writable). Capability allowlist:
 * BPF, PERFMON, SYS_RESOURCE, SYS_PTRACE, SYS_ADMIN, DAC_READ_SEARCH, IPC_LOCK, NET_ADMIN.
 */
export class SecurityAgent extends NodeService {
  /** The read-only API access a runtime sensor gets by default: pods, namespaces and nodes get/list/watch. */
  public static defaultApiAccess(): ApiPermission[] {
    return [ApiPermission.read(['pods', 'namespaces', 'nodes'])];
  }

  /** The default host paths of the compliance scanner (all read-only, at the same path in the container). */
  public static defaultComplianceHostPaths(): HostPath[] {
    return [
      HostPath.readOnly('/etc/kubernetes'),
      HostPath.readOnly('/etc/systemd'),
      HostPath.readOnly('/lib/systemd'),
      HostPath.readOnly('/etc/cni/net.d'),
      HostPath.readOnly('/opt/cni/bin'),
      HostPath.readOnly('/var/lib/kubelet/config.yaml', { type: HostPathType.FILE }),
    ];
  }

  /** What the agent does. */
  public readonly mode: SecurityAgentMode;

  constructor(scope: Construct, id: string, props: SecurityAgentProps) {
    super(scope, id, presetServiceProps(props, 'SecurityAgent', SECURITY_AGENT_SHAPE, SecurityAgent.defaults));
    this.mode = props.mode ?? SecurityAgentMode.RUNTIME;
  }

  private static check(props: SecurityAgentProps, runtime: boolean, problems: ProblemCollector): void {
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

  private static hostPaths(props: SecurityAgentProps, runtime: boolean): HostPath[] {
    const root = SECURITY_AGENT_HOST_ROOT;
    const hostPaths: HostPath[] = runtime
      ? [
          HostPath.readOnly('/proc', { mountPath: `${root}/proc`, volumeName: 'proc' }),
          HostPath.readOnly('/etc', { mountPath: `${root}/etc`, volumeName: 'etc' }),
          HostPath.readOnly('/sys/kernel', { volumeName: 'sys-kernel' }),
        ]
      : [...(props.complianceHostPaths ?? SecurityAgent.defaultComplianceHostPaths())];
    if (props.runtimeSocket !== undefined) {
      hostPaths.push(
        HostPath.readOnly(props.runtimeSocket, {
          type: HostPathType.SOCKET,
          mountPath: `${root}${props.runtimeSocket}`,
          volumeName: 'runtime-socket',
        }),
      );
    }
    return hostPaths;
  }

  private static defaults(props: SecurityAgentProps, problems: ProblemCollector): PresetDefaults {
    const runtime = (props.mode ?? SecurityAgentMode.RUNTIME) === SecurityAgentMode.RUNTIME;
    SecurityAgent.check(props, runtime, problems);
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
    const healthPath = props.healthPath ?? '/healthz';
    const hostPaths = SecurityAgent.hostPaths(props, runtime);
    return {
      service: {
        name: 'security-agent',
        kind: NodeServiceKind.SECURITY_AGENT,
        podAnnotations: props.appArmorUnconfined ? { 'container.apparmor.security.beta.kubernetes.io/agent': 'unconfined' } : {},
        containers: [
          {
            name: 'agent',
            image: props.image,
            env: runtime ? { HOST_ROOT: SECURITY_AGENT_HOST_ROOT } : undefined,
            fieldEnv: { NODE_NAME: EnvField.NODE_NAME },
            ports: [{ name: 'health', containerPort: props.healthPort ?? 8765 }],
            startup: Probe.httpGet(healthPath, 'health', {
              initialDelaySeconds: 3,
              periodSeconds: 5,
              timeoutSeconds: 5,
              failureThreshold: 20,
            }),
            readiness: Probe.httpGet(healthPath, 'health', { periodSeconds: 15, timeoutSeconds: 5 }),
            liveness: Probe.httpGet(healthPath, 'health', { periodSeconds: 15, timeoutSeconds: 5, failureThreshold: 3 }),
            resources: runtime ? SECURITY_AGENT_RESOURCES : COMPLIANCE_SCANNER_RESOURCES,
            hostPaths,
            capabilities: runtime ? [...RUNTIME_SENSOR_CAPABILITIES] : [],
            privileged: props.privileged === true,
            privilegedReason: props.privilegedReason,
            runAsUser: 0,
            runAsNonRoot: false,
          },
        ],
        hostPID: !runtime,
        // Node infrastructure covers every real node: declared pools are verified, never used to narrow placement.
        nodeAffinity: [],
        tolerations: [Toleration.all()],
        terminationGracePeriodSeconds: 30,
        apiAccess: runtime ? SecurityAgent.defaultApiAccess() : undefined,
        suppressions,
      },
      renames: [
        ['containers[0].ports[0].containerPort', 'healthPort'],
        ['containers[0].privileged', 'privileged'],
        ['containers[0].privilegedReason', 'privilegedReason'],
        ...(props.runtimeSocket !== undefined
          ? ([[`containers[0].hostPaths[${hostPaths.length - 1}].path`, 'runtimeSocket']] as Array<[string, string]>)
          : []),
        ...(!runtime && props.complianceHostPaths ? ([['containers[0].hostPaths', 'complianceHostPaths']] as Array<[string, string]>) : []),
      ],
    };
  }
}
