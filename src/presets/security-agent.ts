/**
 * `SecurityAgent`: a runtime-security sensor (Falco, Tetragon…) or a node compliance / baseline scanner, with the
 * least privilege each job needs.
 */

import { Construct } from 'constructs';
import { ApiPermission } from '../core/api-access';
import { ProblemCollector } from '../k8s/problems';
import { HostPath } from '../core/host-path';
import { NodeService } from '../core/node-service';
import { HEALTH_ENDPOINT_SHAPE, HealthEndpointOptions, PRIVILEGE_SHAPE, PrivilegeOptions } from '../core/props';
import { Toleration } from '../core/placement';
import { bool, instance, list, oneOf, opt, str, checkArguments } from '../k8s/shape';
import { NodeServiceKind } from '../policy/kinds';
import { NodeServicePresetProps, PresetDefaults, presetService } from './common';
import { Resources } from '../core/container';
import { securityAgentContainer } from './security-container';
import {
  checkSecurityAgent,
  defaultComplianceHostPaths,
  securityAgentHostPaths,
  securityAgentSuppressions,
  SecurityAgentMode,
  COMPLIANCE_SCANNER_RESOURCES,
  RUNTIME_SENSOR_CAPABILITIES,
  SECURITY_AGENT_HOST_ROOT,
  SECURITY_AGENT_RESOURCES,
} from './security-modes';

export { SecurityAgentMode } from './security-modes';

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
  /** Default resources of a runtime sensor (`SECURITY_AGENT_RESOURCES`). */
  public static readonly RUNTIME_RESOURCES: Resources = SECURITY_AGENT_RESOURCES;
  /** Default resources of a compliance scanner (`COMPLIANCE_SCANNER_RESOURCES`). */
  public static readonly COMPLIANCE_RESOURCES: Resources = COMPLIANCE_SCANNER_RESOURCES;
  /** The capabilities a runtime sensor gets by default (`RUNTIME_SENSOR_CAPABILITIES`). */
  public static readonly RUNTIME_CAPABILITIES: string[] = [...RUNTIME_SENSOR_CAPABILITIES];
  /** Where a compliance scanner sees the host's root (`SECURITY_AGENT_HOST_ROOT`). */
  public static readonly HOST_ROOT: string = SECURITY_AGENT_HOST_ROOT;

  /** The read-only API access a runtime sensor gets by default: pods, namespaces and nodes get/list/watch. */
  public static defaultApiAccess(): ApiPermission[] {
    checkArguments('SecurityAgent.defaultApiAccess', arguments, []);
    return [ApiPermission.read(['pods', 'namespaces', 'nodes'])];
  }

  /** The default host paths of the compliance scanner (all read-only, at the same path in the container). */
  public static defaultComplianceHostPaths(): HostPath[] {
    checkArguments('SecurityAgent.defaultComplianceHostPaths', arguments, []);
    return defaultComplianceHostPaths();
  }

  /** What the agent does. */
  public readonly mode: SecurityAgentMode;

  constructor(scope: Construct, id: string, props: SecurityAgentProps) {
    const preset = presetService(props, 'SecurityAgent', SECURITY_AGENT_SHAPE, SecurityAgent.defaults);
    super(scope, id, preset.service);
    this.mode = preset.props.mode ?? SecurityAgentMode.RUNTIME;
  }

  private static defaults(props: SecurityAgentProps, problems: ProblemCollector): PresetDefaults {
    const runtime = (props.mode ?? SecurityAgentMode.RUNTIME) === SecurityAgentMode.RUNTIME;
    checkSecurityAgent(props, runtime, problems);
    const suppressions = securityAgentSuppressions(props, runtime);
    const hostPaths = securityAgentHostPaths(props, runtime);
    return {
      service: {
        name: 'security-agent',
        kind: NodeServiceKind.SECURITY_AGENT,
        podAnnotations: props.appArmorUnconfined ? { 'container.apparmor.security.beta.kubernetes.io/agent': 'unconfined' } : {},
        containers: [securityAgentContainer(props, runtime, hostPaths)],
        hostPID: !runtime,
        // Node infrastructure covers every real node: declared pools are verified, never used to narrow placement.
        nodeAffinity: [],
        tolerations: [Toleration.all()],
        terminationGracePeriodSeconds: 30,
        apiAccess: runtime ? SecurityAgent.defaultApiAccess() : undefined,
        suppressions,
      },
    };
  }
}
