/**
 * Option group: names and metadata of the objects of a node service.
 */

import { opt, ShapeTable, str } from '../../k8s/shape';
import { stringMap } from './elements';

/** Names and metadata of the objects of a node service. */
export interface MetadataOptions {
  /**
   * Namespace. `default` is refused: node services belong in a platform namespace.
   * @default the chart's namespace, else `node-services`
   */
  readonly namespace?: string;
  /**
   * `app.kubernetes.io/instance`: distinguishes several installations of the same application.
   * @default the name
   */
  readonly instance?: string;
  /**
   * `app.kubernetes.io/version`.
   * @default the tag of the main container's image
   */
  readonly version?: string;
  /**
   * `app.kubernetes.io/component`.
   * @default the kind, e.g. `log-agent`
   */
  readonly component?: string;
  /**
   * `app.kubernetes.io/part-of`.
   * @default `node-services`
   */
  readonly partOf?: string;
  /**
   * Extra labels on every object (and the pod template). They never enter the selector, and may not set the
   * `app.kubernetes.io/*` labels the service sets itself (use `name`, `instance`, `version`, `component`, `partOf`).
   * @default none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Extra annotations on the DaemonSet.
   * @default none
   */
  readonly annotations?: { [key: string]: string };
  /**
   * Extra annotations on the pod template (e.g. a config checksum to roll pods on config change).
   * @default none
   */
  readonly podAnnotations?: { [key: string]: string };
}

/** Shape of {@link MetadataOptions}. @internal */
export const METADATA_SHAPE: ShapeTable = {
  namespace: opt(str),
  instance: opt(str),
  version: opt(str),
  component: opt(str),
  partOf: opt(str),
  labels: opt(stringMap),
  annotations: opt(stringMap),
  podAnnotations: opt(stringMap),
};
