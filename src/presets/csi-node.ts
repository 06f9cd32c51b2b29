/**
 * `CsiNode`: the node plugin of a CSI storage driver (EBS, EFS, local-path…): the driver container plus the
 * `node-driver-registrar` and `livenessprobe` sidecars, with every kubelet path derived from the driver name.
 */

import { Construct } from 'constructs';
import { ApiPermission } from '../core/api-access';
import { ContainerSpec, EnvField, Probe, Resources } from '../core/container';
import { ProblemCollector } from '../core/errors';
import { HostPath, HostPathType, MountPropagation } from '../core/host-path';
import { NodeService } from '../core/node-service';
import { Toleration } from '../core/placement';
import { Rollout } from '../core/rollout';
import { object, opt, req, str } from '../core/shape';
import { RESOURCES_SHAPE } from '../core/options';
import { csiDriverNameError, dns1123SubdomainError, envNameError } from '../k8s';
import { NodeServiceKind } from '../policy/kinds';
import { NodeServicePresetProps, PresetDefaults, presetServiceProps } from './common';

/** The default `node-driver-registrar` image (kubernetes-csi, pinned). */
export const CSI_NODE_DRIVER_REGISTRAR_IMAGE = 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.15.0';

/** The default `livenessprobe` image (kubernetes-csi, pinned). */
export const CSI_LIVENESS_PROBE_IMAGE = 'registry.k8s.io/sig-storage/livenessprobe:v2.17.0';

/** Default resources of a CSI node driver: requests 10m CPU / 40Mi, memory limit 256Mi. */
export const CSI_DRIVER_RESOURCES: Resources = { cpuRequest: '10m', memoryRequest: '40Mi', memoryLimit: '256Mi' };

/** Default resources of each CSI sidecar: requests 10m CPU / 32Mi, memory limit 32Mi. */
export const CSI_SIDECAR_RESOURCES: Resources = { cpuRequest: '10m', memoryRequest: '32Mi', memoryLimit: '32Mi' };

/** Where every container of a CSI node plugin sees the driver's socket directory. */
export const CSI_SOCKET_DIR = '/csi';

/** The port of the `livenessprobe` sidecar, probed for the driver's liveness (named `healthz` on the driver). */
export const CSI_HEALTH_PORT = 9808;

/** The health port of the `node-driver-registrar` sidecar. */
export const CSI_REGISTRAR_HEALTH_PORT = 9809;

/** The kubelet's root directory: pods' volumes are mounted below it. */
const KUBELET_DIR = '/var/lib/kubelet';

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

const CSI_NODE_SHAPE = {
  driverName: req(str),
  registrarImage: opt(str),
  livenessProbeImage: opt(str),
  sidecarResources: opt(object('Resources', RESOURCES_SHAPE)),
  nodeNameEnv: opt(str),
};

