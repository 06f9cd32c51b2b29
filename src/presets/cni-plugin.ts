/**
 * `CniPlugin`: the node agent of a CNI network plugin (flannel, Calico, Cilium…) with the defaults upstream experts
 * agree on: host network, every taint tolerated, node-critical priority, an installer init container for the plugin
 * binaries and configuration, and named network capabilities instead of privilege.
 */

import { Construct } from 'constructs';
import { ApiPermission } from '../core/api-access';
import { ContainerSpec, EnvField, Mount, Probe, Resources } from '../core/container';
import { ProblemCollector } from '../core/errors';
import { HostPath, HostPathType, MountPropagation } from '../core/host-path';
import { DnsPolicy, NodeService, NodeServiceProps, RuleSuppression } from '../core/node-service';
import { Toleration } from '../core/placement';
import { MIN_REASON_LENGTH } from '../core/pod';
import { Rollout } from '../core/rollout';
import { isZeroIntOrPercent } from '../k8s';
import { NodeServiceKind } from '../policy/kinds';
import { commonServiceProps, NodeServicePresetProps, checkExtraCapabilities } from './common';

/** Default resources of a CNI agent: requests 100m CPU / 64Mi, memory limit 256Mi, no CPU limit (never throttle the datapath). */
export const CNI_PLUGIN_RESOURCES: Resources = { cpuRequest: '100m', memoryRequest: '64Mi', memoryLimit: '256Mi' };

/** Default resources of the CNI installer init container: requests 10m CPU / 16Mi, memory limit 64Mi. */
export const CNI_INSTALLER_RESOURCES: Resources = { cpuRequest: '10m', memoryRequest: '16Mi', memoryLimit: '64Mi' };

/** Where the installer (and, with `agentWritesCniConfig`, the agent) sees the host's `/opt/cni/bin`. */
export const CNI_BIN_MOUNT_PATH = '/host/opt/cni/bin';

/** Where the installer (and, with `agentWritesCniConfig`, the agent) sees the host's `/etc/cni/net.d`. */
export const CNI_CONF_MOUNT_PATH = '/host/etc/cni/net.d';

/** The capabilities a CNI agent gets by default: NET_ADMIN (interfaces, routes, iptables) and NET_RAW (raw sockets). */
export const CNI_PLUGIN_CAPABILITIES: readonly string[] = ['NET_ADMIN', 'NET_RAW'];

/** The init container that installs the CNI plugin binaries and configuration on the node. */
export interface CniInstaller {
  /**
   * Image of the installer, pinned (e.g. `docker.io/flannel/flannel-cni-plugin:v1.5.1-flannel2`).
   * @default the agent image
   */
  readonly image?: string;
  /**
   * The install command. It finds the host's `/opt/cni/bin` at `/host/opt/cni/bin` and `/etc/cni/net.d` at
   * `/host/etc/cni/net.d` (both writable), copies the plugin binaries and writes the network configuration there,
   * then exits.
   */
  readonly command: string[];
  /**
   * Arguments of the install command.
   * @default none
   */
  readonly args?: string[];
  /**
   * Plain environment variables of the installer.
   * @default none
   */
  readonly env?: { [name: string]: string };
  /**
   * Pod-local mounts of the installer (typically the ConfigMap holding the network configuration).
   * @default none
   */
  readonly mounts?: Mount[];
  /**
   * Resources of the installer.
   * @default CNI_INSTALLER_RESOURCES (requests 10m / 16Mi, memory limit 64Mi)
   */
  readonly resources?: Resources;
}

