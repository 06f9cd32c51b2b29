/**
 * `CniPlugin`: the node agent of a CNI network plugin (flannel, Calico, Cilium…) with its installer init container.
 */

import { Construct } from 'constructs';
import { ApiPermission } from '../core/api-access';
import { ContainerSpec, EnvField, Probe, Resources } from '../core/container';
import { ProblemCollector } from '../core/errors';
import { HostPath, HostPathType, MountPropagation } from '../core/host-path';
import { DnsPolicy, NodeService } from '../core/node-service';
import {
  CONTAINER_PROCESS_SHAPE,
  ContainerProcessOptions,
  HEALTH_ENDPOINT_SHAPE,
  HealthEndpointOptions,
  PRIVILEGE_SHAPE,
  PrivilegeOptions,
  STATE_DIR_SHAPE,
  StateDirOptions,
} from '../core/options';
import { Toleration } from '../core/placement';
import { bool, object, opt, req, str, list } from '../core/shape';
import { NodeServiceKind } from '../policy/kinds';
import { NodeServicePresetProps, PresetDefaults, presetServiceProps } from './common';

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

/**
 * The init container that installs the CNI plugin binaries and configuration on the node. Its `command` is required
 * (checked when the preset is built): the install command finds the host's `/opt/cni/bin` at `/host/opt/cni/bin` and
 * `/etc/cni/net.d` at `/host/etc/cni/net.d` (both writable), copies the plugin binaries and writes the network
 * configuration there, then exits.
 */
export interface CniInstaller extends ContainerProcessOptions {
  /**
   * Image of the installer, pinned (e.g. `docker.io/flannel/flannel-cni-plugin:v1.5.1-flannel2`).
   * @default the agent image
   */
  readonly image?: string;
}

/**
 * Props of {@link CniPlugin}. `healthPort` is the agent's HTTP health endpoint on the node (host network), declared as
 * `health`, required unless `readiness` is given; `healthPath` defaults to `/healthz`. `stateDir` (the agent's runtime
 * state, e.g. flannel's `subnet.env`, writable, below `/run` or `/var/run`) defaults to `/run/<name>`. `privileged`
 * (Calico's default dataplane) needs `privilegedReason`; prefer named capabilities. `apiAccess` defaults to
 * {@link CniPlugin.defaultApiAccess}.
 */
export interface CniPluginProps extends NodeServicePresetProps, HealthEndpointOptions, StateDirOptions, PrivilegeOptions {
  /** The init container that installs the plugin binaries into `/opt/cni/bin` and the configuration into `/etc/cni/net.d`. */
  readonly install: CniInstaller;
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
}

const CNI_PLUGIN_SHAPE = {
  ...HEALTH_ENDPOINT_SHAPE,
  ...STATE_DIR_SHAPE,
  ...PRIVILEGE_SHAPE,
  install: req(object('CniInstaller', { ...CONTAINER_PROCESS_SHAPE, image: opt(str), command: req(list(str)) })),
  agentWritesCniConfig: opt(bool),
  bpfFilesystem: opt(bool),
};

const cniConf = (writer: string): HostPath =>
  HostPath.writable('/etc/cni/net.d', {
    type: HostPathType.DIRECTORY_OR_CREATE,
    mountPath: CNI_CONF_MOUNT_PATH,
    volumeName: 'cni-net-d',
    reason: `${writer} writes the CNI network configuration the kubelet reads`,
  });

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
    super(scope, id, presetServiceProps(props, 'CniPlugin', CNI_PLUGIN_SHAPE, CniPlugin.defaults));
    this.stateDir = CniPlugin.stateDirOf(props);
  }

  private static stateDirOf(props: CniPluginProps): string {
    return props.stateDir ?? `/run/${props.name ?? 'cni-plugin'}`;
  }

  private static installer(props: CniPluginProps): ContainerSpec {
    const install = props.install ?? { command: [] };
    const bin = HostPath.writable('/opt/cni/bin', {
      type: HostPathType.DIRECTORY_OR_CREATE,
      mountPath: CNI_BIN_MOUNT_PATH,
      volumeName: 'cni-bin',
      reason: 'the installer copies the CNI plugin binaries the kubelet runs for every pod',
    });
    return {
      ...install,
      name: 'install-cni',
      image: install.image ?? props.image,
      resources: install.resources ?? CNI_INSTALLER_RESOURCES,
      hostPaths: [bin, cniConf('the installer')],
      runAsUser: 0,
      runAsNonRoot: false,
    };
  }

  private static hostPaths(props: CniPluginProps): HostPath[] {
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
      const propagation = props.privileged ? MountPropagation.BIDIRECTIONAL : MountPropagation.HOST_TO_CONTAINER;
      const reason = 'pins eBPF maps and programs so the datapath survives agent restarts';
      hostPaths.push(HostPath.writable('/sys/fs/bpf', { volumeName: 'bpf-maps', propagation, reason }));
    }
    return hostPaths;
  }

  private static defaults(props: CniPluginProps, problems: ProblemCollector): PresetDefaults {
    if (props.install !== undefined && props.install.command !== undefined && props.install.command.length === 0) {
      problems.add(
        'install.command',
        props.install.command,
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
      problems.mute('containers[0].readiness');
    }
    const healthPath = props.healthPath ?? '/healthz';
    const health = props.healthPort !== undefined;
    const agent: ContainerSpec = {
      name: 'agent',
      image: props.image,
      fieldEnv: { NODE_NAME: EnvField.NODE_NAME },
      ports: health ? [{ name: 'health', containerPort: props.healthPort! }] : undefined,
      readiness: Probe.httpGet(healthPath, 'health', { periodSeconds: 10 }),
      liveness: health
        ? Probe.httpGet(healthPath, 'health', { initialDelaySeconds: 10, periodSeconds: 30, failureThreshold: 6 })
        : undefined,
      resources: CNI_PLUGIN_RESOURCES,
      hostPaths: CniPlugin.hostPaths(props),
      capabilities: [...CNI_PLUGIN_CAPABILITIES],
      privileged: props.privileged === true,
      privilegedReason: props.privilegedReason,
      runAsUser: 0,
      runAsNonRoot: false,
    };
    return {
      service: {
        name: 'cni-plugin',
        kind: NodeServiceKind.CNI_PLUGIN,
        initContainers: [CniPlugin.installer(props)],
        containers: [agent],
        hostNetwork: true,
        dnsPolicy: DnsPolicy.DEFAULT,
        // Node infrastructure covers every real node: declared pools are verified, never used to narrow placement.
        nodeAffinity: [],
        tolerations: [Toleration.all()],
        priorityClassName: 'system-node-critical',
        terminationGracePeriodSeconds: 1,
        apiAccess: CniPlugin.defaultApiAccess(),
        suppressions: [
          { ruleId: 'dangerous-capability', reason: 'NET_ADMIN: the CNI agent programs the node interfaces, routes and iptables rules' },
        ],
      },
      renames: [
        ['initContainers[0]', 'install'],
        ...(props.install?.image === undefined ? ([['initContainers[0].image', 'image']] as Array<[string, string]>) : []),
        ['containers[0].ports[0].containerPort', 'healthPort'],
        ['containers[0].hostPaths[2].path', 'stateDir'],
        ['containers[0].privileged', 'privileged'],
        ['containers[0].privilegedReason', 'privilegedReason'],
      ],
    };
  }
}