/** The plugin directory, writable for the driver (it creates the socket) and read-only for the sidecars. */
function pluginDirMount(pluginDir: string, writable: boolean): HostPath {
  const options = { type: HostPathType.DIRECTORY_OR_CREATE, mountPath: CSI_SOCKET_DIR, volumeName: 'plugin-dir' };
  return writable
    ? HostPath.writable(pluginDir, {
        ...options,
        reason: 'the driver creates its CSI socket, which the kubelet and the sidecars connect to',
      })
    : HostPath.readOnly(pluginDir, options);
}

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
  /** The least-privilege API access a CSI node plugin gets by default: nodes get, csinodes get, volumeattachments get/list/watch. */
  public static defaultApiAccess(): ApiPermission[] {
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
    super(scope, id, presetServiceProps(props, 'CsiNode', CSI_NODE_SHAPE, CsiNode.defaults));
    this.driverName = props.driverName;
    this.pluginDir = `${KUBELET_DIR}/plugins/${props.driverName}`;
    this.socketPath = `${this.pluginDir}/csi.sock`;
  }

  private static driver(props: CsiNodeProps, pluginDir: string, nodeNameEnv: string): ContainerSpec {
    return {
      name: 'driver',
      image: props.image,
      args: ['--endpoint=$(CSI_ENDPOINT)'],
      env: { CSI_ENDPOINT: `unix://${CSI_SOCKET_DIR}/csi.sock` },
      fieldEnv: { [nodeNameEnv]: EnvField.NODE_NAME },
      ports: [{ name: 'healthz', containerPort: CSI_HEALTH_PORT }],
      readiness: Probe.httpGet('/healthz', 'healthz', { periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 3 }),
      liveness: Probe.httpGet('/healthz', 'healthz', {
        initialDelaySeconds: 10,
        periodSeconds: 10,
        timeoutSeconds: 3,
        failureThreshold: 5,
      }),
      resources: CSI_DRIVER_RESOURCES,
      hostPaths: [
        HostPath.writable(KUBELET_DIR, {
          volumeName: 'kubelet-dir',
          propagation: MountPropagation.BIDIRECTIONAL,
          reason: 'the driver mounts and unmounts volumes in the pod directories of the kubelet, which must see those mounts',
        }),
        pluginDirMount(pluginDir, true),
        HostPath.writable('/dev', {
          volumeName: 'device-dir',
          reason: 'the driver formats and mounts the block devices of volumes attached after the pod started',
        }),
      ],
      privileged: true,
      privilegedReason:
        'the CSI driver mounts volumes for pods: Bidirectional mount propagation into the kubelet directory requires a privileged container',
      runAsUser: 0,
      runAsNonRoot: false,
    };
  }

  private static sidecars(props: CsiNodeProps, pluginDir: string): ContainerSpec[] {
    const socket = `${CSI_SOCKET_DIR}/csi.sock`;
    const resources = props.sidecarResources ?? CSI_SIDECAR_RESOURCES;
    const registrar: ContainerSpec = {
      name: 'node-driver-registrar',
      image: props.registrarImage ?? CSI_NODE_DRIVER_REGISTRAR_IMAGE,
      args: [
        `--csi-address=${socket}`,
        `--kubelet-registration-path=${pluginDir}/csi.sock`,
        `--http-endpoint=:${CSI_REGISTRAR_HEALTH_PORT}`,
      ],
      ports: [{ name: 'healthz', containerPort: CSI_REGISTRAR_HEALTH_PORT }],
      readiness: Probe.httpGet('/healthz', 'healthz', { initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5 }),
      liveness: Probe.httpGet('/healthz', 'healthz', { initialDelaySeconds: 30, periodSeconds: 90, timeoutSeconds: 15 }),
      resources,
      hostPaths: [
        pluginDirMount(pluginDir, false),
        HostPath.writable(`${KUBELET_DIR}/plugins_registry`, {
          mountPath: '/registration',
          volumeName: 'registration-dir',
          reason: 'the registrar creates the registration socket through which the kubelet discovers the driver',
        }),
      ],
      runAsUser: 0,
      runAsNonRoot: false,
    };
    const livenessProbe: ContainerSpec = {
      name: 'liveness-probe',
      image: props.livenessProbeImage ?? CSI_LIVENESS_PROBE_IMAGE,
      args: [`--csi-address=${socket}`, `--health-port=${CSI_HEALTH_PORT}`],
      readiness: Probe.tcpSocket(CSI_HEALTH_PORT, { periodSeconds: 10 }),
      liveness: Probe.tcpSocket(CSI_HEALTH_PORT, { initialDelaySeconds: 10, periodSeconds: 30 }),
      resources,
      hostPaths: [pluginDirMount(pluginDir, false)],
      runAsUser: 0,
      runAsNonRoot: false,
    };
    return [registrar, livenessProbe];
  }

  private static defaults(props: CsiNodeProps, problems: ProblemCollector): PresetDefaults {
    const driverName = props.driverName ?? '';
    // The name also names the CSIDriver object, so it must be lower case (the API accepts any case in pod volumes).
    const driverProblem = csiDriverNameError(driverName) ?? dns1123SubdomainError(driverName);
    problems.check(
      'driverName',
      props.driverName,
      driverProblem,
      'use the driver name the driver registers, a DNS subdomain such as "ebs.csi.aws.com"',
    );
    if (driverProblem) {
      // Paths and the default name derive from the driver name: their problems are this one.
      for (const f of ['containers[0].hostPaths[1]', 'containers[1].hostPaths[0]', 'containers[1].args', 'containers[2].hostPaths[0]'])
        problems.mute(f);
      if (props.name === undefined) problems.mute('name');
    }
    const nodeNameEnv = props.nodeNameEnv ?? 'CSI_NODE_NAME';
    problems.check('nodeNameEnv', nodeNameEnv, envNameError(nodeNameEnv), 'use an environment variable name such as "CSI_NODE_NAME"');
    const pluginDir = `${KUBELET_DIR}/plugins/${driverName}`;
    return {
      service: {
        name: `${driverName.split('.')[0]}-csi-node`,
        kind: NodeServiceKind.CSI_NODE,
        containers: [CsiNode.driver(props, pluginDir, nodeNameEnv), ...CsiNode.sidecars(props, pluginDir)],
        // Node infrastructure covers every real node: declared pools are verified, never used to narrow placement.
        nodeAffinity: [],
        tolerations: [Toleration.all()],
        rollout: Rollout.maxUnavailable('10%'),
        priorityClassName: 'system-node-critical',
        terminationGracePeriodSeconds: 30,
        apiAccess: CsiNode.defaultApiAccess(),
      },
      renames: [
        ['containers[0].hostPaths[1].path', 'driverName'],
        [`containers[0].fieldEnv["${nodeNameEnv}"]`, 'nodeNameEnv'],
        ['containers[1].image', 'registrarImage'],
        ['containers[2].image', 'livenessProbeImage'],
        ['containers[1].resources', 'sidecarResources'],
      ],
    };
  }
}
