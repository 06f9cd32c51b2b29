/**
 * Option group (presets): a health endpoint served over HTTP.
 */

import { int, opt, ShapeTable, str } from '../../k8s/shape';

/** A health endpoint served over HTTP. */
export interface HealthEndpointOptions {
  /**
   * Port of the HTTP health endpoint, declared as the container port `health`.
   * @default the preset's (see each preset)
   */
  readonly healthPort?: number;
  /**
   * Path of the health endpoint, probed for readiness and liveness.
   * @default the preset's (see each preset)
   */
  readonly healthPath?: string;
}

/** Shape of {@link HealthEndpointOptions}. @internal */
export const HEALTH_ENDPOINT_SHAPE: ShapeTable = { healthPort: opt(int), healthPath: opt(str) };
