/**
 * `CsiNode`: the node plugin of a CSI storage driver (EBS, EFS, local-path…): the driver container plus the
 * `node-driver-registrar` and `livenessprobe` sidecars, with every kubelet path derived from the driver name.
 */

import { Construct } from 'constructs';
import { ApiPermission } from '../core/api-access';
import { Resources } from '../core/container';
import { derivedFrom, ProblemCollector } from '../k8s/problems';
import { NodeService } from '../core/node-service';
import { NodeServiceProps } from '../core/props';
import { Toleration } from '../core/placement';
import { Rollout } from '../core/rollout';
import { object, opt, req, str, checkArguments } from '../k8s/shape';
import { RESOURCES_SHAPE } from '../core/container';
import { envNameError } from '../k8s';
import { NodeServiceKind } from '../policy/kinds';
import { NodeServicePresetProps, PresetDefaults, presetService } from './common';
import { checkDriverName, CSI_DRIVER_RESOURCES, csiDriver } from './csi-driver';
import {
  CSI_HEALTH_PORT,
  CSI_LIVENESS_PROBE_IMAGE,
  CSI_NODE_DRIVER_REGISTRAR_IMAGE,
  CSI_REGISTRAR_HEALTH_PORT,
  CSI_SIDECAR_RESOURCES,
  CSI_SOCKET_DIR,
  csiSidecars,
  KUBELET_DIR,
} from './csi-sidecars';

/**
 * Props of {@link CsiNode}. `args` defaults to `--endpoint=$(CSI_ENDPOINT)`; `apiAccess` to
 * {@link CsiNode.defaultApiAccess} (nodes get, csinodes get, volumeattachments get/list/watch).
 */
export interface CsiNodeProps extends NodeServicePresetProps {
  /**
   * The CSI driver name (at most 63 characters, a DNS subdomain such as `ebs.csi.aws.com`); every kubelet path derives
   * from it.
   */
  readonly driverName: string;
  /**
   * The `node-driver-registrar` sidecar image, pinned.
   * @default CSI_NODE_DRIVER_REGISTRAR_IMAGE
   */
  readonly registrarImage?: string;
  /**
   * The `livenessprobe` sidecar image, pinned.
   * @default CSI_LIVENESS_PROBE_IMAGE
   */
  readonly livenessProbeImage?: string;
  /**
   * Resources of each sidecar.
   * @default CSI_SIDECAR_RESOURCES (requests 10m / 32Mi, memory limit 32Mi)
   */
  readonly sidecarResources?: Resources;
  /**
   * Name of the driver's environment variable holding the node name (from the downward API).
   * @default `CSI_NODE_NAME`
   */
  readonly nodeNameEnv?: string;
}

/**
 * The default DaemonSet name of a CSI driver: `<driver>-csi-node`, from the first label of the driver name that is
 * not `csi` itself, without a `csi-` prefix or `-csi` suffix (`ebs.csi.aws.com` → `ebs-csi-node`, `csi.acme.io` →
 * `acme-csi-node`, `csi-powerstore.dellemc.com` → `powerstore-csi-node`); `csi-node` when no label is left.
 * @internal
 */
function csiNodeName(driverName: string): string {
  const label = driverName
    .split('.')
    .map((l) => l.replace(/^csi-|-csi$/g, ''))
    .find((l) => l !== '' && l !== 'csi');
  return label === undefined ? 'csi-node' : `${label}-csi-node`;
}

const CSI_NODE_SHAPE = {
  driverName: req(str),
  registrarImage: opt(str),
  livenessProbeImage: opt(str),
  sidecarResources: opt(object('Resources', RESOURCES_SHAPE)),
  nodeNameEnv: opt(str),
};

/**
 * The node plugin of a CSI driver, on every node. Every path derives from `driverName`: the driver listens on
 * `/csi/csi.sock` (`CSI_ENDPOINT=unix:///csi/csi.sock`; default args `--endpoint=$(CSI_ENDPOINT)`), which is the host
 * directory `/var/lib/kubelet/plugins/<driver>` (`DirectoryOrCreate`, writable for the driver, read-only for the
 * sidecars); the driver also mounts the kubelet directory `/var/lib/kubelet` writable with Bidirectional propagation
 * and `/dev` writable, so it is the one privileged container (the API server requires privilege for Bidirectional;
 * privilege escalation stays allowed, as the API requires). The `node-driver-registrar` sidecar registers the driver
 * through `/var/lib/kubelet/plugins_registry` (writable at `/registration`) and serves `/healthz` on 9809; the
 * `livenessprobe` sidecar serves the driver's health on 9808, which the driver's liveness and readiness probes use
 * (port `healthz`). Sidecars are not privileged, have a read-only root filesystem and drop every capability. All run
 * as root (the kubelet's sockets are root-owned). The driver gets the node name as `CSI_NODE_NAME`, requests 10m/40Mi
 * with a 256Mi memory limit (sidecars 10m/32Mi, limit 32Mi). The pod tolerates every taint (storage must follow
 * workloads anywhere), is `system-node-critical`, rolls 10 % of nodes at a time and never surges (two drivers would
 * fight over the socket), has 30 s to stop, excludes virtual nodes, and reads nodes (get), csinodes (get) and
 * volumeattachments (get/list/watch). Host-path allowlist: `/var/lib/kubelet`, `/dev` (writable); `/sys`, `/run/udev`,
 * `/etc/selinux`, `/lib/modules` (read-only). Capability allowlist: SYS_ADMIN.
 */
