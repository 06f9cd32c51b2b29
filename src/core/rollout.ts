/**
 * DaemonSet update strategies: rolling with `maxUnavailable` (one node at a time is the clearest), surge (old and new
 * pod briefly side by side; never with host ports), or `OnDelete` for operators who roll nodes themselves.
 */

import { checkArguments, num, req, str } from '../k8s/shape';

// The factories check that amounts are numbers; whether a count is a whole number and a percentage in range is checked
// by the service that receives the rollout (with the factory to use instead).

/**
 * A Kubernetes int-or-percent amount (`maxUnavailable`, `maxSurge`): a count of pods (`1`) or a percentage of the
 * target nodes (`10%`, rounded as the DaemonSet controller rounds it). Create with the static factories.
 */
export class IntOrPercent {
  /** A count of pods, a non-negative integer. */
  public static count(count: number): IntOrPercent {
    checkArguments('IntOrPercent.count', arguments, [['count', req(num)]]);
    return new IntOrPercent(count, false);
  }

  /** A percentage of the nodes the DaemonSet targets, an integer from 0 to 100. */
  public static percent(percent: number): IntOrPercent {
    checkArguments('IntOrPercent.percent', arguments, [['percent', req(num)]]);
    return new IntOrPercent(percent, true);
  }

  /** The count, or the percentage without its `%`. */
  public readonly value: number;
  /** Whether `value` is a percentage. */
  public readonly isPercent: boolean;

  private constructor(value: number, isPercent: boolean) {
    this.value = value;
    this.isPercent = isPercent;
  }

  /** The amount as Kubernetes writes it: `1` or `10%`. */
  public toString(): string {
    return this.isPercent ? `${this.value}%` : `${this.value}`;
  }

  /**
   * The IntOrString value of the manifest: the count as a number, the percentage as `"<n>%"`. A value of the wrong
   * type (plain JavaScript) is returned as given, for the boundary check to report.
   * @internal
   */
  public _toKubernetes(): unknown {
    return this.isPercent && typeof this.value === 'number' ? `${this.value}%` : this.value;
  }
}

/** How a node service is updated. Create with the static factories. */
export class Rollout {
  /**
   * Rolling update replacing at most `count` pods at once (`1`: one node at a time). The old pod stops before the new
   * one starts on each node.
   */
  public static maxUnavailable(count: number): Rollout {
    checkArguments('Rollout.maxUnavailable', arguments, [
      ['count', req(num), 'pass a count of pods; for a percentage, use Rollout.maxUnavailablePercent(10)'],
    ]);
    return new Rollout('RollingUpdate', IntOrPercent.count(count), IntOrPercent.count(0), undefined);
  }

  /**
   * Rolling update replacing at most `percent` % of the target nodes' pods at once (`10`: 10%, at least one pod).
   * The old pod stops before the new one starts on each node.
   */
  public static maxUnavailablePercent(percent: number): Rollout {
    checkArguments('Rollout.maxUnavailablePercent', arguments, [
      ['percent', req(num), 'pass the percentage without %, e.g. Rollout.maxUnavailablePercent(10)'],
    ]);
    return new Rollout('RollingUpdate', IntOrPercent.percent(percent), IntOrPercent.count(0), undefined);
  }

  /**
   * Rolling update that starts the new pod before stopping the old one on up to `count` nodes at once. Needs double
   * resources during the rollout and is unsafe with host ports or exclusive host resources.
   */
  public static surge(count: number): Rollout {
    checkArguments('Rollout.surge', arguments, [
      ['count', req(num), 'pass a count of pods; for a percentage, use Rollout.surgePercent(10)'],
    ]);
    return new Rollout('RollingUpdate', IntOrPercent.count(0), IntOrPercent.count(count), undefined);
  }

  /**
   * Rolling update that starts the new pod before stopping the old one on up to `percent` % of the target nodes at
   * once. Same cautions as {@link Rollout.surge}.
   */
  public static surgePercent(percent: number): Rollout {
    checkArguments('Rollout.surgePercent', arguments, [
      ['percent', req(num), 'pass the percentage without %, e.g. Rollout.surgePercent(10)'],
    ]);
    return new Rollout('RollingUpdate', IntOrPercent.count(0), IntOrPercent.percent(percent), undefined);
  }

  /**
   * Pods are replaced only when deleted by an operator (node by node, e.g. during node maintenance). `reason` (at
   * least 10 characters) says who rolls the nodes and how; it is recorded in the manifest.
   */
  public static onDelete(reason: string): Rollout {
    checkArguments('Rollout.onDelete', arguments, [['reason', req(str)]]);
    return new Rollout('OnDelete', undefined, undefined, reason);
  }

  /** `RollingUpdate` or `OnDelete`. */
  public readonly type: string;
  /** `maxUnavailable` of a rolling update. */
  public readonly maxUnavailableAmount?: IntOrPercent;
  /** `maxSurge` of a rolling update. */
  public readonly maxSurgeAmount?: IntOrPercent;
  /** Why OnDelete is used. */
  public readonly reason?: string;

  private constructor(
    type: string,
    maxUnavailable: IntOrPercent | undefined,
    maxSurge: IntOrPercent | undefined,
    reason: string | undefined,
  ) {
    this.type = type;
    this.maxUnavailableAmount = maxUnavailable;
    this.maxSurgeAmount = maxSurge;
    this.reason = reason;
  }
}
