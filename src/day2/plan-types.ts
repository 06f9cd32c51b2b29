/**
 * The shapes of a rollout plan (`planRollouts` in `plan.ts`): per DaemonSet its budgets, waves, blocking nodes,
 * unplaceable pods and canary steps.
 */

import type { WireNode, WirePod } from '../k8s/wire';
import { InputObject } from './objects';

/** Options of {@link planRollouts}. */
export interface PlanOptions {
  /** Node objects (`kubectl get nodes -o json` items). */
  readonly nodes: readonly WireNode[];
  /** Pods (`kubectl get pods -A -o json` items): the DaemonSets' current pods, their readiness, and what uses the nodes. */
  readonly pods?: readonly WirePod[];
  /** The objects of the old version; with them, a DaemonSet changes when its pod template differs. */
  readonly old?: readonly InputObject[];
  /** Seconds to pull the new image per pod. @default 30 */
  readonly pullSeconds?: number;
  /** Seconds from start to Ready per pod. @default 10 */
  readonly readySeconds?: number;
  /** Nodes labelled per canary wave. @default 1 */
  readonly canaryWaveSize?: number;
}

/** A node that keeps the rollout from progressing, and why. */
export interface BlockingNode {
  /** Node name. */
  readonly node: string;
  /** Why its new pod will not become available. */
  readonly reason: string;
}

/** A new pod that cannot be placed on its node. */
export interface UnfitPod {
  /** Node name. */
  readonly node: string;
  /** `hostPort` or `resources`. */
  readonly reason: string;
  /** The port or resources, as the coverage engine words it. */
  readonly detail: string;
}

/** One sync of the controller that replaces pods. */
export interface Wave {
  /** 1-based wave number. */
  readonly wave: number;
  /** Nodes whose pod is replaced in this wave (in node input order). */
  readonly nodes: string[];
}

/** The canary steps: label nodes wave by wave. */
export interface CanaryPlan {
  /** The stable DaemonSet's name (`canary-of`). */
  readonly stable: string;
  /** The canary node label, `key=value`. */
  readonly label: string;
  /** Nodes already labelled (running the canary). */
  readonly labelled: string[];
  /** Nodes the canary would cover once labelled, in waves of the wave size. */
  readonly waves: string[][];
  /** One `kubectl label nodes …` command per wave. */
  readonly commands: string[];
  /** The command that moves every labelled node back to the stable DaemonSet. */
  readonly rollback: string;
}

/** The rollout plan of one DaemonSet. */
export interface RolloutPlan {
  /** Namespace. */
  readonly namespace: string;
  /** Name. */
  readonly name: string;
  /** Whether the pod template changes (a rollout happens). */
  readonly changes: boolean;
  /** Why it does or does not change. */
  readonly because: string;
  /** `RollingUpdate` or `OnDelete`. */
  readonly strategy: string;
  /** Nodes where the controller wants the pod (`desiredNumberScheduled`). */
  readonly desired: number;
  /** The resolved unavailable budget. */
  readonly maxUnavailable: number;
  /** The resolved surge budget. */
  readonly maxSurge: number;
  /** `spec.minReadySeconds` (0 when unset): added to every wave. */
  readonly minReadySeconds: number;
  /** Desired nodes that run (or lack) an up-to-date pod before the rollout: their pod must be replaced or created. */
  readonly toUpdate: number;
  /** Nodes counted unavailable before the first wave (pod missing, not ready, or node NotReady). */
  readonly unavailableAtStart: string[];
  /** The waves, in order; [] for OnDelete or when nothing changes. */
  readonly waves: Wave[];
  /** `complete` (every desired node ends up with an available new pod), `stuck` (deadlock), `manual` (OnDelete), `unchanged`, `invalid`. */
  readonly outcome: 'complete' | 'stuck' | 'manual' | 'unchanged' | 'invalid';
  /** Nodes that hold the budget when the rollout cannot progress; [] otherwise. */
  readonly blockedBy: BlockingNode[];
  /** Nodes whose old pod is never replaced because of the deadlock. */
  readonly neverUpdated: string[];
  /** New pods that cannot be placed on their node (with surge: next to the old pod). */
  readonly unfit: UnfitPod[];
  /** The estimate: waves × (pull + ready + minReadySeconds), in seconds; `null` when there is no rollout or it is stuck. */
  readonly estimatedSeconds: number | null;
  /** The canary steps, for a canary DaemonSet. */
  readonly canary?: CanaryPlan;
  /** What the plan assumes or what needs attention. */
  readonly notes: string[];
}

/** The result of {@link planRollouts}. */
export interface PlanReport {
  /** One plan per DaemonSet of the new input, in input order. */
  readonly daemonSets: RolloutPlan[];
  /** The per-pod estimates used. */
  readonly assumptions: { readonly pullSeconds: number; readonly readySeconds: number };
}
