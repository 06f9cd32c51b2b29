/**
 * Option group: how clients and other pods reach the service (node-local Service, NetworkPolicy).
 */

import { NetworkPolicyOptions } from '../network-policy';
import { int, list, object, oneOf, opt, req, ShapeTable, str } from '../../k8s/shape';
import { peerShape, stringList } from './elements';

/** A Service for clients on the same node (see {@link NetworkAccessOptions.localService}). */
export interface LocalServiceOptions {
  /**
   * Name of the Service (a DNS-1035 label); clients send to `<name>.<namespace>.svc`.
   * @default the service's name
   */
  readonly name?: string;
  /**
   * Names of the container ports the Service exposes.
   * @default every named port of the long-running containers
   */
  readonly portNames?: string[];
}

/** How clients and other pods reach the service. */
export interface NetworkAccessOptions {
  /**
   * Create a Service with `internalTrafficPolicy: Local` for the service's ports: a client's traffic goes to the pod on
   * its own node (applications send logs, traces or metrics to the agent next to them), never across nodes. Selects
   * the pods of every DaemonSet of the service (stable and canary). With `hostNetwork`, clients can also use the node
   * IP from the downward API (`EnvField.NODE_IP`, `status.hostIP`) and the port.
   * @default no Service
   */
  readonly localService?: LocalServiceOptions;
  /**
   * A NetworkPolicy for the pods of every DaemonSet of the service: ingress only to the declared ports from the declared
   * sources (everything else denied), egress restricted when given. Host-network pods are not subject to
   * NetworkPolicy: such a service gets a synth-time warning (`network-policy-host-network`) instead of a false promise.
   * @default no NetworkPolicy
   */
  readonly networkPolicy?: NetworkPolicyOptions;
}

/** Shape of {@link NetworkAccessOptions}. @internal */
export const NETWORK_ACCESS_SHAPE: ShapeTable = {
  localService: opt(object('LocalServiceOptions', { name: opt(str), portNames: opt(stringList) })),
  networkPolicy: opt(
    object('NetworkPolicyOptions', {
      hostNetworkReason: opt(str),
      ingress: opt(list(object('NetworkIngressRule', { ports: req(stringList), from: req(list(peerShape)) }))),
      egress: opt(
        list(
          object('NetworkEgressRule', {
            to: req(list(peerShape)),
            ports: opt(list(object('NetworkEgressPort', { port: req(int), protocol: opt(oneOf('Protocol', ['TCP', 'UDP', 'SCTP'])) }))),
          }),
        ),
      ),
    }),
  ),
};
