/**
 * Variants of a node service: several DaemonSets of one service, each for the nodes one node requirement selects
 * (`key In values`: a pool's label, any node label, or the Windows nodes), with its own overrides. Their required
 * affinities are disjoint by construction: variant i gets its match ANDed with the complement of every earlier match
 * (`key NotIn values`), and the default DaemonSet gets the complement of every match, so every node the service covers
 * runs exactly one of them. The canary is the same mechanism with a single label value.
 */

import { NodeServiceKind } from '../policy/kinds';
import type { Canary } from './canary';
import { CANARY_SHAPE } from './canary';
import type { Resources } from './container';
import { RESOURCES_SHAPE } from './container';
import type { NodePool } from './node-pool';
import { POOL_SHAPE } from './node-pool';
import { OverrideOptions, overrideFields } from './props/overrides';
import { checkArguments, list, object, opt, req, ShapeTable, str } from '../k8s/shape';

/** The fields of {@link VariantOptions}. */
const VARIANT_OPTION_FIELDS: ShapeTable = {
  ...overrideFields({ resources: opt(object('Resources', RESOURCES_SHAPE)) }),
  canary: opt(CANARY_SHAPE),
};
const POOL_VARIANT_OPTION_FIELDS: ShapeTable = { ...VARIANT_OPTION_FIELDS, poolLabel: opt(str) };
const WINDOWS_VARIANT_OPTION_FIELDS: ShapeTable = {
  ...VARIANT_OPTION_FIELDS,
  reason: req(str),
  command: opt(list(str)),
  runAsUserName: opt(str),
};
/** Shape of a variant's options, whichever factory made it (the factory checked which fields it takes). @internal */
export const VARIANT_OPTIONS_SHAPE = object('VariantOptions', {
  ...POOL_VARIANT_OPTION_FIELDS,
  ...WINDOWS_VARIANT_OPTION_FIELDS,
  reason: opt(str),
});

/** What a variant changes; everything else is the service's. */
export interface VariantOptions extends OverrideOptions {
  /**
   * Resources of the main container (e.g. larger limits on large nodes).
   * @default the service's resources
   */
  readonly resources?: Resources;
  /**
   * A canary of the variant: the variant's nodes with the canary label run `<service>-<variant>-canary`.
   * @default no canary
   */
  readonly canary?: Canary;
}

/** Options of a pool variant. */
export interface PoolVariantOptions extends VariantOptions {
  /**
   * The label key of the pool that selects its nodes (`key In [the pool's value]`).
   * @default the pool's only label (a pool with several labels must name one)
   */
  readonly poolLabel?: string;
}

/**
 * Options of a Windows variant. The Windows pod runs one container, the service's main container built for Windows:
 * it keeps the main container's name, ports, downward-API env (`fieldEnv`), `envFrom`, HTTP/TCP/gRPC probes and (unless
 * given) resources, and takes its image, command, args, env and mounts from these options. Linux-only parts of the
 * service (sidecars, init containers, host paths, exec probes, preStop, capabilities, seccomp, user IDs, read-only
 * root) stay on Linux: a HostProcess container runs as a process on the node and sees its file system directly.
 */
export interface WindowsVariantOptions extends VariantOptions {
  /**
   * Why the service needs a HostProcess container on Windows nodes (HostProcess is the Windows equivalent of
   * privileged; recorded as the suppression of `privileged-container`).
   */
  readonly reason: string;
  /**
   * Command of the Windows container.
   * @default the image's entrypoint
   */
  readonly command?: string[];
  /**
   * The Windows user the HostProcess container runs as (`NT AUTHORITY\SYSTEM`, `NT AUTHORITY\Local service`,
   * `NT AUTHORITY\NetworkService` or a local group).
   * @default 'NT AUTHORITY\\SYSTEM'
   */
  readonly runAsUserName?: string;
}

/** How a variant selects its nodes. */
export enum VariantType {
  /** The nodes of one node pool (its selecting label). */
  POOL = 'Pool',
  /** The nodes with a label value among a set. */
  NODE_LABEL = 'NodeLabel',
  /** The Windows nodes (`kubernetes.io/os In [windows]`), with a HostProcess pod. */
  WINDOWS = 'Windows',
}

