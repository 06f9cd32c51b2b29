/**
 * Option group (presets): a writable host directory where the service keeps state across restarts.
 */

import { opt, ShapeTable, str } from '../../k8s/shape';

/** A writable host directory where the service keeps state across restarts. */
export interface StateDirOptions {
  /**
   * Host directory for state kept across restarts, mounted writable at the same path.
   * @default the preset's (see each preset)
   */
  readonly stateDir?: string;
}

/** Shape of {@link StateDirOptions}. @internal */
export const STATE_DIR_SHAPE: ShapeTable = { stateDir: opt(str) };
