/**
 * Option group: a node service whose every pod is a Windows HostProcess pod (a Windows-only DaemonSet, as Calico,
 * flannel, Antrea, kube-proxy, windows-exporter and csi-proxy ship).
 */

import { object, opt, req, ShapeTable, str } from '../../k8s/shape';

/**
 * A Windows-only node service: every pod is a Windows HostProcess pod (`spec.os.name: windows`, the
 * `kubernetes.io/os: windows` node selector, the host network, `securityContext.windowsOptions { hostProcess: true,
 * runAsUserName }` on the pod) and every container, init containers included, runs as a HostProcess container.
 */
export interface WindowsPodOptions {
  /**
   * Why the service needs HostProcess containers (HostProcess is the Windows equivalent of privileged; at least 10
   * characters, recorded as the suppression of `privileged-container`).
   */
  readonly reason: string;
  /**
   * The Windows user the HostProcess containers run as (`NT AUTHORITY\SYSTEM`, `NT AUTHORITY\Local service`,
   * `NT AUTHORITY\NetworkService` or a local group).
   * @default Variant.WINDOWS_SYSTEM_USER ('NT AUTHORITY\\SYSTEM')
   */
  readonly runAsUserName?: string;
}

/** Shape of {@link WindowsPodOptions}, as the `windows` prop. @internal */
export const WINDOWS_POD_SHAPE: ShapeTable = {
  windows: opt(object('WindowsPodOptions', { reason: req(str), runAsUserName: opt(str) })),
};