/** One variant of a node service. Create with {@link Variant.forPool}, {@link Variant.byNodeLabel} or {@link Variant.windows}. */
export class Variant {
  /** The default `runAsUserName` of a Windows variant. */
  public static readonly WINDOWS_SYSTEM_USER: string = 'NT AUTHORITY\\SYSTEM';

  /**
   * The kinds that may have a Windows variant with a HostProcess pod: agents whose upstream projects ship Windows
   * HostProcess builds and whose job on a Windows node is the same (log agents: Fluent Bit, Vector; monitoring agents:
   * windows-exporter; CNI plugins: Calico, flannel, Antrea; CSI node plugins: csi-proxy based drivers; kube-proxy),
   * and generic node services (no kind-specific allowlist). GPU monitors, device plugins and runtime-security agents
   * have no Windows HostProcess form upstream.
   */
  public static readonly WINDOWS_KINDS: NodeServiceKind[] = [
    NodeServiceKind.GENERIC,
    NodeServiceKind.LOG_AGENT,
    NodeServiceKind.MONITORING_AGENT,
    NodeServiceKind.CNI_PLUGIN,
    NodeServiceKind.CSI_NODE,
    NodeServiceKind.KUBE_PROXY,
  ];

  /**
   * The nodes of `pool` run the variant (`<poolLabel> In [<its value>]`). The pool must be one the service covers.
   */
  public static forPool(name: string, pool: NodePool, options: PoolVariantOptions = {}): Variant {
    checkArguments('Variant.forPool', arguments, [
      ['name', req(str)],
      ['pool', req(POOL_SHAPE)],
      ['options', opt(object('PoolVariantOptions', POOL_VARIANT_OPTION_FIELDS))],
    ]);
    return new Variant(name, VariantType.POOL, pool, undefined, undefined, options ?? {});
  }

  /** Nodes whose label `key` has one of `values` run the variant (`key In values`). */
  public static byNodeLabel(name: string, key: string, values: string[], options: VariantOptions = {}): Variant {
    checkArguments('Variant.byNodeLabel', arguments, [
      ['name', req(str)],
      ['key', req(str)],
      ['values', req(list(str))],
      ['options', opt(object('VariantOptions', VARIANT_OPTION_FIELDS))],
    ]);
    return new Variant(name, VariantType.NODE_LABEL, undefined, key, values, options ?? {});
  }

  /**
   * Windows nodes run the variant: `spec.os.name: windows`, the `kubernetes.io/os: windows` node selector and a
   * HostProcess pod on the host network; the service's Linux DaemonSets then require `kubernetes.io/os NotIn
   * [windows]`. Only kinds whose agents ship Windows HostProcess builds may have one (see `Variant.WINDOWS_KINDS`).
   */
  public static windows(name: string, options: WindowsVariantOptions): Variant {
    checkArguments('Variant.windows', arguments, [
      ['name', req(str)],
      ['options', req(object('WindowsVariantOptions', WINDOWS_VARIANT_OPTION_FIELDS))],
    ]);
    return new Variant(name, VariantType.WINDOWS, undefined, 'kubernetes.io/os', ['windows'], options);
  }

  /** The variant's name: its DaemonSet is `<service>-<name>`. */
  public readonly name: string;
  /** How it selects its nodes. */
  public readonly type: VariantType;
  /** The pool, for a pool variant. */
  public readonly pool?: NodePool;
  /** The node label key, for a node-label or Windows variant. */
  public readonly key?: string;
  /** The label values, for a node-label or Windows variant. */
  public readonly values?: string[];
  /** What the variant changes (for a pool variant a {@link PoolVariantOptions}, for Windows a {@link WindowsVariantOptions}). */
  public readonly options: VariantOptions;

  private constructor(
    name: string,
    type: VariantType,
    pool: NodePool | undefined,
    key: string | undefined,
    values: string[] | undefined,
    options: VariantOptions,
  ) {
    this.name = name;
    this.type = type;
    this.pool = pool;
    this.key = key;
    this.values = Array.isArray(values) ? [...values] : values;
    this.options = options;
  }
}
