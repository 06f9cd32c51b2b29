/**
 * The driver container of a {@link CsiNode}: the one privileged container of a CSI node plugin.
 */

import { ContainerSpec, EnvField, Probe, Resources } from '../core/container';
import { madeFrom, ProblemCollector } from '../k8s/problems';
import { HostPath, MountPropagation } from '../core/host-path';
import { csiDriverNameError, dns1123SubdomainError } from '../k8s';
import { CSI_HEALTH_PORT, CSI_SOCKET_DIR, KUBELET_DIR, pluginDirMount } from './csi-sidecars';

/** Default resources of a CSI node driver: requests 10m CPU / 40Mi, memory limit 256Mi. */
export const CSI_DRIVER_RESOURCES: Resources = { cpuRequest: '10m', memoryRequest: '40Mi', memoryLimit: '256Mi' };

/**
 * Checks the CSI driver name, from which the plugin directory, the registration path and the default name derive (the
 * parts derived from it record so: their problems are this one).
 * @internal
 */
export function checkDriverName(props: { readonly driverName?: string }, problems: ProblemCollector): void {
  const driverName = props.driverName ?? '';
  // The name also names the CSIDriver object, so it must be lower case (the API accepts any case in pod volumes).
  const driverProblem = csiDriverNameError(driverName) ?? dns1123SubdomainError(driverName);
  problems.check(
    'driverName',
    props.driverName,
    driverProblem,
    'use the driver name the driver registers, a DNS subdomain such as "ebs.csi.aws.com"',
  );
}

/** The driver container of image `image`, creating its socket in `pluginDir`, given the node name as `nodeNameEnv`. @internal */
export function csiDriver(image: string, pluginDir: string, nodeNameEnv: string): ContainerSpec {
  return {
    name: 'driver',
    image,
    args: ['--endpoint=$(CSI_ENDPOINT)'],
    env: { CSI_ENDPOINT: `unix://${CSI_SOCKET_DIR}/csi.sock` },
    fieldEnv: madeFrom({ [nodeNameEnv]: EnvField.NODE_NAME }, 'nodeNameEnv', nodeNameEnv),
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
