/**
 * The props of `NodeService`: the option groups it is composed of, its own fields (name, kind, containers, host
 * namespaces, DNS policy, pod-level user), and their runtime shape.
 */

import { ContainerSpec } from '../container';
import { NodeServiceKind } from '../../policy/kinds';
import { bool, int, list, object, oneOf, opt, req, ShapeTable, str } from '../../k8s/shape';
import { CONTAINER_SPEC_SHAPE } from './container-spec';
import { MetadataOptions, METADATA_SHAPE } from './metadata';
import { NetworkAccessOptions, NETWORK_ACCESS_SHAPE } from './network-access';
import { PlacementOptions, PLACEMENT_SHAPE } from './placement';
import { PodOptions, POD_SHAPE } from './pod';
import { RolloutOptions, ROLLOUT_SHAPE } from './rollout';
import { WindowsPodOptions, WINDOWS_POD_SHAPE } from './windows';

/** DNS policy of the pods. */
export enum DnsPolicy {
  /** Cluster DNS (the default for pods without host network). */
  CLUSTER_FIRST = 'ClusterFirst',
  /** Cluster DNS for a host-network pod (it would otherwise get the node's resolver). */
  CLUSTER_FIRST_WITH_HOST_NET = 'ClusterFirstWithHostNet',
  /** The node's resolver: for services that must not depend on cluster DNS (CNI) or resolve nothing. */
  DEFAULT = 'Default',
  /** Only the resolver settings of `dnsConfig` (which then needs at least one nameserver). */
  NONE = 'None',
}

/** Props of {@link NodeService}. */
export interface NodeServiceProps extends MetadataOptions, PlacementOptions, RolloutOptions, PodOptions, NetworkAccessOptions {
  /** Name of the DaemonSet and `app.kubernetes.io/name` (a DNS-1123 label, e.g. `fluent-bit`). */
  readonly name: string;
  /**
   * The kind whose host-path and capability allowlists apply (presets set it).
   * @default NodeServiceKind.GENERIC (no allowlist)
   */
  readonly kind?: NodeServiceKind;
  /** The long-running containers; the first is the main container. */
  readonly containers: ContainerSpec[];
  /**
   * Containers that run to completion before the others start (e.g. installing CNI binaries).
   * @default none
   */
  readonly initContainers?: ContainerSpec[];
  /**
   * Use the node's network namespace.
   * @default false
   */
  readonly hostNetwork?: boolean;
  /**
   * Use the node's PID namespace.
   * @default false
   */
  readonly hostPID?: boolean;
  /**
   * DNS policy.
   * @default CLUSTER_FIRST_WITH_HOST_NET with hostNetwork, else CLUSTER_FIRST
   */
  readonly dnsPolicy?: DnsPolicy;
  /**
   * Pod-level user ID (containers may set their own).
   * @default the image's user
   */
  readonly runAsUser?: number;
  /**
   * Pod-level group ID (containers may set their own).
   * @default the image's group
   */
  readonly runAsGroup?: number;
  /**
   * Run every pod on Windows nodes as a Windows HostProcess pod: `spec.os.name: windows`, the `kubernetes.io/os:
   * windows` node selector, the host network and `windowsOptions { hostProcess: true, runAsUserName }` on the pod. Every
   * container, init containers included, is a HostProcess container and keeps its image, command, args, env, mounts
   * and host paths (Windows paths and commands as written); none of the Linux-only fields the API server rejects with
   * `os.name: windows` is rendered, and the Linux-only props are refused with it (capabilities, seccomp, AppArmor,
   * `privileged`, `readOnlyRootFilesystem`, `runAsUser`/`runAsGroup`/`runAsNonRoot`, `fsGroup`, `hostPID`, mount
   * propagation). Only the kinds of `Variant.WINDOWS_KINDS` may use it. For a service that runs on Linux and Windows
   * nodes, use a Windows variant (`Variant.windows`) instead.
   * @default none (Linux pods)
   */
  readonly windows?: WindowsPodOptions;
}

/** Shape of the props of `NodeService` itself (besides the option groups). @internal */
const NODE_SERVICE_OWN_SHAPE: ShapeTable = {
  name: req(str),
  kind: opt(oneOf('NodeServiceKind', Object.values(NodeServiceKind))),
  containers: req(list(object('ContainerSpec', CONTAINER_SPEC_SHAPE))),
  initContainers: opt(list(object('ContainerSpec', CONTAINER_SPEC_SHAPE))),
  hostNetwork: opt(bool),
  hostPID: opt(bool),
  dnsPolicy: opt(oneOf('DnsPolicy', ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'])),
  runAsUser: opt(int),
  runAsGroup: opt(int),
  ...WINDOWS_POD_SHAPE,
};

/** The option groups shared by `NodeService` and every preset. @internal */
export const SERVICE_GROUPS_SHAPE: ShapeTable = {
  ...METADATA_SHAPE,
  ...PLACEMENT_SHAPE,
  ...ROLLOUT_SHAPE,
  ...POD_SHAPE,
  ...NETWORK_ACCESS_SHAPE,
};

/** Shape of {@link NodeServiceProps}. @internal */
export const NODE_SERVICE_SHAPE: ShapeTable = { ...SERVICE_GROUPS_SHAPE, ...NODE_SERVICE_OWN_SHAPE };