export class CsiNode extends NodeService {
  /** The node-driver-registrar sidecar image (`CSI_NODE_DRIVER_REGISTRAR_IMAGE`). */
  public static readonly NODE_DRIVER_REGISTRAR_IMAGE: string = CSI_NODE_DRIVER_REGISTRAR_IMAGE;
  /** The livenessprobe sidecar image (`CSI_LIVENESS_PROBE_IMAGE`). */
  public static readonly LIVENESS_PROBE_IMAGE: string = CSI_LIVENESS_PROBE_IMAGE;
  /** Default resources of the driver container (`CSI_DRIVER_RESOURCES`). */
  public static readonly DRIVER_RESOURCES: Resources = CSI_DRIVER_RESOURCES;
  /** Default resources of each sidecar (`CSI_SIDECAR_RESOURCES`). */
  public static readonly SIDECAR_RESOURCES: Resources = CSI_SIDECAR_RESOURCES;
  /** Where the driver socket is mounted in the containers (`CSI_SOCKET_DIR`). */
  public static readonly SOCKET_DIR: string = CSI_SOCKET_DIR;
  /** The driver's health port, served by the livenessprobe sidecar (`CSI_HEALTH_PORT`). */
  public static readonly HEALTH_PORT: number = CSI_HEALTH_PORT;
  /** The registrar's health port (`CSI_REGISTRAR_HEALTH_PORT`). */
  public static readonly REGISTRAR_HEALTH_PORT: number = CSI_REGISTRAR_HEALTH_PORT;

  /** The least-privilege API access a CSI node plugin gets by default: nodes get, csinodes get, volumeattachments get/list/watch. */
  public static defaultApiAccess(): ApiPermission[] {
    checkArguments('CsiNode.defaultApiAccess', arguments, []);
    return [
      ApiPermission.of('', ['nodes'], ['get']),
      ApiPermission.of('storage.k8s.io', ['csinodes'], ['get']),
      ApiPermission.read(['volumeattachments'], 'storage.k8s.io'),
    ];
  }

  /** The CSI driver name. */
  public readonly driverName: string;
  /** The host directory holding the driver's socket: `/var/lib/kubelet/plugins/<driver>`. */
  public readonly pluginDir: string;
  /** The driver's socket on the host, as registered with the kubelet. */
  public readonly socketPath: string;

  constructor(scope: Construct, id: string, props: CsiNodeProps) {
    const preset = presetService(props, 'CsiNode', CSI_NODE_SHAPE, CsiNode.defaults);
    super(scope, id, preset.service);
    // With invalid props (reported at synthesis) these are read from the sound ones.
    this.driverName = preset.props.driverName ?? '';
    this.pluginDir = `${KUBELET_DIR}/plugins/${this.driverName}`;
    this.socketPath = `${this.pluginDir}/csi.sock`;
  }

  private static defaults(props: CsiNodeProps, problems: ProblemCollector): PresetDefaults {
    const driverName = props.driverName ?? '';
    checkDriverName(props, problems);
    const nodeNameEnv = props.nodeNameEnv ?? 'CSI_NODE_NAME';
    problems.check('nodeNameEnv', nodeNameEnv, envNameError(nodeNameEnv), 'use an environment variable name such as "CSI_NODE_NAME"');
    const pluginDir = `${KUBELET_DIR}/plugins/${driverName}`;
    const service: NodeServiceProps = {
      name: csiNodeName(driverName),
      kind: NodeServiceKind.CSI_NODE,
      containers: [csiDriver(props.image, pluginDir, nodeNameEnv), ...csiSidecars(props, pluginDir)],
      // Node infrastructure covers every real node: declared pools are verified, never used to narrow placement.
      nodeAffinity: [],
      tolerations: [Toleration.all()],
      rollout: Rollout.maxUnavailablePercent(10),
      priorityClassName: 'system-node-critical',
      terminationGracePeriodSeconds: 30,
      apiAccess: CsiNode.defaultApiAccess(),
    };
    // The default name derives from the driver name: when that is wrong, so is the name.
    return { service: derivedFrom(service, 'driverName', 'name') };
  }
}
