/**
 * The DaemonSet controller's `rollingUpdate` (1.28 `pkg/controller/daemon/update.go`), simulated sync by sync over
 * the per-node state of a rollout: without surge within `maxUnavailable`, with surge within `maxSurge`.
 */

import { BlockingNode, Wave } from './plan-types';

/** Per-node state during the simulation. */
export interface NodeState {
  readonly name: string;
  /** Whether the controller wants the pod there; an undesired node is tracked only while its old pod holds the budget. */
  readonly desired: boolean;
  hasOld: boolean;
  oldAvailable: boolean;
  hasNew: boolean;
  newAvailable: boolean;
  /** Only terminating pods: the node counts as unavailable and gets no new pod until they are gone. */
  terminating: boolean;
  /** Why a new pod here will never become available ("" when it will). */
  readonly stuck: string;
}

export interface Simulation {
  readonly waves: Wave[];
  readonly blockedBy: BlockingNode[];
  readonly neverUpdated: string[];
}

/** A new pod created on the node: available at the end of the wave unless it is stuck. */
function createNew(s: NodeState): void {
  s.hasNew = true;
  s.newAvailable = s.stuck === '';
  s.terminating = false;
}

/**
 * The end of a simulation, when a sync changed nothing: complete when no desired node keeps an old pod, else a
 * deadlock held by the nodes `holds` picks.
 */
function finish(waves: Wave[], states: readonly NodeState[], holds: (s: NodeState) => boolean): Simulation {
  const remaining = states.filter((s) => s.desired && s.hasOld);
  if (remaining.length === 0) return { waves, blockedBy: [], neverUpdated: [] };
  const blockedBy = states
    .filter(holds)
    .map((s) => ({ node: s.name, reason: s.stuck || (s.terminating ? 'its only pod is terminating' : 'its new pod is not available') }));
  return { waves, blockedBy, neverUpdated: remaining.map((s) => s.name) };
}

/** Records a wave of the desired nodes among `touched`, in node order. */
function addWave(waves: Wave[], states: readonly NodeState[], touched: readonly NodeState[]): void {
  const order = new Map<NodeState, number>();
  for (const s of touched) if (s.desired) order.set(s, states.indexOf(s));
  if (order.size === 0) return;
  const nodes = [...order].sort((a, b) => a[1] - b[1]).map(([s]) => s.name);
  waves.push({ wave: waves.length + 1, nodes });
}

/**
 * `rollingUpdate` without surge. Per sync: count the unavailable desired nodes; replace unavailable old pods at once;
 * delete up to `maxUnavailable − unavailable` available old pods; the manage loop creates the missing pods.
 */
export function simulateUnavailable(states: NodeState[], maxUnavailable: number): Simulation {
  const waves: Wave[] = [];
  for (;;) {
    let numUnavailable = 0;
    const replace: NodeState[] = [];
    const candidates: NodeState[] = [];
    const create: NodeState[] = [];
    for (const s of states) {
      if (s.terminating || (s.hasOld && s.hasNew)) {
        numUnavailable++;
      } else if (!s.hasOld && !s.hasNew) {
        if (!s.desired) continue;
        numUnavailable++;
        create.push(s);
      } else if (s.hasNew) {
        if (!s.newAvailable) numUnavailable++;
      } else if (!s.oldAvailable) {
        replace.push(s);
        numUnavailable++;
      } else if (s.desired) {
        candidates.push(s);
      }
    }
    const room = Math.min(Math.max(maxUnavailable - numUnavailable, 0), candidates.length);
    const deleted = [...replace, ...candidates.slice(0, room)];
    if (deleted.length === 0 && create.length === 0) return finish(waves, states, (s) => s.terminating || (s.hasNew && !s.newAvailable));
    for (const s of deleted) {
      s.hasOld = false;
      if (s.desired) createNew(s);
      else s.terminating = true;
    }
    for (const s of create) createNew(s);
    addWave(waves, states, [...deleted, ...create]);
  }
}

/**
 * `rollingUpdate` with surge. Per sync: a new pod next to every unavailable old pod; next to up to
 * `maxSurge − (new pods not yet available)` available old pods; old pods deleted where the new pod is available.
 */
export function simulateSurge(states: NodeState[], maxSurge: number): Simulation {
  const waves: Wave[] = [];
  for (;;) {
    let numSurge = 0;
    const allowed: NodeState[] = [];
    const candidates: NodeState[] = [];
    const create: NodeState[] = [];
    for (const s of states) {
      if (!s.desired) continue;
      if (!s.hasOld) {
        if (!s.hasNew && !s.terminating) create.push(s);
        continue;
      }
      if (!s.hasNew) {
        if (!s.oldAvailable) allowed.push(s);
        else candidates.push(s);
      } else if (!s.newAvailable) {
        numSurge++;
      } else {
        s.hasOld = false;
      }
    }
    const room = Math.min(Math.max(maxSurge - numSurge, 0), candidates.length);
    const surged = [...allowed, ...candidates.slice(0, room)];
    if (surged.length === 0 && create.length === 0)
      return finish(waves, states, (s) => s.desired && s.hasOld && s.hasNew && !s.newAvailable);
    for (const s of [...surged, ...create]) createNew(s);
    // The old pod goes as soon as its node's new pod is available (the next sync).
    for (const s of surged) if (s.newAvailable) s.hasOld = false;
    addWave(waves, states, [...surged, ...create]);
  }
}
