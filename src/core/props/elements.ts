/**
 * Runtime shapes of the values the option groups hold (host paths, probes, node requirements, peers, pools), shared
 * by the groups' shape tables.
 */

import { HostPath, HostPathType, MountPropagation } from '../host-path';
import { PROBE_OPTIONS_SHAPE, Probe } from '../container';
import { NetworkPeer } from '../network-policy';
import { POOL_SHAPE } from '../node-pool';
import { NodeRequirement, TaintEffect } from '../placement';
import { bool, instance, json, list, map, oneOf, opt, req, str } from '../../k8s/shape';

/** Shape of a {@link NodePool} (shared with the fleet's cluster pools). */
export const poolShape = POOL_SHAPE;

/** Shape of a {@link HostPath}. @internal */
export const hostPathShape = instance(HostPath, 'HostPath.readOnly(path) or HostPath.writable(path, { reason })', {
  path: req(str),
  isWritable: req(bool),
  type: req(oneOf('HostPathType', Object.values(HostPathType))),
  mountPath: req(str),
  propagation: req(oneOf('MountPropagation', Object.values(MountPropagation))),
  volumeName: req(str),
  reason: opt(str),
});

/** Shape of a {@link Probe}. @internal */
export const probeShape = instance(Probe, 'Probe.httpGet, Probe.tcpSocket, Probe.exec or Probe.grpc', {
  _handler: req(json),
  options: req(PROBE_OPTIONS_SHAPE),
});

/** Shape of a {@link NodeRequirement}. @internal */
export const requirementShape = instance(NodeRequirement, 'NodeRequirement.in, notIn, exists, doesNotExist, gt or lt', {
  key: req(str),
  operator: req(str),
  values: opt(list(str)),
});

/** Shape of a taint effect. @internal */
export const taintEffect = oneOf('TaintEffect', Object.values(TaintEffect));
/** Shape of a list of strings. @internal */
export const stringList = list(str);
/** Shape of a map of strings. @internal */
export const stringMap = map(str);

/** Shape of a {@link NetworkPeer}. @internal */
export const peerShape = instance(NetworkPeer, 'NetworkPeer.namespace, namespacesWithLabels, pods or cidr', { _peer: req(json) });
