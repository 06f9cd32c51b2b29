/**
 * How the rollout of a DaemonSet change will go, simulated as the Kubernetes 1.28 DaemonSet controller runs it
 * (`pkg/controller/daemon/update.go` `rollingUpdate`), one sync at a time:
 *
 * - Budgets from `maxUnavailable` / `maxSurge`, scaled over the desired node count and rounded up
 *   (`updatedDesiredNodeCounts`, see `strategy.ts`).
 * - Without surge: every desired node whose pod is missing, not available, or already new but not yet available
 *   counts against `maxUnavailable`; old pods that are not available are replaced at once, outside the budget; then
 *   as many available old pods as the budget has room for are deleted, and the manage loop creates their replacements.
 * - With `maxSurge > 0`: a new pod is created next to each old pod that is not available, and next to up to `maxSurge`
 *   available old pods minus the new pods still waiting to become available; an old pod is deleted once the new pod
 *   on its node is available. `maxUnavailable` is not used.
 * - `OnDelete`: the controller replaces a pod only after someone deletes it.
 *
 * A sync that can delete or create nothing while old pods remain is a deadlock: the budget is held by nodes whose new
 * pod will never become available (node NotReady, pod Pending for resources or host ports, a new pod that is not
 * ready), and the report names them.
 */

import type { WireDaemonSet, WireNode } from '../k8s/wire';
import { analyzeCoverage } from '../coverage/analyze';
import { ResolvedStrategy, resolveStrategy } from '../coverage/strategy';
import { describeSurgeConflict, surgeConflict } from '../coverage/surge';
import { CoverageReason } from '../coverage/types';
import { canaryPlan, isDesired, selectorFlag, shellWord } from './canary-plan';
import { NodeCensus, PlanInput, nodeCensus, podsByNodeName } from './node-census';
import { InputObject, daemonSetsByKey, keyOf, nameOf, namespaceOf } from './objects';
import { CanaryPlan, PlanOptions, PlanReport, RolloutPlan } from './plan-types';
import { ownPods } from './rollout-pods';
import { simulateSurge, simulateUnavailable } from './rollout-simulation';

export { BlockingNode, CanaryPlan, PlanOptions, PlanReport, RolloutPlan, UnfitPod, Wave } from './plan-types';
export { podMatchesTemplate } from './rollout-pods';

/** Default seconds to pull a new image on a node (`--pull-seconds`). */
export const DEFAULT_PULL_SECONDS = 30;
/** Default seconds from container start to Ready (`--ready-seconds`). */
export const DEFAULT_READY_SECONDS = 10;
/** Default number of nodes labelled per canary wave (`--canary-wave-size`). */
export const DEFAULT_CANARY_WAVE_SIZE = 1;

/** What every plan of the DaemonSet says, whatever its outcome. */
function planBase(ds: WireDaemonSet, strategy: ResolvedStrategy, desired: number, canary: CanaryPlan | undefined) {
  return {
    namespace: namespaceOf(ds),
    name: nameOf(ds),
    strategy: strategy.type,
    desired,
    maxUnavailable: strategy.maxUnavailable,
    maxSurge: strategy.maxSurge,
    minReadySeconds: strategy.minReadySeconds,
    ...(canary ? { canary } : {}),
  };
}

/** The fields of a plan without a rollout. */
function noRollout(notes: string[]) {
  return {
    toUpdate: 0,
    unavailableAtStart: [],
    waves: [],
    blockedBy: [],
    neverUpdated: [],
    unfit: [],
    estimatedSeconds: null,
    notes,
  };
}

/** Why the DaemonSet does or does not change. */
function changeReason(census: NodeCensus, stale: number, desired: number): string {
  if (census.templateChanged === true) return 'the pod template differs from --old';
  if (census.templateChanged === false) return 'the pod template is the same as in --old';
  return stale > 0
    ? `${census.stalePods} of the ${census.livePods} pods in --pods (on ${desired} desired nodes) do not run the new template (containers, images, commands, arguments, template labels and annotations)`
    : 'every pod in --pods runs the new template';
}

