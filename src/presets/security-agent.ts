/**
 * `SecurityAgent`: a runtime-security sensor (Falco, Tetragon…) or a node compliance / baseline scanner, with the
 * least privilege each job needs.
 */

import { Construct } from 'constructs';
import { ApiPermission } from '../core/api-access';
import { EnvField, Probe, Resources } from '../core/container';
import { ProblemCollector } from '../core/errors';
import { HostPath, HostPathType } from '../core/host-path';
import { NodeService, NodeServiceProps, RuleSuppression } from '../core/node-service';
import { Toleration } from '../core/placement';
import { MIN_REASON_LENGTH } from '../core/pod';
import { Rollout } from '../core/rollout';
import { NodeServiceKind } from '../policy/kinds';
import { commonServiceProps, NodeServicePresetProps, checkExtraCapabilities } from './common';

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

/** Props of {@link SecurityAgent}. */
export interface SecurityAgentProps extends NodeServicePresetProps {
  /** The agent image, pinned (e.g. `docker.io/falcosecurity/falco:0.44.1`). */
  readonly image: string;
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
   * Port of the agent's HTTP health endpoint, declared as `health`.
   * @default 8765 (Falco's web server)
   */
  readonly healthPort?: number;
  /**
   * Path of the health endpoint, probed for startup, readiness and liveness.
   * @default `/healthz`
   */
  readonly healthPath?: string;
  /**
   * Startup probe of the agent (loading eBPF probes takes time).
   * @default HTTP GET healthPath, every 5 s, up to 20 failures (about 100 s)
   */
  readonly startup?: Probe;
  /**
   * Run the agent unconfined by AppArmor. AppArmor hosts (Ubuntu, Container-Optimized OS) otherwise keep a sensor from
   * reading other processes; Falco's least-privileged mode sets it.
   * @default false
   */
  readonly appArmorUnconfined?: boolean;
  /**
   * Run the sensor privileged (kernel-module drivers need it). Runtime mode only, and only with `privilegedReason`;
   * prefer the eBPF capabilities.
   * @default false
   */
  readonly privileged?: boolean;
  /**
   * Why the sensor must be privileged (at least 10 characters); required when `privileged` is true, and recorded in the
   * manifest for reviewers.
   * @default none
   */
  readonly privilegedReason?: string;
  /**
   * Kubernetes API access of the agent. Replaces the default; `[]` means no API access and no token.
   * @default runtime: SecurityAgent.defaultApiAccess() (pods, namespaces, nodes get/list/watch); compliance: none
   */
  readonly apiAccess?: ApiPermission[];
}

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
    super(scope, id, SecurityAgent.serviceProps(scope, id, props));
    this.mode = props.mode ?? SecurityAgentMode.RUNTIME;
  }

  private static serviceProps(scope: Construct, id: string, props: SecurityAgentProps): NodeServiceProps {
    const mode = props.mode ?? SecurityAgentMode.RUNTIME;
    const runtime = mode === SecurityAgentMode.RUNTIME;
    const problems = new ProblemCollector();
    if (mode !== SecurityAgentMode.RUNTIME && mode !== SecurityAgentMode.COMPLIANCE) {
      problems.add('mode', mode, 'is not a security agent mode', 'use SecurityAgentMode.RUNTIME or SecurityAgentMode.COMPLIANCE');
    }
    const { capabilities: extraCapabilities, suppressions: extraSuppressions } = checkExtraCapabilities(props, problems, 'agent');
    if (props.privileged && !runtime) {
      problems.add(
        'privileged',
        true,
        'a compliance scanner only reads files and processes and must not be privileged',
        'drop privileged (add DAC_READ_SEARCH with a reason if it cannot read a file)',
      );
    } else if (props.privileged && !isReason(props.privilegedReason)) {
      problems.add(
        'privilegedReason',
        props.privilegedReason,
        `a privileged sensor needs a reason of at least ${MIN_REASON_LENGTH} characters`,
        'say why the eBPF capabilities are not enough (privilegedReason), or drop privileged',
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
    problems.throwIfAny(scope.node.path ? `${scope.node.path}/${id}` : id);

    const name = props.name ?? 'security-agent';
    const healthPath = props.healthPath ?? '/healthz';
    const hostPaths: HostPath[] = runtime
      ? [
          HostPath.readOnly('/proc', { mountPath: `${SECURITY_AGENT_HOST_ROOT}/proc`, volumeName: 'proc' }),
          HostPath.readOnly('/etc', { mountPath: `${SECURITY_AGENT_HOST_ROOT}/etc`, volumeName: 'etc' }),
          HostPath.readOnly('/sys/kernel', { volumeName: 'sys-kernel' }),
        ]
      : [...(props.complianceHostPaths ?? SecurityAgent.defaultComplianceHostPaths())];
    if (props.runtimeSocket !== undefined) {
      hostPaths.push(
        HostPath.readOnly(props.runtimeSocket, {
          type: HostPathType.SOCKET,
          mountPath: `${SECURITY_AGENT_HOST_ROOT}${props.runtimeSocket}`,
          volumeName: 'runtime-socket',
        }),
      );
    }
    hostPaths.push(...(props.extraHostPaths ?? []));

    const suppressions: RuleSuppression[] = [];
    if (runtime) {
      suppressions.push({
        ruleId: 'dangerous-capability',
        reason: 'BPF and SYS_PTRACE: the sensor loads its eBPF probes and reads the processes it watches',
      });
    }
    suppressions.push(...extraSuppressions);
    if (props.runtimeSocket !== undefined) {
      suppressions.push({
        ruleId: 'container-runtime-socket',
        reason: `${props.runtimeSocket} (read-only): the sensor reads container metadata to attribute events to pods`,
      });
    }
    suppressions.push(...(props.suppressions ?? []));

    const baseCapabilities = runtime ? RUNTIME_SENSOR_CAPABILITIES : [];
    const capabilities = [...baseCapabilities, ...extraCapabilities.filter((c) => !baseCapabilities.includes(c))];
    const podAnnotations = { ...(props.podAnnotations ?? {}) };
    if (props.appArmorUnconfined) podAnnotations['container.apparmor.security.beta.kubernetes.io/agent'] = 'unconfined';

    return {
      ...commonServiceProps(props),
      podAnnotations,
      name,
      kind: NodeServiceKind.SECURITY_AGENT,
      containers: [
        {
          name: 'agent',
          image: props.image,
          command: props.command,
          args: props.args,
          env: runtime ? { HOST_ROOT: SECURITY_AGENT_HOST_ROOT, ...(props.env ?? {}) } : props.env,
          envFrom: props.envFrom,
          fieldEnv: { NODE_NAME: EnvField.NODE_NAME },
          ports: [{ name: 'health', containerPort: props.healthPort ?? 8765 }],
          startup:
            props.startup ??
            Probe.httpGet(healthPath, 'health', { initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 5, failureThreshold: 20 }),
          readiness: props.readiness ?? Probe.httpGet(healthPath, 'health', { periodSeconds: 15, timeoutSeconds: 5 }),
          liveness: props.liveness ?? Probe.httpGet(healthPath, 'health', { periodSeconds: 15, timeoutSeconds: 5, failureThreshold: 3 }),
          resources: props.resources ?? (runtime ? SECURITY_AGENT_RESOURCES : COMPLIANCE_SCANNER_RESOURCES),
          hostPaths,
          mounts: props.mounts,
          seccompProfile: props.seccompProfile,
          capabilities,
          privileged: props.privileged === true,
          privilegedReason: props.privilegedReason,
          runAsUser: 0,
          runAsNonRoot: false,
        },
      ],
      hostPID: !runtime,
      // Node infrastructure covers every real node: declared pools are verified, never used to narrow placement.
      nodeAffinity: props.nodeAffinity ?? [],
      tolerations: [Toleration.all(), ...(props.tolerations ?? [])],
      rollout: props.rollout ?? Rollout.maxUnavailable(1),
      priorityClassName: props.priorityClassName,
      terminationGracePeriodSeconds: props.terminationGracePeriodSeconds ?? 30,
      apiAccess: props.apiAccess ?? (runtime ? SecurityAgent.defaultApiAccess() : undefined),
      suppressions,
    };
  }
}

function isReason(reason: string | undefined): boolean {
  return typeof reason === 'string' && reason.trim().length >= MIN_REASON_LENGTH;
}
