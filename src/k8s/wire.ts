/**
 * The wire form of Kubernetes objects: the JSON the API server reads, with the field names as the API writes them
 * (`hostPID`, `hostIP`), quantities and int-or-strings as the plain values they serialize to. The library renders its
 * objects in this form (a DaemonSet built from it renders without the cdk8s L1 property mapping, which would also drop
 * fields the 1.28 schema does not know), and the rules, the coverage analysis and the day-2 commands read manifests
 * through it.
 *
 * The object types come from the API field data (`wire.generated.ts`, written by `scripts/gen-wire-types.ts`); the
 * kinds the library only reads (Node, Pod, RuntimeClass) are below. Every field is optional. A manifest read from a
 * file is typed with these types before it is checked: the types name the fields, they do not vouch for the values,
 * so a reader still checks each value's JSON type (`Array.isArray`, `typeof`) before it relies on it.
 */

import type { WireObjectMeta, WirePodSpec, WireToleration } from './wire.generated';

export * from './wire.generated';

/** The instance shape of the cdk8s `Quantity` and `IntOrString` classes: one serialized value. */
interface SerializedValue {
  readonly value: string | number;
}

/**
 * `T` (a cdk8s L1 type) with every `Quantity` and `IntOrString` as the number or string it serializes to (a type
 * whose only field is `value: string | number` is one of the two classes) and every `Date` as its timestamp string.
 */
export type Wire<T> = T extends Date
  ? string
  : T extends SerializedValue
    ? [Exclude<keyof T, 'value'>] extends [never]
      ? number | string
      : { [K in keyof T]: Wire<T[K]> }
    : T extends readonly (infer U)[]
      ? Wire<U>[]
      : T extends object
        ? { [K in keyof T]: Wire<T[K]> }
        : T;

/** Any object of a manifest, by the fields every kind has. */
export interface WireObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: WireObjectMeta;
}

/** Whatever carries object metadata (any object of a manifest, a Node, a Pod). */
export interface WireMetadataHolder {
  readonly metadata?: WireObjectMeta;
}

/** A node taint (`core.v1.Taint`). */
export interface WireTaint {
  readonly key?: string;
  readonly value?: string;
  readonly effect?: string;
  readonly timeAdded?: string;
}

/** A node's spec (`core.v1.NodeSpec`). */
export interface WireNodeSpec {
  readonly podCIDR?: string;
  readonly podCIDRs?: string[];
  readonly providerID?: string;
  readonly taints?: WireTaint[];
  readonly unschedulable?: boolean;
}

/** A condition of a node or a pod (`core.v1.NodeCondition`, `core.v1.PodCondition`). */
export interface WireCondition {
  readonly type?: string;
  readonly status?: string;
  readonly reason?: string;
  readonly message?: string;
  readonly lastTransitionTime?: string;
}

/** What a node reports of itself (`core.v1.NodeSystemInfo`). */
export interface WireNodeSystemInfo {
  readonly architecture?: string;
  readonly containerRuntimeVersion?: string;
  readonly kernelVersion?: string;
  readonly kubeletVersion?: string;
  readonly operatingSystem?: string;
  readonly osImage?: string;
}

/** A node's status (`core.v1.NodeStatus`). */
export interface WireNodeStatus {
  readonly allocatable?: { [resource: string]: number | string };
  readonly capacity?: { [resource: string]: number | string };
  readonly conditions?: WireCondition[];
  readonly nodeInfo?: WireNodeSystemInfo;
}

/** A Node (`kubectl get nodes -o json` items). */
export interface WireNode {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: WireObjectMeta;
  readonly spec?: WireNodeSpec;
  readonly status?: WireNodeStatus;
}

/** The state of a container of a pod (`core.v1.ContainerStatus`, the fields read). */
export interface WireContainerStatus {
  readonly name?: string;
  readonly ready?: boolean;
  readonly restartCount?: number;
  readonly image?: string;
}

/** A pod's status (`core.v1.PodStatus`, the fields read). */
export interface WirePodStatus {
  readonly phase?: string;
  readonly conditions?: WireCondition[];
  readonly containerStatuses?: WireContainerStatus[];
  readonly initContainerStatuses?: WireContainerStatus[];
  readonly nominatedNodeName?: string;
}

/** A Pod (`kubectl get pods -o json` items). */
export interface WirePod {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: WireObjectMeta;
  readonly spec?: WirePodSpec;
  readonly status?: WirePodStatus;
}

/** A RuntimeClass (`node.k8s.io/v1`). */
export interface WireRuntimeClass {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: WireObjectMeta;
  readonly handler?: string;
  readonly overhead?: { readonly podFixed?: { [resource: string]: number | string } };
  readonly scheduling?: { readonly nodeSelector?: { [key: string]: string }; readonly tolerations?: WireToleration[] };
}
