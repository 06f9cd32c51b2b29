/**
 * Canary rollout by node label (PRACTICES P13): the service is split into a stable DaemonSet and a `-canary`
 * DaemonSet with complementary required affinity on one node label, so every node the service covers runs exactly one
 * of the two. Label a few nodes to move them to the canary; remove the label to roll back.
 */

import { OverrideOptions, overrideFields } from './props/overrides';
import { checkArguments, instance, object, opt, req, str } from '../k8s/shape';

/** What the canary changes; everything else is identical to the stable service. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- jsii has no type aliases: the canary's options keep their own name
export interface CanaryOptions extends OverrideOptions {}

/** Shape of {@link CanaryOptions}. @internal */
const CANARY_OPTIONS_SHAPE = object('CanaryOptions', overrideFields());

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
