/**
 * Option group: which nodes run the service.
 */

import { NodePool } from '../node-pool';
import { NodeAffinityTerm, NodeRequirement, Toleration } from '../placement';
import { bool, instance, int, list, object, opt, req, ShapeTable, str } from '../../k8s/shape';
import { poolShape, requirementShape, stringMap, taintEffect } from './elements';

/** Which nodes run the service. */
export interface PlacementOptions {
  /**
   * Node labels a node must carry.
   * @default `{ "kubernetes.io/os": "linux" }`
   */
  readonly nodeSelector?: { [key: string]: string };
  /**
   * Required node affinity: a node must satisfy at least one term (all requirements of that term). Replaces the terms
   * derived from `pools` (and a preset's own terms, such as the GPU monitor's GPU nodes).
   * @default derived from `pools` (none without pools); a preset's own terms
   */
  readonly nodeAffinity?: NodeAffinityTerm[];
  /**
   * Requirements every node must meet, ANDed into every required affinity term (given in `nodeAffinity`, or derived
   * from `pools`); with no term, they form the only one. Presets add their own (keeping agents off virtual nodes).
   * @default none (presets: virtual and serverless nodes excluded, see `includeVirtualNodes`)
   */
  readonly nodeRequirements?: NodeRequirement[];
  /**
   * Node pools the service must cover. Unless `nodeAffinity` is given, the affinity is derived from them (a node of any
   * pool qualifies; a pool without labels means every node), and the tolerations their `NoSchedule`/`NoExecute` taints
   * need are added. Coverage of every pool is verified at synth with the DaemonSet controller's semantics.
   * @default no declared coverage target
   */
  readonly pools?: NodePool[];
  /**
   * Node pools the service must not cover (verified at synth), e.g. keep a log agent off GPU nodes.
   * @default none
   */
  readonly excludePools?: NodePool[];
  /**
   * Tolerations (presets add them to their own). The DaemonSet controller adds the node-condition tolerations
   * (not-ready, unreachable, pressure, unschedulable) itself.
   * @default none (presets: their own)
   */
  readonly tolerations?: Toleration[];
  /**
   * Run on control-plane nodes too (adds the control-plane toleration). An explicit decision (PRACTICES P3).
   * @default false
   */
  readonly controlPlane?: boolean;
}

/** Shape of {@link PlacementOptions}. @internal */
export const PLACEMENT_SHAPE: ShapeTable = {
  nodeSelector: opt(stringMap),
  nodeAffinity: opt(list(object('NodeAffinityTerm', { requirements: req(list(requirementShape)) }))),
  nodeRequirements: opt(list(requirementShape)),
  pools: opt(list(poolShape)),
  excludePools: opt(list(poolShape)),
  tolerations: opt(
    list(
      instance(Toleration, 'Toleration.exists, equal, all or controlPlane', {
        key: opt(str),
        operator: req(str),
        value: opt(str),
        effect: opt(taintEffect),
        tolerationSeconds: opt(int),
      }),
    ),
  ),
  controlPlane: opt(bool),
};
