/**
 * `CniPlugin`: the node agent of a CNI network plugin (flannel, Calico, Cilium…) with its installer init container.
 */

import { Construct } from 'constructs';
import { ApiPermission } from '../core/api-access';
import { madeFrom, ProblemCollector } from '../k8s/problems';
import { NodeService } from '../core/node-service';
import { DnsPolicy } from '../core/props';
import {
  HEALTH_ENDPOINT_SHAPE,
  HealthEndpointOptions,
  PRIVILEGE_SHAPE,
  PrivilegeOptions,
  STATE_DIR_SHAPE,
  StateDirOptions,
} from '../core/props';
import { Toleration } from '../core/placement';
import { bool, opt, req, checkArguments } from '../k8s/shape';
import { NodeServiceKind } from '../policy/kinds';
import { Resources } from '../core/container';
import { CNI_PLUGIN_CAPABILITIES, CNI_PLUGIN_RESOURCES, cniAgent } from './cni-agent';
import {
  checkInstaller,
  CNI_BIN_MOUNT_PATH,
  CNI_CONF_MOUNT_PATH,
  CNI_INSTALLER_RESOURCES,
  CNI_INSTALLER_SHAPE,
  CniInstaller,
  cniInstaller,
} from './cni-installer';
import { NodeServicePresetProps, PresetDefaults, presetService } from './common';

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
  install: req(CNI_INSTALLER_SHAPE),
  agentWritesCniConfig: opt(bool),
  bpfFilesystem: opt(bool),
};

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
  /** Default resources of the agent (`CNI_PLUGIN_RESOURCES`). */
  public static readonly DEFAULT_RESOURCES: Resources = CNI_PLUGIN_RESOURCES;
  /** Default resources of the installer init container (`CNI_INSTALLER_RESOURCES`). */
  public static readonly INSTALLER_RESOURCES: Resources = CNI_INSTALLER_RESOURCES;
  /** Where the installer sees the host's `/opt/cni/bin` (`CNI_BIN_MOUNT_PATH`). */
  public static readonly BIN_MOUNT_PATH: string = CNI_BIN_MOUNT_PATH;
  /** Where the installer sees the host's `/etc/cni/net.d` (`CNI_CONF_MOUNT_PATH`). */
  public static readonly CONF_MOUNT_PATH: string = CNI_CONF_MOUNT_PATH;
  /** The capabilities the agent gets by default (`CNI_PLUGIN_CAPABILITIES`). */
  public static readonly DEFAULT_CAPABILITIES: string[] = [...CNI_PLUGIN_CAPABILITIES];

  /** The least-privilege API access a CNI agent gets by default: nodes get/list/watch, nodes/status patch, pods get. */
  public static defaultApiAccess(): ApiPermission[] {
    checkArguments('CniPlugin.defaultApiAccess', arguments, []);
    return [ApiPermission.read(['nodes']), ApiPermission.of('', ['nodes/status'], ['patch']), ApiPermission.of('', ['pods'], ['get'])];
  }

  /** The host directory holding the agent's runtime state. */
  public readonly stateDir: string;

  constructor(scope: Construct, id: string, props: CniPluginProps) {
    const preset = presetService(props, 'CniPlugin', CNI_PLUGIN_SHAPE, CniPlugin.defaults);
    super(scope, id, preset.service);
    // With invalid props (reported at synthesis) the state dir is read from the sound ones.
    this.stateDir = CniPlugin.stateDirOf(preset.props);
  }

  private static stateDirOf(props: Partial<CniPluginProps>): string {
    return props.stateDir ?? `/run/${props.name ?? 'cni-plugin'}`;
  }

  private static defaults(props: CniPluginProps, problems: ProblemCollector): PresetDefaults {
    checkInstaller(props.install, problems);
    if (props.healthPort === undefined && props.readiness === undefined) {
      problems.add(
        'healthPort',
        props.healthPort,
        'a CNI agent needs a readiness probe so that a rollout stops at a broken node',
        'set healthPort (HTTP GET healthPath on it), or pass readiness',
      );
    }
    return {
      service: {
        name: 'cni-plugin',
        kind: NodeServiceKind.CNI_PLUGIN,
        initContainers: [madeFrom(cniInstaller(props.install, props.image), 'install')],
        containers: [cniAgent(props, CniPlugin.stateDirOf(props))],
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
    };
  }
}