/** Plans the rollout of one DaemonSet. */
function planOne(input: PlanInput): RolloutPlan {
  const { ds, options } = input;
  const notes: string[] = [];
  const rows = analyzeCoverage([ds], options.nodes, options.pods).workloads[0]?.nodes ?? [];
  const desired = rows.filter(isDesired).length;
  const strategy: ResolvedStrategy = resolveStrategy(ds, desired);
  notes.push(...strategy.notes);
  const canary = canaryPlan(ds, options.nodes, options.pods, options.canaryWaveSize ?? DEFAULT_CANARY_WAVE_SIZE, notes);
  const base = planBase(ds, strategy, desired, canary);
  if (strategy.errors.length > 0) {
    return { ...base, ...noRollout(notes), changes: false, because: strategy.errors.join('; '), outcome: 'invalid' };
  }
  const census = nodeCensus(input, rows, strategy);
  const desiredStates = census.states.filter((s) => s.desired);
  const stale = desiredStates.filter((s) => s.hasOld).length;
  const changes = census.templateChanged ?? stale > 0;
  const because = changeReason(census, stale, desired);
  if (!changes) return { ...base, ...noRollout(notes), changes, because, outcome: 'unchanged' };
  const start = {
    toUpdate: desiredStates.filter((s) => s.hasOld || (!s.hasNew && !s.terminating)).length,
    unavailableAtStart: census.states.filter((s) => (s.hasOld ? !s.oldAvailable : !s.newAvailable)).map((s) => s.name),
    unfit: census.unfit,
    changes,
    because,
  };
  if (strategy.type === 'OnDelete') {
    notes.push(
      `OnDelete: the controller creates the new pod on a node only after its old pod is deleted, e.g. node by node: ` +
        `kubectl delete pod -n ${shellWord(namespaceOf(ds))}${selectorFlag(ds)} --field-selector spec.nodeName=NODE`,
    );
    return { ...base, ...noRollout(notes), ...start, outcome: 'manual' };
  }
  return { ...base, ...start, ...rollingUpdate(input, strategy, census, desired, notes) };
}

/** The waves of a `RollingUpdate`, its outcome and estimate, and the notes on what holds it back. */
function rollingUpdate(input: PlanInput, strategy: ResolvedStrategy, census: NodeCensus, desired: number, notes: string[]) {
  const { ds, options } = input;
  const surging = strategy.type === 'RollingUpdate' && strategy.maxSurge > 0;
  if (options.pods === undefined)
    notes.push('no --pods: every covered node is assumed to run an available old pod unless the node is NotReady');
  const conflict = surging ? surgeConflict(ds) : undefined;
  if (conflict) {
    notes.push(
      `maxSurge ${conflict.maxSurge} with ${describeSurgeConflict(conflict)}: the new pod cannot run next to the old one on any node; use maxUnavailable (with maxSurge 0)`,
    );
  }
  if (!surging && census.unfit.some((u) => u.reason === CoverageReason.HOST_PORT || u.reason === CoverageReason.RESOURCES)) {
    notes.push('new pods that stay Pending keep counting as unavailable');
  }
  const sim = surging ? simulateSurge(census.states, strategy.maxSurge) : simulateUnavailable(census.states, strategy.maxUnavailable);
  const perWave =
    (options.pullSeconds ?? DEFAULT_PULL_SECONDS) + (options.readySeconds ?? DEFAULT_READY_SECONDS) + strategy.minReadySeconds;
  const stuckOutcome = sim.blockedBy.length > 0 || sim.neverUpdated.length > 0;
  if (!surging && strategy.maxUnavailable === 1 && desired > 20) {
    notes.push(`maxUnavailable 1 over ${desired} nodes means ${desired} waves; a percentage (e.g. "10%") rolls large clusters faster`);
  }
  return {
    waves: sim.waves,
    outcome: stuckOutcome ? ('stuck' as const) : ('complete' as const),
    blockedBy: sim.blockedBy,
    neverUpdated: sim.neverUpdated,
    estimatedSeconds: stuckOutcome ? null : sim.waves.length * perWave,
    notes,
  };
}

/**
 * Plans the rollout of every DaemonSet in `newObjects` over `options.nodes`. What "changes" means:
 * - with `options.old`: the pod template differs from the old DaemonSet of the same namespace/name (any field: the
 *   controller hashes the whole template); which pods are already new is read from `options.pods` when given
 *   ({@link podMatchesTemplate}), else every node the old DaemonSet covers runs an old pod;
 * - without `options.old`: some pod of the DaemonSet in `options.pods` does not match the new template
 *   ({@link podMatchesTemplate}).
 */
