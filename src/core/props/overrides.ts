/**
 * Option group: what a canary or a variant changes in the pods of the DaemonSet it derives from (the service's, or
 * for a variant's canary the variant's), declared once for both.
 */

import type { Mount } from '../container';
import { MOUNTS_SHAPE } from '../container';
import { list, map, opt, ShapeTable, str } from '../../k8s/shape';

/**
 * What a canary or a variant changes in the pods of the DaemonSet it derives from (the service's; for a variant's
 * canary, the variant's). Everything else is that DaemonSet's.
 */
export interface OverrideOptions {
  /**
   * The image of the first (main) container.
   * @default the image of the DaemonSet it derives from
   */
  readonly image?: string;
  /**
   * Images per container name, for services with several containers.
   * @default the images of the DaemonSet it derives from
   */
  readonly images?: { [container: string]: string };
  /**
   * Arguments of the main container (they replace those of the DaemonSet it derives from).
   * @default the arguments of the DaemonSet it derives from
   */
  readonly args?: string[];
  /**
   * Extra or changed environment variables of the main container.
   * @default none
   */
  readonly env?: { [name: string]: string };
  /**
   * Mounts of the main container: each replaces the mount at the same `mountPath` (e.g. a new ConfigMap at the config
   * directory, so the canary nodes run the new configuration first) or is added.
   * @default the mounts of the DaemonSet it derives from
   */
  readonly mounts?: Mount[];
  /**
   * `app.kubernetes.io/version` of its DaemonSet.
   * @default the tag of its main container's image
   */
  readonly version?: string;
}

/**
 * The runtime shape of {@link OverrideOptions}, with the fields `own` of a group that extends it placed before
 * `version` (the order in which option lists name them).
 * @internal
 */
export function overrideFields(own: ShapeTable = {}): ShapeTable {
  return {
    image: opt(str),
    images: opt(map(str)),
    args: opt(list(str)),
    env: opt(map(str)),
    mounts: opt(MOUNTS_SHAPE),
    ...own,
    version: opt(str),
  };
}
