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
