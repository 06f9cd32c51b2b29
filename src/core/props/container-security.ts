/**
 * Option group: the user a container runs as and its root filesystem.
 */

import { bool, int, opt, ShapeTable } from '../../k8s/shape';

/** The user a container runs as and its root filesystem. */
export interface ContainerSecurityOptions {
  /**
   * User ID to run as.
   * @default the image's user (presets: their own)
   */
  readonly runAsUser?: number;
  /**
   * Group ID to run as.
   * @default the image's group (presets: their own)
   */
  readonly runAsGroup?: number;
  /**
   * Require a non-root user.
   * @default true when runAsUser is set and non-zero, otherwise unset
   */
  readonly runAsNonRoot?: boolean;
  /**
   * Mount the root filesystem read-only (give scratch space with `Mount.emptyDir`).
   * @default true
   */
  readonly readOnlyRootFilesystem?: boolean;
}

/** Shape of {@link ContainerSecurityOptions}. @internal */
export const CONTAINER_SECURITY_SHAPE: ShapeTable = {
  runAsUser: opt(int),
  runAsGroup: opt(int),
  runAsNonRoot: opt(bool),
  readOnlyRootFilesystem: opt(bool),
};
