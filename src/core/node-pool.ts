/**
 * Node pools: named groups of nodes with the labels and taints that identify them. A node service states which pools it
 * must cover (and, optionally, which it must not); the library derives the affinity and exactly the tolerations those
 * pools need, and proves the coverage at synth with the same semantics as the DaemonSet controller.
 */

import { NodeBudget } from './node-budget';
import { TaintEffect } from './placement';
import { checkArguments, instance, list, map, object, oneOf, opt, req, str } from '../k8s/shape';

/** A taint carried by every node of a pool. Create with the static factories. */
export class Taint {
  /** A `NoSchedule` taint. */
  public static noSchedule(key: string, value?: string): Taint {
    checkArguments('Taint.noSchedule', arguments, [
      ['key', req(str)],
      ['value', opt(str)],
    ]);
    return new Taint(key, value, TaintEffect.NO_SCHEDULE);
  }

  /** A `NoExecute` taint. */
  public static noExecute(key: string, value?: string): Taint {
    checkArguments('Taint.noExecute', arguments, [
      ['key', req(str)],
      ['value', opt(str)],
    ]);
    return new Taint(key, value, TaintEffect.NO_EXECUTE);
  }

  /** A `PreferNoSchedule` taint (never keeps a DaemonSet pod off a node). */
  public static preferNoSchedule(key: string, value?: string): Taint {
    checkArguments('Taint.preferNoSchedule', arguments, [
      ['key', req(str)],
      ['value', opt(str)],
    ]);
    return new Taint(key, value, TaintEffect.PREFER_NO_SCHEDULE);
  }

  /** The taint key. */
  public readonly key: string;
  /** The taint value, if any. */
  public readonly value?: string;
  /** The effect. */
  public readonly effect: TaintEffect;

  private constructor(key: string, value: string | undefined, effect: TaintEffect) {
    this.key = key;
    this.value = value;
    this.effect = effect;
  }

  /** The Kubernetes taint object. */
  public toJson(): any {
    return { key: this.key, ...(this.value !== undefined ? { value: this.value } : {}), effect: this.effect };
  }

  /** `key=value:effect`, as kubectl prints it. */
  public toString(): string {
    return `${this.key}${this.value !== undefined ? `=${this.value}` : ''}:${this.effect}`;
  }
}

const TAINT_SHAPE = instance(Taint, 'Taint.noSchedule, noExecute or preferNoSchedule', {
  key: req(str),
  value: opt(str),
  effect: req(oneOf('TaintEffect', Object.values(TaintEffect))),
});
const BUDGET_SHAPE = instance(NodeBudget, 'NodeBudget.of({ cpuPercent, memoryPercent })');

/** Props of a {@link NodePool}. */
export interface NodePoolProps {
  /** The pool's name (used in messages). */
  readonly name: string;
  /**
   * Labels every node of the pool carries and that select it. An empty map means "every node".
   * @default {} (every node)
   */
  readonly labels?: { [key: string]: string };
  /**
   * Taints every node of the pool carries.
   * @default none
   */
  readonly taints?: Taint[];
  /**
   * Allocatable resources of the pool's smallest node (e.g. `{ cpu: '2', memory: '4Gi', pods: '110' }`; `pods`
   * defaults to the kubelet's 110): when given, synth also checks that the service's pod fits.
   * @default not checked
   */
  readonly allocatable?: { [resource: string]: string };
  /**
   * The share of the pool's allocatable that all node services landing there may request together (needs
   * `allocatable`); synth fails when they request more, or more than allocatable.
   * @default no budget (only allocatable is checked, when given)
   */
  readonly budget?: NodeBudget;
}

/** A named group of nodes. Use the built-ins for common conventions or {@link NodePool.of} for your own. */
export class NodePool {
  /** A pool with the given labels and taints. */
  public static of(props: NodePoolProps): NodePool {
    checkArguments('NodePool.of', arguments, [
      [
        'props',
        req(
          object('NodePoolProps', {
            name: req(str),
            labels: opt(map(str)),
            taints: opt(list(TAINT_SHAPE)),
            allocatable: opt(map(str)),
            budget: opt(BUDGET_SHAPE),
          }),
        ),
      ],
    ]);
    return new NodePool(props);
  }

