/**
 * Option group: how new versions reach the nodes (update strategy, canary, variants, config hash).
 */

import { Canary, CANARY_SHAPE } from '../canary';
import { ConfigHash } from '../config-hash';
import { IntOrPercent, Rollout } from '../rollout';
import { bool, instance, int, json, list, oneOf, opt, req, ShapeTable, str } from '../../k8s/shape';
import { Variant, VARIANT_OPTIONS_SHAPE, VariantType } from '../variant';
import { poolShape, stringList } from './elements';

/** How new versions reach the nodes. */
export interface RolloutOptions {
  /**
   * Update strategy.
   * @default Rollout.maxUnavailable(1) (presets: their own)
   */
  readonly rollout?: Rollout;
  /**
   * Seconds a new pod must be ready before it counts as available.
   * @default 0
   */
  readonly minReadySeconds?: number;
  /**
   * Old revisions kept for rollback.
   * @default 10
   */
  readonly revisionHistoryLimit?: number;
  /**
   * Split the service into a stable and a `-canary` DaemonSet by a node label (see {@link Canary.byNodeLabel}).
   * @default no canary
   */
  readonly canary?: Canary;
  /**
   * Variants of the service: more DaemonSets, each for the nodes one requirement selects (a pool's label, a node
   * label, or the Windows nodes) with its own overrides (resources, args, env, image, mounts, a canary). Their
   * required affinities are disjoint by construction, so every node the service covers runs exactly one of its
   * DaemonSets (verified at synth for the declared pools). A Linux variant without a canary whose pods are those of
   * the default DaemonSet gets a synth-time warning (`variant-changes-nothing`). See {@link Variant}.
   * @default no variants
   */
  readonly variants?: Variant[];
  /**
   * The pod-template annotation `node-services.cdk8s.io/config-hash`, a hash of the content of the app's ConfigMaps
   * and Secrets that the containers mount or take env from: changing their content rolls the pods. `ConfigHash.of(v)`
   * adds a value for configuration managed outside the app; `ConfigHash.disabled()` opts out.
   * @default ConfigHash.auto()
   */
  readonly configHash?: ConfigHash;
}

const intOrPercentShape = instance(IntOrPercent, 'IntOrPercent.count(n) or IntOrPercent.percent(p)', {
  // The value's type is checked with its grammar (resolveRollout), where the factory that made it is known.
  value: req(json),
  isPercent: req(bool),
});

/** Shape of {@link RolloutOptions}. @internal */
export const ROLLOUT_SHAPE: ShapeTable = {
  rollout: opt(
    instance(Rollout, 'Rollout.maxUnavailable, Rollout.maxUnavailablePercent, Rollout.surge, Rollout.surgePercent or Rollout.onDelete', {
      type: req(str),
      maxUnavailableAmount: opt(intOrPercentShape),
      maxSurgeAmount: opt(intOrPercentShape),
      reason: opt(str),
    }),
  ),
  minReadySeconds: opt(int),
  revisionHistoryLimit: opt(int),
  canary: opt(CANARY_SHAPE),
  variants: opt(
    list(
      instance(
        Variant,
        'Variant.forPool(name, pool, options), Variant.byNodeLabel(name, key, values, options) or Variant.windows(name, options)',
        {
          name: req(str),
          type: req(oneOf('VariantType', Object.values(VariantType))),
          pool: opt(poolShape),
          key: opt(str),
          values: opt(stringList),
          options: req(VARIANT_OPTIONS_SHAPE),
        },
      ),
    ),
  ),
  configHash: opt(
    instance(ConfigHash, 'ConfigHash.auto(), ConfigHash.disabled() or ConfigHash.of(value)', { mode: req(str), value: opt(str) }),
  ),
};
