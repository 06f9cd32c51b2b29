/**
 * The `node-driver-registrar` and `livenessprobe` sidecars of a {@link CsiNode}, the kubelet paths they share with the
 * driver, and their defaults.
 */

import { ContainerSpec, Probe, Resources } from '../core/container';
import { derivedFrom, madeFrom } from '../k8s/problems';
import { HostPath, HostPathType } from '../core/host-path';
import type { CsiNodeProps } from './csi-node';

/** The default `node-driver-registrar` image (kubernetes-csi, pinned). */
export const CSI_NODE_DRIVER_REGISTRAR_IMAGE = 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.15.0';

/** The default `livenessprobe` image (kubernetes-csi, pinned). */
export const CSI_LIVENESS_PROBE_IMAGE = 'registry.k8s.io/sig-storage/livenessprobe:v2.17.0';

/** Default resources of each CSI sidecar: requests 10m CPU / 32Mi, memory limit 32Mi. */
export const CSI_SIDECAR_RESOURCES: Resources = { cpuRequest: '10m', memoryRequest: '32Mi', memoryLimit: '32Mi' };

/** Where every container of a CSI node plugin sees the driver's socket directory. */
export const CSI_SOCKET_DIR = '/csi';

/** The port of the `livenessprobe` sidecar, probed for the driver's liveness (named `healthz` on the driver). */
export const CSI_HEALTH_PORT = 9808;

/** The health port of the `node-driver-registrar` sidecar. */
export const CSI_REGISTRAR_HEALTH_PORT = 9809;

/** The kubelet's root directory: pods' volumes are mounted below it. @internal */
export const KUBELET_DIR = '/var/lib/kubelet';

/**
 * The plugin directory, writable for the driver (it creates the socket) and read-only for the sidecars. Its path is made
 * from `driverName`: when the name is wrong, the mount's problems are that one. @internal
 */
export function pluginDirMount(pluginDir: string, writable: boolean): HostPath {
  const options = { type: HostPathType.DIRECTORY_OR_CREATE, mountPath: CSI_SOCKET_DIR, volumeName: 'plugin-dir' };
  const mount = writable
    ? HostPath.writable(pluginDir, {
        ...options,
        reason: 'the driver creates its CSI socket, which the kubelet and the sidecars connect to',
      })
    : HostPath.readOnly(pluginDir, options);
  return derivedFrom(madeFrom(mount, 'driverName', 'path'), 'driverName');
}

/** The `node-driver-registrar` and `liveness-probe` sidecars of the driver whose socket directory is `pluginDir`. @internal */
export function csiSidecars(props: CsiNodeProps, pluginDir: string): ContainerSpec[] {
  const socket = `${CSI_SOCKET_DIR}/csi.sock`;
  const resources = props.sidecarResources ?? CSI_SIDECAR_RESOURCES;
  const registrar: ContainerSpec = {
    name: 'node-driver-registrar',
    image: props.registrarImage ?? CSI_NODE_DRIVER_REGISTRAR_IMAGE,
    args: [`--csi-address=${socket}`, `--kubelet-registration-path=${pluginDir}/csi.sock`, `--http-endpoint=:${CSI_REGISTRAR_HEALTH_PORT}`],
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
    readiness: Probe.tcpSocketOnPort(CSI_HEALTH_PORT, { periodSeconds: 10 }),
    liveness: Probe.tcpSocketOnPort(CSI_HEALTH_PORT, { initialDelaySeconds: 10, periodSeconds: 30 }),
    resources,
    hostPaths: [pluginDirMount(pluginDir, false)],
    runAsUser: 0,
    runAsNonRoot: false,
  };
  // The registration path in the registrar's arguments derives from the driver name too.
  derivedFrom(registrar, 'driverName', 'args');
  if (props.sidecarResources) for (const sidecar of [registrar, livenessProbe]) madeFrom(sidecar, 'sidecarResources', 'resources');
  if (props.registrarImage !== undefined) madeFrom(registrar, 'registrarImage', 'image');
  if (props.livenessProbeImage !== undefined) madeFrom(livenessProbe, 'livenessProbeImage', 'image');
  return [registrar, livenessProbe];
}
