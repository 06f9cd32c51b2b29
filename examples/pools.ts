/**
 * The node pools of the example cluster. Node services state which pools they must (and must not) cover; synthesis
 * verifies it with the DaemonSet controller's semantics.
 */

import { NodePool, Taint } from '../src';

/** The example cluster's pools. */
export const POOLS = {
  /** General-purpose workers: no taint. */
  general: NodePool.of({
    name: 'general',
    labels: { 'node.example.com/pool': 'general' },
    allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
  }),
  /** NVIDIA GPU workers, tainted so ordinary pods stay off. */
  gpu: NodePool.gpu(),
  /** Edge nodes in remote sites, tainted. */
  edge: NodePool.edge(),
  /** Control-plane nodes. */
  controlPlane: NodePool.controlPlane(),
  /** Windows Server workers, tainted so Linux pods stay off. */
  windows: NodePool.of({
    name: 'windows',
    labels: { 'kubernetes.io/os': 'windows' },
    taints: [Taint.noSchedule('os', 'windows')],
  }),
};
