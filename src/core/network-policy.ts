/**
 * Network isolation of a node service: a NetworkPolicy that admits ingress only to declared ports from declared
 * sources (everything else is denied), and optionally restricts egress.
 */

import { Protocol } from './container';
import { checkArguments, list, map, opt, req, str } from '../k8s/shape';

/** Who may connect (ingress) or be connected to (egress). Create with the static factories. */
export class NetworkPeer {
  /** Every pod of the namespace named `name` (by its `kubernetes.io/metadata.name` label), e.g. `monitoring`. */
  public static namespace(name: string): NetworkPeer {
    checkArguments('NetworkPeer.namespace', arguments, [['name', req(str)]]);
    return new NetworkPeer({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': name } } });
  }

  /** Every pod of the namespaces carrying all of `labels`. */
  public static namespacesWithLabels(labels: { [key: string]: string }): NetworkPeer {
    checkArguments('NetworkPeer.namespacesWithLabels', arguments, [['labels', req(map(str))]]);
    return new NetworkPeer({ namespaceSelector: { matchLabels: { ...(labels ?? {}) } } });
  }

  /** The pods carrying all of `labels`, in the service's namespace, or in the namespace named `namespace`. */
  public static pods(labels: { [key: string]: string }, namespace?: string): NetworkPeer {
    checkArguments('NetworkPeer.pods', arguments, [
      ['labels', req(map(str))],
      ['namespace', opt(str)],
    ]);
    return new NetworkPeer({
      podSelector: { matchLabels: { ...(labels ?? {}) } },
      ...(namespace !== undefined ? { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } } } : {}),
    });
  }

  /** Addresses in the IP network `cidr` (e.g. `10.0.0.0/8`), except those in `except`. */
  public static cidr(cidr: string, except?: string[]): NetworkPeer {
    checkArguments('NetworkPeer.cidr', arguments, [
      ['cidr', req(str)],
      ['except', opt(list(str))],
    ]);
    return new NetworkPeer({ ipBlock: { cidr, ...(except && except.length > 0 ? { except: [...except] } : {}) } });
  }

  /** @internal */
  public readonly _peer: any;

  private constructor(peer: any) {
    this._peer = peer;
  }
}

/** Sources allowed to connect to some of the service's ports. */
export interface NetworkIngressRule {
  /** Names of the container ports the sources may connect to (e.g. `metrics`). */
  readonly ports: string[];
  /** Who may connect (e.g. `NetworkPeer.namespace('monitoring')`). */
  readonly from: NetworkPeer[];
}

/** A destination port of an egress rule. */
export interface NetworkEgressPort {
  /** The port number (1–65535). */
  readonly port: number;
  /**
   * Protocol.
   * @default Protocol.TCP
   */
  readonly protocol?: Protocol;
}

/** Destinations the service may connect to. */
export interface NetworkEgressRule {
  /** Where the pods may connect. */
  readonly to: NetworkPeer[];
  /**
   * Destination ports.
   * @default every port
   */
  readonly ports?: NetworkEgressPort[];
}

/** The NetworkPolicy of a service (see `NetworkAccessOptions.networkPolicy`). */
export interface NetworkPolicyOptions {
  /**
   * Who may connect to which ports; every other connection to the pods is denied.
   * @default none: all ingress denied
   */
  readonly ingress?: NetworkIngressRule[];
  /**
   * Where the pods may connect; when given, every other outgoing connection is denied (include DNS, e.g.
   * `{ to: [NetworkPeer.pods({ 'k8s-app': 'kube-dns' }, 'kube-system')], ports: [{ port: 53, protocol: Protocol.UDP }, { port: 53 }] }`).
   * @default egress not restricted
   */
  readonly egress?: NetworkEgressRule[];
  /**
   * Why pods of the service that use the host network are acceptable without the NetworkPolicy (NetworkPolicy does not
   * apply to host-network pods, such as a Windows HostProcess variant's), e.g. `'the Windows nodes' firewall closes
   * port 2020'` (at least 10 characters). Given, synth does not warn `network-policy-host-network`; the NetworkPolicy
   * still isolates the pods that do not use the host network.
   * @default synth warns `network-policy-host-network` when pods of the service use the host network
   */
  readonly hostNetworkReason?: string;
}