/** Props of {@link CniPlugin}. */
export interface CniPluginProps extends NodeServicePresetProps {
  /** The agent image, pinned (e.g. `docker.io/flannel/flannel:v0.25.6`). */
  readonly image: string;
  /** The init container that installs the plugin binaries into `/opt/cni/bin` and the configuration into `/etc/cni/net.d`. */
  readonly install: CniInstaller;
  /**
   * Port of the agent's HTTP health endpoint on the node (the agent uses the host network), declared as `health`.
   * Required unless `readiness` is given (a rollout must be able to tell a working agent from a broken one).
   * @default none
   */
  readonly healthPort?: number;
  /**
   * Path of the health endpoint on `healthPort`, probed for readiness and liveness.
   * @default `/healthz`
   */
  readonly healthPath?: string;
  /**
   * Host directory for the agent's runtime state (e.g. flannel's `subnet.env`), writable, `DirectoryOrCreate`. Must lie
   * below `/run` or `/var/run`.
   * @default `/run/<name>`
   */
  readonly stateDir?: string;
  /**
   * The agent itself (not only the installer) writes the CNI configuration (Calico and Cilium do): mounts
   * `/etc/cni/net.d` writable into the agent too, at `/host/etc/cni/net.d`.
   * @default false
   */
  readonly agentWritesCniConfig?: boolean;
  /**
   * Mount the BPF filesystem `/sys/fs/bpf` writable (eBPF dataplanes pin maps there so the datapath survives agent
   * restarts); propagation is HostToContainer, Bidirectional when `privileged`.
   * @default false
   */
  readonly bpfFilesystem?: boolean;
  /**
   * Environment variables of the agent from the downward API.
   * @default `{ NODE_NAME: EnvField.NODE_NAME }`
   */
  readonly fieldEnv?: { [name: string]: EnvField };
  /**
   * Run the agent privileged (Calico's default dataplane needs it). Only with `privilegedReason`; prefer named
   * capabilities.
   * @default false
   */
  readonly privileged?: boolean;
  /**
   * Why the agent must be privileged (at least 10 characters); required when `privileged` is true, and recorded in the
   * manifest for reviewers.
   * @default none
   */
  readonly privilegedReason?: string;
  /**
   * Command run before the agent stops (e.g. remove the CNI configuration so the node stops scheduling pods onto a
   * network that is going away).
   * @default none
   */
  readonly preStop?: string[];
  /**
   * Kubernetes API access of the agent. Replaces the default; `[]` means no API access and no token.
   * @default CniPlugin.defaultApiAccess(): nodes get/list/watch, nodes/status patch, pods get
   */
  readonly apiAccess?: ApiPermission[];
}

/**
 * The node agent of a CNI network plugin, on every node. Defaults: host network with DNS policy `Default` (cluster DNS
 * needs the CNI first), tolerates every taint (a node without its CNI never becomes Ready), `system-node-critical`, an
 * `install-cni` init container that writes `/opt/cni/bin` and `/etc/cni/net.d` (both writable, `DirectoryOrCreate`, at
 * `/host/opt/cni/bin` and `/host/etc/cni/net.d`) and exits, the agent with `/run/xtables.lock` writable
 * (`FileOrCreate`, shared with kube-proxy), `/lib/modules` read-only and its state dir `/run/<name>` writable
 * (`DirectoryOrCreate`), root user with every capability dropped except `NET_ADMIN` and `NET_RAW` (more only by name
 * with a reason; privileged only with a reason), read-only root filesystem, `NODE_NAME` from the downward API, HTTP
 * readiness and liveness on `healthPort`, requests 100m/64Mi with a 256Mi memory limit, rolling update one node at a
 * time and never surge (the agent owns host ports and the CNI configuration), 1 s termination grace (datapath state
 * persists on the host), virtual nodes excluded, API access: nodes get/list/watch, nodes/status patch (clear the
 * node's NetworkUnavailable condition), pods get. Host-path allowlist: `/opt/cni/bin`, `/etc/cni/net.d`,
 * `/run/xtables.lock`, `/sys/fs/bpf`, `/var/lib/cni`, below `/run` and `/var/run` (writable); `/lib/modules`,
 * `/proc/sys/net` (read-only). Capability allowlist: NET_ADMIN, NET_RAW, NET_BIND_SERVICE, BPF, PERFMON, SYS_ADMIN,
 * SYS_RESOURCE, SYS_MODULE, IPC_LOCK, CHOWN, KILL, DAC_OVERRIDE, FOWNER, SETGID, SETUID.
 */
