/**
 * Option group: what a long-running container runs (image, process, probes, stop hook).
 */

import type { ImagePullPolicy } from '../container';
import { Probe } from '../container';
import { oneOf, opt, req, ShapeTable, str } from '../../k8s/shape';
import { ContainerProcessOptions, CONTAINER_PROCESS_SHAPE } from './container-process';
import { probeShape, stringList } from './elements';

/** What a long-running container runs: its image, process, probes and stop hook. */
export interface ContainerOptions extends ContainerProcessOptions {
  /** Image reference, pinned by a tag other than `latest` or by a digest. */
  readonly image: string;
  /**
   * Image pull policy.
   * @default ImagePullPolicy.IF_NOT_PRESENT
   */
  readonly imagePullPolicy?: ImagePullPolicy;
  /**
   * Readiness probe (node services should have one: a rollout waits for it).
   * @default none (presets: their own)
   */
  readonly readiness?: Probe;
  /**
   * Liveness probe.
   * @default none (presets: their own)
   */
  readonly liveness?: Probe;
  /**
   * Startup probe.
   * @default none (presets: their own)
   */
  readonly startup?: Probe;
  /**
   * Command run before the container is stopped (e.g. flush buffers, remove CNI config).
   * @default none (presets: their own)
   */
  readonly preStop?: string[];
}

/** Shape of {@link ContainerOptions}. @internal */
export const CONTAINER_OPTIONS_SHAPE: ShapeTable = {
  ...CONTAINER_PROCESS_SHAPE,
  image: req(str),
  imagePullPolicy: opt(oneOf('ImagePullPolicy', ['IfNotPresent', 'Always', 'Never'])),
  readiness: opt(probeShape),
  liveness: opt(probeShape),
  startup: opt(probeShape),
  preStop: opt(stringList),
};
