/**
 * The installer of a {@link CniPlugin}: the init container that writes the CNI plugin binaries and network
 * configuration on the node, and the host directories it writes.
 */

import { ContainerSpec, Resources } from '../core/container';
import { madeFrom, ProblemCollector } from '../k8s/problems';
import { HostPath, HostPathType } from '../core/host-path';
import { CONTAINER_PROCESS_SHAPE, ContainerProcessOptions } from '../core/props';
import { list, object, opt, req, str } from '../k8s/shape';

/** Default resources of the CNI installer init container: requests 10m CPU / 16Mi, memory limit 64Mi. */
export const CNI_INSTALLER_RESOURCES: Resources = { cpuRequest: '10m', memoryRequest: '16Mi', memoryLimit: '64Mi' };

/** Where the installer (and, with `agentWritesCniConfig`, the agent) sees the host's `/opt/cni/bin`. */
export const CNI_BIN_MOUNT_PATH = '/host/opt/cni/bin';

/** Where the installer (and, with `agentWritesCniConfig`, the agent) sees the host's `/etc/cni/net.d`. */
export const CNI_CONF_MOUNT_PATH = '/host/etc/cni/net.d';

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

/** The shape of a {@link CniInstaller}: its `command` is required. @internal */
export const CNI_INSTALLER_SHAPE = object('CniInstaller', { ...CONTAINER_PROCESS_SHAPE, image: opt(str), command: req(list(str)) });

/** The host's `/etc/cni/net.d`, writable for `writer` (the installer, and the agent when it writes the configuration). @internal */
export function cniConfMount(writer: string): HostPath {
  return HostPath.writable('/etc/cni/net.d', {
    type: HostPathType.DIRECTORY_OR_CREATE,
    mountPath: CNI_CONF_MOUNT_PATH,
    volumeName: 'cni-net-d',
    reason: `${writer} writes the CNI network configuration the kubelet reads`,
  });
}

/** Reports an empty install command: an init container that does not exit blocks the agent. @internal */
export function checkInstaller(install: CniInstaller | undefined, problems: ProblemCollector): void {
  if (install !== undefined && install.command !== undefined && install.command.length === 0) {
    problems.add(
      'install.command',
      install.command,
      'the installer needs a command (an init container that does not exit blocks the agent)',
      'give the command that copies the plugin binaries to /host/opt/cni/bin and the configuration to /host/etc/cni/net.d',
    );
  }
}

/** The `install-cni` init container of `install`, running the agent image `agentImage` unless it names its own. @internal */
export function cniInstaller(install: CniInstaller | undefined, agentImage: string): ContainerSpec {
  const spec = install ?? { command: [] };
  const bin = HostPath.writable('/opt/cni/bin', {
    type: HostPathType.DIRECTORY_OR_CREATE,
    mountPath: CNI_BIN_MOUNT_PATH,
    volumeName: 'cni-bin',
    reason: 'the installer copies the CNI plugin binaries the kubelet runs for every pod',
  });
  const installer: ContainerSpec = {
    ...spec,
    name: 'install-cni',
    image: spec.image ?? agentImage,
    resources: spec.resources ?? CNI_INSTALLER_RESOURCES,
    hostPaths: [bin, cniConfMount('the installer')],
    runAsUser: 0,
    runAsNonRoot: false,
  };
  // Without an image of its own, the installer runs the agent's `image`.
  return spec.image === undefined ? madeFrom(installer, 'image', 'image') : installer;
}