  /** Every node of the cluster (no identifying label); taints as given. */
  public static all(name: string = 'all-nodes'): NodePool {
    checkArguments('NodePool.all', arguments, [['name', opt(str)]]);
    return new NodePool({ name });
  }

  /** Control-plane nodes (kubeadm convention: role label and `NoSchedule` taint). */
  public static controlPlane(): NodePool {
    checkArguments('NodePool.controlPlane', arguments, []);
    return new NodePool({
      name: 'control-plane',
      labels: { 'node-role.kubernetes.io/control-plane': '' },
      taints: [Taint.noSchedule('node-role.kubernetes.io/control-plane')],
    });
  }

  /**
   * NVIDIA GPU nodes: labelled `nvidia.com/gpu.present=true` (GPU feature discovery) and tainted
   * `nvidia.com/gpu=present:NoSchedule` (the GKE/AKS/EKS convention) so ordinary pods stay off.
   */
  public static gpu(name: string = 'gpu'): NodePool {
    checkArguments('NodePool.gpu', arguments, [['name', opt(str)]]);
    return new NodePool({
      name,
      labels: { 'nvidia.com/gpu.present': 'true' },
      taints: [Taint.noSchedule('nvidia.com/gpu', 'present')],
    });
  }

  /** Edge nodes: labelled and tainted with the `node-role.kubernetes.io/edge` role (`NoSchedule`). */
  public static edge(name: string = 'edge'): NodePool {
    checkArguments('NodePool.edge', arguments, [['name', opt(str)]]);
    return new NodePool({
      name,
      labels: { 'node-role.kubernetes.io/edge': '' },
      taints: [Taint.noSchedule('node-role.kubernetes.io/edge')],
    });
  }

  /** The pool's name. */
  public readonly name: string;
  /** The identifying labels. */
  public readonly labels: { [key: string]: string };
  /** The taints. */
  public readonly taints: Taint[];
  /** Allocatable resources of the smallest node, if known. */
  public readonly allocatable?: { [resource: string]: string };
  /** The node services' budget, if any. */
  public readonly budget?: NodeBudget;

  private constructor(props: NodePoolProps) {
    props = typeof props === 'object' && props !== null ? props : ({} as NodePoolProps);
    this.name = props.name;
    this.labels = isPlainMap(props.labels) ? { ...props.labels } : (props.labels ?? {});
    this.taints = Array.isArray(props.taints) ? [...props.taints] : (props.taints ?? []);
    this.allocatable = isPlainMap(props.allocatable) ? { ...props.allocatable } : props.allocatable;
    this.budget = props.budget;
  }

  /**
   * A synthetic Node standing for the pool's nodes (Linux, with the pool's labels and taints), for the coverage
   * semantics. Pools whose labels name another OS keep theirs.
   */
  public toNode(): any {
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: `pool-${this.name}`,
        labels: { 'kubernetes.io/os': 'linux', 'kubernetes.io/hostname': `pool-${this.name}`, ...this.labels },
      },
      spec: { taints: this.taints.map((t) => t.toJson()) },
      // A node advertises its pod slots; 110 is the kubelet default when the pool does not say.
      ...(this.allocatable ? { status: { allocatable: { pods: '110', ...this.allocatable } } } : {}),
    };
  }
}

/** Whether `value` is a plain object (copied as given; anything else is kept for the construct's checks to report). */
function isPlainMap(value: unknown): value is { [key: string]: string } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Shape of a {@link NodePool} (shared with the fleet's cluster pools). @internal */
export const POOL_SHAPE = instance(NodePool, 'NodePool.of({ name, labels, taints }) or NodePool.all()', {
  name: req(str),
  labels: req(map(str)),
  taints: req(list(TAINT_SHAPE)),
  allocatable: opt(map(str)),
  budget: opt(BUDGET_SHAPE),
});
