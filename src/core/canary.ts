/**
 * Canary rollout by node label (PRACTICES P13): the service is split into a stable DaemonSet and a `-canary`
 * DaemonSet with complementary required affinity on one node label, so every node the service covers runs exactly one
 * of the two. Label a few nodes to move them to the canary; remove the label to roll back.
 */

import type { Mount } from './container';
import { MOUNTS_SHAPE } from './container';
import { checkArguments, instance, list, map, object, opt, req, str } from '../k8s/shape';

/** What the canary changes; everything else is identical to the stable service. */
export interface CanaryOptions {
  /**
   * The image of the first (main) container in the canary.
   * @default the stable image
   */
  readonly image?: string;
  /**
   * Images per container name, for services with several containers.
   * @default the stable images
   */
  readonly images?: { [container: string]: string };
  /**
   * Arguments of the main container in the canary.
   * @default the stable arguments
   */
  readonly args?: string[];
  /**
   * Extra or changed environment variables of the main container in the canary.
   * @default none
   */
  readonly env?: { [name: string]: string };
  /**
   * Mounts of the main container in the canary: each replaces the stable mount at the same `mountPath` (e.g. a new
   * ConfigMap at the config directory, so the canary nodes run the new configuration first) or is added.
   * @default the stable mounts
   */
  readonly mounts?: Mount[];
  /**
   * `app.kubernetes.io/version` of the canary.
   * @default the canary image's tag
   */
  readonly version?: string;
}

/** Shape of {@link CanaryOptions}. @internal */
const CANARY_OPTIONS_SHAPE = object('CanaryOptions', {
  image: opt(str),
  images: opt(map(str)),
  args: opt(list(str)),
  env: opt(map(str)),
  mounts: opt(MOUNTS_SHAPE),
  version: opt(str),
});

/** How to split a service into stable and canary. Create with {@link Canary.byNodeLabel}. */
export class Canary {
  /**
   * Nodes labelled `key=value` run the canary (`key In [value]`); every other covered node runs the stable service
   * (`key NotIn [value]`). The requirement is ANDed into every affinity term of both halves.
   */
  public static byNodeLabel(key: string, value: string, options: CanaryOptions = {}): Canary {
    checkArguments('Canary.byNodeLabel', arguments, [
      ['key', req(str)],
      ['value', req(str)],
      ['options', opt(CANARY_OPTIONS_SHAPE)],
    ]);
    return new Canary(key, value, options ?? {});
  }

  /** The node label key. */
  public readonly key: string;
  /** The node label value that selects canary nodes. */
  public readonly value: string;
  /** What the canary changes. */
  public readonly options: CanaryOptions;

  private constructor(key: string, value: string, options: CanaryOptions) {
    this.key = key;
    this.value = value;
    this.options = options;
  }
}

/** Shape of a {@link Canary}. @internal */
export const CANARY_SHAPE = instance(Canary, 'Canary.byNodeLabel(key, value, options)', {
  key: req(str),
  value: req(str),
  options: req(CANARY_OPTIONS_SHAPE),
});