export function planRollouts(newObjects: readonly InputObject[], options: PlanOptions): PlanReport {
  const nodesByName = new Map<string, WireNode>(options.nodes.map((n) => [nameOf(n), n]));
  const podsByNode = podsByNodeName(options.pods ?? []);
  const olds = options.old !== undefined ? daemonSetsByKey(options.old) : undefined;
  const plans: RolloutPlan[] = [];
  for (const [key, current] of daemonSetsByKey(newObjects)) {
    const oldDs = olds?.get(key)?.object;
    if (olds !== undefined && oldDs === undefined) {
      plans.push(addedPlan(current.object, options, `${keyOf(current.object)} is not in --old`));
      continue;
    }
    if (olds === undefined && options.pods !== undefined && ownPods(current.object, options.pods).length === 0) {
      plans.push(addedPlan(current.object, options, `no pod of ${keyOf(current.object)} is in --pods`));
      continue;
    }
    plans.push(planOne({ ds: current.object, oldDs, options, nodesByName, podsByNode }));
  }
  return {
    daemonSets: plans.map(inOrder),
    assumptions: { pullSeconds: options.pullSeconds ?? DEFAULT_PULL_SECONDS, readySeconds: options.readySeconds ?? DEFAULT_READY_SECONDS },
  };
}

/** The plan with its fields in the documented order (the JSON output's key order). */
function inOrder(p: RolloutPlan): RolloutPlan {
  return {
    namespace: p.namespace,
    name: p.name,
    changes: p.changes,
    because: p.because,
    strategy: p.strategy,
    desired: p.desired,
    maxUnavailable: p.maxUnavailable,
    maxSurge: p.maxSurge,
    minReadySeconds: p.minReadySeconds,
    toUpdate: p.toUpdate,
    unavailableAtStart: p.unavailableAtStart,
    outcome: p.outcome,
    waves: p.waves,
    estimatedSeconds: p.estimatedSeconds,
    blockedBy: p.blockedBy,
    neverUpdated: p.neverUpdated,
    unfit: p.unfit,
    ...(p.canary !== undefined ? { canary: p.canary } : {}),
    notes: p.notes,
  };
}

/** A DaemonSet that is new: the manage loop creates its pods on every desired node at once (no update budget applies). */
function addedPlan(ds: WireDaemonSet, options: PlanOptions, why: string): RolloutPlan {
  const rows = analyzeCoverage([ds], options.nodes, options.pods).workloads[0]?.nodes ?? [];
  const desiredRows = rows.filter(isDesired);
  const strategy = resolveStrategy(ds, desiredRows.length);
  const notes = [...strategy.notes];
  const canary = canaryPlan(ds, options.nodes, options.pods, options.canaryWaveSize ?? DEFAULT_CANARY_WAVE_SIZE, notes);
  const unfit = desiredRows.filter((r) => !r.runs).map((r) => ({ node: r.node, reason: r.reason, detail: r.detail }));
  if (unfit.length > 0) notes.push(`${unfit.length} of the new pods cannot be placed and stay Pending (see unfit)`);
  const perPod = (options.pullSeconds ?? DEFAULT_PULL_SECONDS) + (options.readySeconds ?? DEFAULT_READY_SECONDS) + strategy.minReadySeconds;
  return {
    namespace: namespaceOf(ds),
    name: nameOf(ds),
    changes: true,
    because: `${why}: the controller creates its pods on all ${desiredRows.length} desired nodes at once`,
    strategy: strategy.type,
    desired: desiredRows.length,
    maxUnavailable: strategy.maxUnavailable,
    maxSurge: strategy.maxSurge,
    minReadySeconds: strategy.minReadySeconds,
    toUpdate: desiredRows.length,
    unavailableAtStart: desiredRows.map((r) => r.node),
    waves: desiredRows.length > 0 ? [{ wave: 1, nodes: desiredRows.map((r) => r.node) }] : [],
    outcome: strategy.errors.length > 0 ? 'invalid' : 'complete',
    blockedBy: [],
    neverUpdated: [],
    unfit,
    estimatedSeconds: desiredRows.length > 0 ? perPod : null,
    ...(canary ? { canary } : {}),
    notes: [...strategy.errors, ...notes],
  };
}
