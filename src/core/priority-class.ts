/**
 * A PriorityClass created by the app, for node services the built-in `system-*` classes do not fit.
 */

import { checkArguments, int, object, oneOf, opt, req, str } from '../k8s/shape';

/** How pods of the class treat lower-priority pods when they do not fit. */
export enum PreemptionPolicy {
  /** Evict lower-priority pods to make room (the Kubernetes default). */
  PREEMPT_LOWER_PRIORITY = 'PreemptLowerPriority',
  /** Wait for room; never evict other pods. */
  NEVER = 'Never',
}

/** What {@link PriorityClassSpec.create} creates. */
export interface PriorityClassOptions {
  /** The PriorityClass name (a DNS subdomain; `system-` is reserved). */
  readonly name: string;
  /** The priority (at most 1000000000; higher values are reserved for the `system-*` classes). */
  readonly value: number;
  /**
   * Whether the pods preempt lower-priority pods.
   * @default PreemptionPolicy.PREEMPT_LOWER_PRIORITY
   */
  readonly preemptionPolicy?: PreemptionPolicy;
  /**
   * Description of the class.
   * @default none
   */
  readonly description?: string;
}

/** Shape of {@link PriorityClassOptions}. @internal */
export const PRIORITY_CLASS_OPTIONS_SHAPE = object('PriorityClassOptions', {
  name: req(str),
  value: req(int),
  preemptionPolicy: opt(oneOf('PreemptionPolicy', Object.values(PreemptionPolicy))),
  description: opt(str),
});

/** A PriorityClass the service creates and runs under. Create with {@link PriorityClassSpec.create}. */
export class PriorityClassSpec {
  /** A PriorityClass created with the service (share it with other services through their `priorityClassName`). */
  public static create(options: PriorityClassOptions): PriorityClassSpec {
    checkArguments('PriorityClassSpec.create', arguments, [['options', req(PRIORITY_CLASS_OPTIONS_SHAPE)]]);
    return new PriorityClassSpec(options ?? ({} as PriorityClassOptions));
  }

  /** What the class is. */
  public readonly options: PriorityClassOptions;

  private constructor(options: PriorityClassOptions) {
    this.options = options;
  }
}
