/**
 * DaemonSet update strategies: rolling with `maxUnavailable` (one node at a time is the clearest), surge (old and new
 * pod briefly side by side; never with host ports), or `OnDelete` for operators who roll nodes themselves.
 */

/** How a node service is updated. Create with the static factories. */
export class Rollout {
  /**
   * Rolling update replacing at most `value` pods at once: a count (`1`) or a percentage of the target nodes (`'10%'`).
   * The old pod stops before the new one starts on each node.
   */
  public static maxUnavailable(value: number | string): Rollout {
    return new Rollout('RollingUpdate', value, 0, undefined);
  }

  /**
   * Rolling update that starts the new pod before stopping the old one on up to `value` nodes at once (count or
   * percentage). Needs double resources during the rollout and is unsafe with host ports or exclusive host resources.
   */
  public static surge(value: number | string): Rollout {
    return new Rollout('RollingUpdate', 0, value, undefined);
  }

  /**
   * Pods are replaced only when deleted by an operator (node by node, e.g. during node maintenance). `reason` (at
   * least 10 characters) says who rolls the nodes and how; it is recorded in the manifest.
   */
  public static onDelete(reason: string): Rollout {
    return new Rollout('OnDelete', undefined, undefined, reason);
  }

  /** `RollingUpdate` or `OnDelete`. */
  public readonly type: string;
  /** maxUnavailable (rolling updates). */
  public readonly maxUnavailableValue?: number | string;
  /** maxSurge (rolling updates). */
  public readonly maxSurgeValue?: number | string;
  /** Why OnDelete is used. */
  public readonly reason?: string;

  private constructor(
    type: string,
    maxUnavailable: number | string | undefined,
    maxSurge: number | string | undefined,
    reason: string | undefined,
  ) {
    this.type = type;
    this.maxUnavailableValue = maxUnavailable;
    this.maxSurgeValue = maxSurge;
    this.reason = reason;
  }
}
