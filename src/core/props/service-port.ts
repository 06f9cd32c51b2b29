/**
 * Option group (presets): a port the main container serves on.
 */

import { int, opt, ShapeTable } from '../../k8s/shape';

/** A port the main container serves on. */
export interface ServicePortOptions {
  /**
   * The port the main container serves on (metrics or HTTP API); the preset's default arguments bind it.
   * @default the preset's (see each preset)
   */
  readonly port?: number;
}

/** Shape of {@link ServicePortOptions}. @internal */
export const SERVICE_PORT_SHAPE: ShapeTable = { port: opt(int) };