export class CniPlugin extends NodeService {
  /** The least-privilege API access a CNI agent gets by default: nodes get/list/watch, nodes/status patch, pods get. */
  public static defaultApiAccess(): ApiPermission[] {
    return [ApiPermission.read(['nodes']), ApiPermission.of('', ['nodes/status'], ['patch']), ApiPermission.of('', ['pods'], ['get'])];
  }

  /** The host directory holding the agent's runtime state. */
  public readonly stateDir: string;

  constructor(scope: Construct, id: string, props: CniPluginProps) {
    super(scope, id, CniPlugin.serviceProps(scope, id, props));
    this.stateDir = CniPlugin.stateDirOf(props);
  }

  private static stateDirOf(props: CniPluginProps): string {
    return props.stateDir ?? `/run/${props.name ?? 'cni-plugin'}`;
  }

  private static serviceProps(scope: Construct, id: string, props: CniPluginProps): NodeServiceProps {
    const problems = new ProblemCollector();
    const { capabilities: extraCapabilities, suppressions: extraSuppressions } = checkExtraCapabilities(props, problems, 'agent');
    if (props.privileged && !isReason(props.privilegedReason)) {
      problems.add(
        'privilegedReason',
        props.privilegedReason,
        `a privileged CNI agent needs a reason of at least ${MIN_REASON_LENGTH} characters`,
        'say why named capabilities are not enough (privilegedReason), or drop privileged and use extraCapabilities',
      );
    }
    if (!props.install || !Array.isArray(props.install.command) || props.install.command.length === 0) {
      problems.add(
        'install.command',
        props.install?.command,
        'the installer needs a command (an init container that does not exit blocks the agent)',
        'give the command that copies the plugin binaries to /host/opt/cni/bin and the configuration to /host/etc/cni/net.d',
      );
    }
    if (props.healthPort === undefined && props.readiness === undefined) {
      problems.add(
        'healthPort',
        props.healthPort,
        'a CNI agent needs a readiness probe so that a rollout stops at a broken node',
        'set healthPort (HTTP GET healthPath on it), or pass readiness',
      );
    }
    rejectSurge(props.rollout, problems);
    problems.throwIfAny(constructPath(scope, id));

    const name = props.name ?? 'cni-plugin';
    const privileged = props.privileged === true;
    const healthPath = props.healthPath ?? '/healthz';
    const cniConf = (writer: string): HostPath =>
      HostPath.writable('/etc/cni/net.d', {
        type: HostPathType.DIRECTORY_OR_CREATE,
        mountPath: CNI_CONF_MOUNT_PATH,
        volumeName: 'cni-net-d',
        reason: `${writer} writes the CNI network configuration the kubelet reads`,
      });

    const installer: ContainerSpec = {
      name: 'install-cni',
      image: props.install?.image ?? props.image,
      command: props.install?.command,
      args: props.install?.args,
      env: props.install?.env,
      mounts: props.install?.mounts,
      resources: props.install?.resources ?? CNI_INSTALLER_RESOURCES,
      hostPaths: [
        HostPath.writable('/opt/cni/bin', {
          type: HostPathType.DIRECTORY_OR_CREATE,
          mountPath: CNI_BIN_MOUNT_PATH,
          volumeName: 'cni-bin',
          reason: 'the installer copies the CNI plugin binaries the kubelet runs for every pod',
        }),
        cniConf('the installer'),
      ],
      runAsUser: 0,
      runAsNonRoot: false,
    };

    const hostPaths: HostPath[] = [
      HostPath.writable('/run/xtables.lock', {
        type: HostPathType.FILE_OR_CREATE,
        volumeName: 'xtables-lock',
        reason: 'iptables takes this lock so that the CNI and kube-proxy never rewrite the node rules at the same time',
      }),
      HostPath.readOnly('/lib/modules', { volumeName: 'lib-modules' }),
      HostPath.writable(CniPlugin.stateDirOf(props), {
        type: HostPathType.DIRECTORY_OR_CREATE,
        volumeName: 'state',
        reason: 'keeps the node network state (e.g. the node subnet lease) across agent restarts',
      }),
    ];
    if (props.agentWritesCniConfig) hostPaths.push(cniConf('the agent'));
    if (props.bpfFilesystem) {
      hostPaths.push(
        HostPath.writable('/sys/fs/bpf', {
          volumeName: 'bpf-maps',
          propagation: privileged ? MountPropagation.BIDIRECTIONAL : MountPropagation.HOST_TO_CONTAINER,
          reason: 'pins eBPF maps and programs so the datapath survives agent restarts',
        }),
      );
    }
    hostPaths.push(...(props.extraHostPaths ?? []));

    const capabilities = [...CNI_PLUGIN_CAPABILITIES, ...extraCapabilities.filter((c) => !CNI_PLUGIN_CAPABILITIES.includes(c))];
    const suppressions: RuleSuppression[] = [
      { ruleId: 'dangerous-capability', reason: 'NET_ADMIN: the CNI agent programs the node interfaces, routes and iptables rules' },
    ];
    suppressions.push(...extraSuppressions);
    suppressions.push(...(props.suppressions ?? []));

    const agent: ContainerSpec = {
      name: 'agent',
      image: props.image,
      command: props.command,
      args: props.args,
      env: props.env,
      envFrom: props.envFrom,
      fieldEnv: props.fieldEnv ?? { NODE_NAME: EnvField.NODE_NAME },
      ports: props.healthPort !== undefined ? [{ name: 'health', containerPort: props.healthPort }] : undefined,
      readiness: props.readiness ?? Probe.httpGet(healthPath, 'health', { periodSeconds: 10 }),
      liveness:
        props.liveness ??
        (props.healthPort !== undefined
          ? Probe.httpGet(healthPath, 'health', { initialDelaySeconds: 10, periodSeconds: 30, failureThreshold: 6 })
          : undefined),
      resources: props.resources ?? CNI_PLUGIN_RESOURCES,
      hostPaths,
      mounts: props.mounts,
      seccompProfile: props.seccompProfile,
      capabilities,
      privileged,
      privilegedReason: props.privilegedReason,
      runAsUser: 0,
      runAsNonRoot: false,
      preStop: props.preStop,
    };

    return {
      ...commonServiceProps(props),
      name,
      kind: NodeServiceKind.CNI_PLUGIN,
      initContainers: [installer],
      containers: [agent],
      hostNetwork: true,
      dnsPolicy: DnsPolicy.DEFAULT,
      // Node infrastructure covers every real node: declared pools are verified, never used to narrow placement.
      nodeAffinity: props.nodeAffinity ?? [],
      tolerations: [Toleration.all(), ...(props.tolerations ?? [])],
      rollout: props.rollout ?? Rollout.maxUnavailable(1),
      priorityClassName: props.priorityClassName ?? 'system-node-critical',
      terminationGracePeriodSeconds: props.terminationGracePeriodSeconds ?? 1,
      apiAccess: props.apiAccess ?? CniPlugin.defaultApiAccess(),
      suppressions,
    };
  }
}

function isReason(reason: string | undefined): boolean {
  return typeof reason === 'string' && reason.trim().length >= MIN_REASON_LENGTH;
}

function rejectSurge(rollout: Rollout | undefined, problems: ProblemCollector): void {
  if (rollout && rollout.type === 'RollingUpdate' && !isZeroIntOrPercent(rollout.maxSurgeValue)) {
    problems.add(
      'rollout',
      { maxSurge: rollout.maxSurgeValue },
      'a CNI agent must never surge: two agents on one node would fight over its host ports and CNI configuration',
      'use Rollout.maxUnavailable(1), or Rollout.onDelete(reason) if you roll nodes yourself',
    );
  }
}

function constructPath(scope: Construct, id: string): string {
  return scope.node.path ? `${scope.node.path}/${id}` : id;
}
