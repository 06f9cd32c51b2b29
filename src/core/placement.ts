/**
 * Typed placement: tolerations and node-affinity requirements, rendered to the Kubernetes shapes.
 */

import { checkArguments, int, list, object, oneOf, opt, req, str } from '../k8s/shape';

/** A taint effect. */
export enum TaintEffect {
  /** New pods are not scheduled; running pods stay. */
  NO_SCHEDULE = 'NoSchedule',
  /** The scheduler avoids the node but may still use it. */
  PREFER_NO_SCHEDULE = 'PreferNoSchedule',
  /** New pods are not scheduled and running pods are evicted. */
  NO_EXECUTE = 'NoExecute',
}

/** Options of a toleration. */
export interface TolerationOptions {
  /**
   * Only tolerate taints with this effect.
   * @default every effect
   */
  readonly effect?: TaintEffect;
  /**
   * For `NO_EXECUTE` only: how long the pod stays after the taint appears.
   * @default forever
   */
  readonly tolerationSeconds?: number;
}

const TOLERATION_OPTIONS = opt(
  object('TolerationOptions', { effect: opt(oneOf('TaintEffect', Object.values(TaintEffect))), tolerationSeconds: opt(int) }),
);
const KEY = req(str);

/** A toleration. Create with the static factories. */
export class Toleration {
  /** Tolerates taints with `key`, whatever their value. */
  public static exists(key: string, options: TolerationOptions = {}): Toleration {
    checkArguments('Toleration.exists', arguments, [
      ['key', KEY],
      ['options', TOLERATION_OPTIONS],
    ]);
    return new Toleration({ key, operator: 'Exists' }, options);
  }

  /** Tolerates taints with `key` and exactly `value`. */
  public static equal(key: string, value: string, options: TolerationOptions = {}): Toleration {
    checkArguments('Toleration.equal', arguments, [
      ['key', KEY],
      ['value', req(str)],
      ['options', TOLERATION_OPTIONS],
    ]);
    return new Toleration({ key, operator: 'Equal', value }, options);
  }

  /**
   * Tolerates every taint (`operator: Exists` with no key). Right only for node infrastructure that every node needs
   * (CNI, CSI, runtime security, node metrics); a log agent or GPU monitor should tolerate what its pools need.
   */
  public static all(): Toleration {
    checkArguments('Toleration.all', arguments, []);
    return new Toleration({ operator: 'Exists' }, {});
  }

  /** Tolerates the control-plane taint (`node-role.kubernetes.io/control-plane:NoSchedule`): opts in to control-plane nodes. */
  public static controlPlane(): Toleration {
    checkArguments('Toleration.controlPlane', arguments, []);
    return Toleration.exists('node-role.kubernetes.io/control-plane', { effect: TaintEffect.NO_SCHEDULE });
  }

  /** The taint key, if any. */
  public readonly key?: string;
  /** `Exists` or `Equal`. */
  public readonly operator: string;
  /** The value (Equal only). */
  public readonly value?: string;
  /** The effect, if restricted. */
  public readonly effect?: TaintEffect;
  /** Seconds the pod stays after a NoExecute taint appears. */
  public readonly tolerationSeconds?: number;

  private constructor(base: { key?: string; operator: string; value?: string }, options: TolerationOptions) {
    this.key = base.key;
    this.operator = base.operator;
    this.value = base.value;
    this.effect = options.effect;
    this.tolerationSeconds = options.tolerationSeconds;
  }

  /** The Kubernetes toleration object. */
  public toJson(): any {
    const out: any = {};
    if (this.key !== undefined) out.key = this.key;
    out.operator = this.operator;
    if (this.value !== undefined) out.value = this.value;
    if (this.effect !== undefined) out.effect = this.effect;
    if (this.tolerationSeconds !== undefined) out.tolerationSeconds = this.tolerationSeconds;
    return out;
  }

  /** A stable identity for de-duplication. */
  public get identity(): string {
    return JSON.stringify(this.toJson());
  }
}

/** One node-label requirement of a node-affinity term. Create with the static factories. */
export class NodeRequirement {
  /** The label's value is one of `values`. */
  public static in(key: string, values: string[]): NodeRequirement {
    checkArguments('NodeRequirement.in', arguments, [
      ['key', KEY],
      ['values', req(list(str))],
    ]);
    return new NodeRequirement(key, 'In', values);
  }

  /** The label is absent or its value is none of `values`. */
  public static notIn(key: string, values: string[]): NodeRequirement {
    checkArguments('NodeRequirement.notIn', arguments, [
      ['key', KEY],
      ['values', req(list(str))],
    ]);
    return new NodeRequirement(key, 'NotIn', values);
  }

  /** The label exists. */
  public static exists(key: string): NodeRequirement {
    checkArguments('NodeRequirement.exists', arguments, [['key', KEY]]);
    return new NodeRequirement(key, 'Exists', undefined);
  }

  /** The label does not exist. */
  public static doesNotExist(key: string): NodeRequirement {
    checkArguments('NodeRequirement.doesNotExist', arguments, [['key', KEY]]);
    return new NodeRequirement(key, 'DoesNotExist', undefined);
  }

  /** The label's value, as an integer, is greater than `value`. */
  public static gt(key: string, value: number): NodeRequirement {
    checkArguments('NodeRequirement.gt', arguments, [
      ['key', KEY],
      ['value', req(int)],
    ]);
    return new NodeRequirement(key, 'Gt', [String(value)]);
  }

  /** The label's value, as an integer, is less than `value`. */
  public static lt(key: string, value: number): NodeRequirement {
    checkArguments('NodeRequirement.lt', arguments, [
      ['key', KEY],
      ['value', req(int)],
    ]);
    return new NodeRequirement(key, 'Lt', [String(value)]);
  }

  /** The label key. */
  public readonly key: string;
  /** The operator. */
  public readonly operator: string;
  /** The values (In, NotIn, Gt, Lt). */
  public readonly values?: string[];

  private constructor(key: string, operator: string, values: string[] | undefined) {
    this.key = key;
    this.operator = operator;
    this.values = Array.isArray(values) ? [...values] : values;
  }

  /** The Kubernetes node selector requirement object. */
  public toJson(): any {
    return this.values ? { key: this.key, operator: this.operator, values: [...this.values] } : { key: this.key, operator: this.operator };
  }
}

/** One required node-affinity term: all its requirements must hold (terms are ORed with each other). */
export interface NodeAffinityTerm {
  /** Requirements that must all hold. */
  readonly requirements: NodeRequirement[];
}
