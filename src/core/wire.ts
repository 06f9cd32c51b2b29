/**
 * The wire form of the objects a node service renders: the JSON the API server reads, typed from the cdk8s-plus-28
 * L1 types with quantities and int-or-strings as the plain values they serialize to, and the field names as the API
 * writes them (`hostPID`, not the L1's `hostPid`). A DaemonSet built from the wire form renders without the L1's
 * property mapping, which would also drop fields the 1.28 schema does not know.
 * @internal
 */

import { k8s } from 'cdk8s-plus-28';

/**
 * `T` with every `k8s.Quantity` and `k8s.IntOrString` as the number or string it serializes to (the two classes have
 * the same shape, so one branch serves both). @internal
 */
export type Wire<T> = T extends k8s.IntOrString
  ? number | string
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/** A container as the API server reads it. @internal */
export type WireContainer = Wire<k8s.Container>;

/** A pod spec as the API server reads it (`hostPID` / `hostIPC` spelled as on the wire). @internal */
export type WirePodSpec = Omit<Wire<k8s.PodSpec>, 'hostPid' | 'hostIpc'> & {
  readonly hostPID?: boolean;
  readonly hostIPC?: boolean;
};

/** A pod template as the API server reads it. @internal */
export interface WirePodTemplateSpec {
  readonly metadata?: Wire<k8s.ObjectMeta>;
  readonly spec?: WirePodSpec;
}

/** A DaemonSet spec as the API server reads it. @internal */
export type WireDaemonSetSpec = Omit<Wire<k8s.DaemonSetSpec>, 'template'> & { readonly template: WirePodTemplateSpec };
