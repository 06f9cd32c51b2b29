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

import { analyzeCoverage } from '../coverage/analyze';
import { checkPodOnNode } from '../coverage/evaluate';
import { CoverageReason, CoverageStatus, NodeCoverage } from '../coverage/types';
import { parseQuantity } from '../k8s/quantity';
import {
  CANARY_LABEL_ANNOTATION,
  CANARY_OF_ANNOTATION,
  InputObject,
  canonicalJson,
  daemonSetsByKey,
  jsonEqual,
  keyOf,
  nameOf,
  namespaceOf,
  nodeReady,
  podReady,
} from './objects';
import { ResolvedStrategy, resolveStrategy } from '../coverage/strategy';
import { describeSurgeConflict, surgeConflict } from '../coverage/surge';

/** Default seconds to pull a new image on a node (`--pull-seconds`). */
export const DEFAULT_PULL_SECONDS = 30;
/** Default seconds from container start to Ready (`--ready-seconds`). */
export const DEFAULT_READY_SECONDS = 10;
/** Default number of nodes labelled per canary wave (`--canary-wave-size`). */
export const DEFAULT_CANARY_WAVE_SIZE = 1;

/** Options of {@link planRollouts}. */
export interface PlanOptions {
  /** Node objects (`kubectl get nodes -o json` items). */
  readonly nodes: readonly any[];
  /** Pods (`kubectl get pods -A -o json` items): the DaemonSets' current pods, their readiness, and what uses the nodes. */
  readonly pods?: readonly any[];
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

/** Per-node state during the simulation. */
interface NodeState {
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

/** The pods of a DaemonSet: owned by it (ownerReferences), or, without owner references, matching its selector. */
function ownPods(ds: any, pods: readonly any[]): any[] {
  const ns = namespaceOf(ds);
  const name = nameOf(ds);
  const matchLabels = ds?.spec?.selector?.matchLabels;
  return pods.filter((p) => {
    if (namespaceOf(p) !== ns) return false;
    const owners = p?.metadata?.ownerReferences;
    if (Array.isArray(owners) && owners.length > 0) return owners.some((o: any) => o?.kind === 'DaemonSet' && o?.name === name);
    if (matchLabels == null || typeof matchLabels !== 'object' || Object.keys(matchLabels).length === 0) return false;
    const labels = p?.metadata?.labels ?? {};
    return Object.entries(matchLabels).every(([k, v]) => labels[k] === v);
  });
}

/** A resource list by value (`"1Gi"` and `"1024Mi"` are the same), sorted by name. */
function resourceValues(list: any): Array<[string, number | string]> {
  if (list == null || typeof list !== 'object') return [];
  return Object.keys(list)
    .sort()
    .map((name) => [name, parseQuantity(list[name]) ?? String(list[name])]);
}

/** Requests and limits as the pod has them: `SetDefaults_Pod` copies each limit without a request into the requests. */
function resourceSignature(c: any): unknown {
  const limits = c?.resources?.limits;
  const requests = { ...(limits && typeof limits === 'object' ? limits : {}), ...(c?.resources?.requests ?? {}) };
  return [resourceValues(requests), resourceValues(limits)];
}

/** What the pod takes from the template as it is: container names, images, commands, arguments, resources by value. */
function containerSignature(spec: any): string {
  const part = (list: any) =>
    Array.isArray(list) ? list.map((c: any) => [c?.name, c?.image, c?.command ?? null, c?.args ?? null, resourceSignature(c)]) : [];
  return canonicalJson([part(spec?.initContainers), part(spec?.containers)]);
}

/**
 * Whether a pod runs the given pod template: the same containers and init containers (names, images, commands,
 * arguments, requests and limits by value, in order), and every label and annotation of the template on the pod with
 * the same value. Other fields are not compared: the API server defaults them on the pod (pull policy, termination
 * paths, protocols, field-reference API versions).
 */
export function podMatchesTemplate(pod: any, template: any): boolean {
  if (containerSignature(pod?.spec) !== containerSignature(template?.spec)) return false;
  for (const field of ['labels', 'annotations']) {
    const wanted = template?.metadata?.[field] ?? {};
    const has = pod?.metadata?.[field] ?? {};
    for (const key of Object.keys(wanted)) if (has[key] !== wanted[key]) return false;
  }
  return true;
}

/** The status of a node's `Ready` condition (`True` when the node reports no conditions). */
function nodeReadyStatus(node: any): string {
  const ready = Array.isArray(node?.status?.conditions) ? node.status.conditions.find((c: any) => c?.type === 'Ready') : undefined;
  return typeof ready?.status === 'string' ? ready.status : 'True';
}

function isTerminal(pod: any): boolean {
  const phase = pod?.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

function bareTemplate(ds: any): any {
  return { metadata: { ...(ds?.spec?.template?.metadata ?? {}), namespace: namespaceOf(ds) }, spec: ds?.spec?.template?.spec ?? {} };
}

/** Whether a surge pod fits next to the old pod (its requests and host ports still held). */
function surgeFit(
  ds: any,
  oldTemplate: any,
  node: any,
  nodePods: readonly any[],
  hasOwnPodListed: boolean,
): { reason: string; detail: string } | undefined {
  const existing = [...nodePods];
  if (!hasOwnPodListed) {
    existing.push({
      metadata: { namespace: namespaceOf(ds), name: `${nameOf(ds)}-old` },
      spec: { ...(oldTemplate?.spec ?? {}), nodeName: nameOf(node) },
      status: { phase: 'Running' },
    });
  }
  const verdict = checkPodOnNode(bareTemplate(ds), node, existing);
  const failure = [{ reason: verdict.reason, detail: verdict.detail }, ...verdict.alsoFails].find(
    (f) => f.reason === CoverageReason.HOST_PORT || f.reason === CoverageReason.RESOURCES,
  );
  return failure === undefined
    ? undefined
    : {
        reason: failure.reason,
        detail: failure.detail.replace(new RegExp(`pod ${namespaceOf(ds)}/${nameOf(ds)}-old`, 'g'), 'the old pod'),
      };
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9._/=:@+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** ` -l key=value,…` for the DaemonSet's `matchLabels`, or "" without them. */
function selectorFlag(ds: any): string {
  const labels = ds?.spec?.selector?.matchLabels;
  if (labels == null || typeof labels !== 'object' || Object.keys(labels).length === 0) return '';
  return ` -l ${shellWord(
    Object.entries(labels)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(','),
  )}`;
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function canaryPlan(
  ds: any,
  nodes: readonly any[],
  pods: readonly any[] | undefined,
  waveSize: number,
  notes: string[],
): CanaryPlan | undefined {
  const annotations = { ...(ds?.metadata?.annotations ?? {}), ...(ds?.spec?.template?.metadata?.annotations ?? {}) };
  const stable = annotations[CANARY_OF_ANNOTATION];
  const label = annotations[CANARY_LABEL_ANNOTATION];
  if (typeof stable !== 'string') return undefined;
  const m = typeof label === 'string' ? /^([^=]+)=(.*)$/.exec(label) : null;
  if (m === null) {
    notes.push(`canary of ${stable} without a ${CANARY_LABEL_ANNOTATION}: key=value annotation; no label commands`);
    return undefined;
  }
  const [, key, value] = m;
  const labelled = nodes.filter((n) => n?.metadata?.labels?.[key] === value).map(nameOf);
  const relabelled = nodes.map((n) => ({
    ...n,
    metadata: { ...(n?.metadata ?? {}), labels: { ...(n?.metadata?.labels ?? {}), [key]: value } },
  }));
  const rows = analyzeCoverage([ds], relabelled, pods).workloads[0]?.nodes ?? [];
  const wanted = new Set(rows.filter(isDesired).map((r) => r.node));
  const candidates = nodes.filter((n) => wanted.has(nameOf(n)) && n?.metadata?.labels?.[key] !== value);
  const waves = chunk(candidates, waveSize);
  const commands = waves.map((wave) => {
    const overwrite = wave.some((n) => typeof n?.metadata?.labels?.[key] === 'string') ? ' --overwrite' : '';
    return `kubectl label nodes ${wave.map((n) => shellWord(nameOf(n))).join(' ')} ${shellWord(`${key}=${value}`)}${overwrite}`;
  });
  const everyone = [...labelled, ...candidates.map(nameOf)];
  const rollback = everyone.length === 0 ? '' : `kubectl label nodes ${everyone.map(shellWord).join(' ')} ${shellWord(`${key}-`)}`;
  if (waves.length > 0) {
    notes.push(
      `labelling a node moves it from ${stable} to the canary at once: the stable pod is deleted (the node leaves its selector) ` +
        'outside any maxUnavailable budget, so each wave takes its nodes down together',
    );
  }
  return { stable, label: `${key}=${value}`, labelled, waves: waves.map((w) => w.map(nameOf)), commands, rollback };
}

/** Whether the DaemonSet controller creates the pod on the node (it may still not be placed or not run there). */
function isDesired(row: NodeCoverage): boolean {
  return row.status !== CoverageStatus.EXCLUDED;
}

/** Plans the rollout of one DaemonSet. */
function planOne(
  ds: any,
  oldDs: any | undefined,
  options: PlanOptions,
  nodesByName: Map<string, any>,
  podsByNode: Map<string, any[]>,
): RolloutPlan {
  const notes: string[] = [];
  const pods = options.pods;
  const rows = analyzeCoverage([ds], options.nodes, pods).workloads[0]?.nodes ?? [];
  const desiredRows = rows.filter(isDesired);
  const desired = desiredRows.length;
  const strategy: ResolvedStrategy = resolveStrategy(ds, desired);
  notes.push(...strategy.notes);
  const pullSeconds = options.pullSeconds ?? DEFAULT_PULL_SECONDS;
  const readySeconds = options.readySeconds ?? DEFAULT_READY_SECONDS;
  const canary = canaryPlan(ds, options.nodes, pods, options.canaryWaveSize ?? DEFAULT_CANARY_WAVE_SIZE, notes);
  const base = {
    namespace: namespaceOf(ds),
    name: nameOf(ds),
    strategy: strategy.type,
    desired,
    maxUnavailable: strategy.maxUnavailable,
    maxSurge: strategy.maxSurge,
    minReadySeconds: strategy.minReadySeconds,
    ...(canary ? { canary } : {}),
  };
  const empty = {
    toUpdate: 0,
    unavailableAtStart: [],
    waves: [],
    blockedBy: [],
    neverUpdated: [],
    unfit: [],
    estimatedSeconds: null,
    notes,
  };
  if (strategy.errors.length > 0) {
    return { ...base, ...empty, changes: false, because: strategy.errors.join('; '), outcome: 'invalid' };
  }

  // Which desired nodes run an old pod, a new one, both or none.
  const own = pods !== undefined ? ownPods(ds, pods) : undefined;
  const ownByNode = new Map<string, any[]>();
  for (const p of own ?? []) {
    const node = p?.spec?.nodeName;
    if (typeof node !== 'string' || isTerminal(p)) continue;
    let list = ownByNode.get(node);
    if (!list) ownByNode.set(node, (list = []));
    list.push(p);
  }
  const newTemplate = ds?.spec?.template;
  // A pod runs the new template when it matches it and, with --old, does not match the old one as well (the compared
  // fields cannot tell them apart: the cluster is taken to run the old one). Pods of one controller revision share
  // their template: the first pod of each revision decides for all of them.
  const oldTemplate = oldDs?.spec?.template;
  const judge = (pod: any) => podMatchesTemplate(pod, newTemplate) && !(oldTemplate !== undefined && podMatchesTemplate(pod, oldTemplate));
  const byRevision = new Map<string, boolean>();
  const runsNew = (pod: any): boolean => {
    const hash = pod?.metadata?.labels?.['controller-revision-hash'];
    if (typeof hash !== 'string') return judge(pod);
    let verdict = byRevision.get(hash);
    if (verdict === undefined) byRevision.set(hash, (verdict = judge(pod)));
    return verdict;
  };
  const templateChanged = oldDs !== undefined ? !jsonEqual(oldDs?.spec?.template, newTemplate) : undefined;
  const oldDesired =
    oldDs !== undefined && own === undefined
      ? new Set((analyzeCoverage([oldDs], options.nodes).workloads[0]?.nodes ?? []).filter(isDesired).map((r) => r.node))
      : undefined;
  const surging = strategy.type === 'RollingUpdate' && strategy.maxSurge > 0;
  const unfit: UnfitPod[] = [];
  // The DaemonSet's live pods in --pods on its desired nodes, and those of them that do not run the new template.
  let livePods = 0;
  let stalePods = 0;
  const states: NodeState[] = desiredRows.map((row) => {
    const node = nodesByName.get(row.node);
    const ready = nodeReady(node);
    let hasOld = false;
    let oldAvailable = false;
    let hasNew = false;
    let newAvailable = false;
    let terminating = false;
    let newNotReady = false;
    if (own !== undefined) {
      const live = (ownByNode.get(row.node) ?? []).filter((p) => p?.metadata?.deletionTimestamp == null);
      // Only terminating pods: the controller creates the new pod once they are gone, which never happens on a node
      // whose kubelet does not answer (a Ready node's pods are gone in moments).
      terminating = live.length === 0 && (ownByNode.get(row.node) ?? []).length > 0 && !ready;
      const fresh = live.find((p) => templateChanged !== false && runsNew(p));
      const stale = live.find((p) => p !== fresh);
      livePods += live.length;
      if (templateChanged !== false) stalePods += live.filter((p) => p !== fresh).length;
      if (templateChanged === false) {
        hasNew = live.length > 0;
        newAvailable = hasNew && ready && live.some(podReady);
      } else {
        hasNew = fresh !== undefined;
        newAvailable = hasNew && ready && podReady(fresh);
        newNotReady = hasNew && !newAvailable;
        hasOld = stale !== undefined;
        oldAvailable = hasOld && ready && podReady(stale);
      }
    } else if (templateChanged === true) {
      hasOld = oldDesired!.has(row.node);
      oldAvailable = hasOld && ready;
    } else {
      hasNew = true;
      newAvailable = ready;
    }
    let stuck = '';
    if (!ready) stuck = 'node is NotReady: its new pod never becomes available';
    else if (newNotReady) stuck = 'its new pod is not ready (in --pods)';
    else if (surging && hasOld && !hasNew) {
      const nodePods = podsByNode.get(row.node) ?? [];
      const misfit = surgeFit(ds, oldDs?.spec?.template ?? newTemplate, node, nodePods, (ownByNode.get(row.node) ?? []).length > 0);
      if (misfit) {
        unfit.push({ node: row.node, ...misfit });
        stuck = `the surge pod cannot be placed next to the old one (${misfit.reason}: ${misfit.detail})`;
      }
    } else if (!row.runs) {
      unfit.push({ node: row.node, reason: row.reason, detail: row.detail });
      stuck = `its new pod stays Pending (${row.reason}: ${row.detail})`;
    }
    return { name: row.node, desired: true, hasOld, oldAvailable, hasNew, newAvailable, terminating, stuck };
  });
  // An unreachable node (Ready Unknown) that the DaemonSet no longer wants (its taints are not tolerated) but where its
  // old pod runs: the controller deletes the pod, which then stays Terminating (no kubelet confirms it) and counts as
  // unavailable without surge.
  for (const row of rows) {
    if (isDesired(row) || nodeReadyStatus(nodesByName.get(row.node)) !== 'Unknown') continue;
    const hasPod = own !== undefined ? (ownByNode.get(row.node) ?? []).length > 0 : (oldDesired?.has(row.node) ?? false);
    if (!hasPod) continue;
    states.push({
      name: row.node,
      desired: false,
      hasOld: true,
      oldAvailable: false,
      hasNew: false,
      newAvailable: false,
      terminating: false,
      stuck: 'node is unreachable (Ready Unknown): its deleted old pod stays Terminating',
    });
  }

  const desiredStates = states.filter((s) => s.desired);
  const toUpdate = desiredStates.filter((s) => s.hasOld || (!s.hasNew && !s.terminating)).length;
  const unavailableAtStart = states.filter((s) => (s.hasOld ? !s.oldAvailable : !s.newAvailable)).map((s) => s.name);
  const stale = desiredStates.filter((s) => s.hasOld).length;
  const changes = templateChanged ?? stale > 0;
  const because =
    templateChanged === true
      ? 'the pod template differs from --old'
      : templateChanged === false
        ? 'the pod template is the same as in --old'
        : stale > 0
          ? `${stalePods} of the ${livePods} pods in --pods (on ${desired} desired nodes) do not run the new template (containers, images, commands, arguments, template labels and annotations)`
          : 'every pod in --pods runs the new template';
  if (!changes) return { ...base, ...empty, changes, because, outcome: 'unchanged' };
  if (strategy.type === 'OnDelete') {
    notes.push(
      `OnDelete: the controller creates the new pod on a node only after its old pod is deleted, e.g. node by node: ` +
        `kubectl delete pod -n ${shellWord(namespaceOf(ds))}${selectorFlag(ds)} --field-selector spec.nodeName=NODE`,
    );
    return { ...base, ...empty, toUpdate, unavailableAtStart, unfit, changes, because, outcome: 'manual' };
  }
  if (pods === undefined) notes.push('no --pods: every covered node is assumed to run an available old pod unless the node is NotReady');
  const conflict = surging ? surgeConflict(ds) : undefined;
  if (conflict) {
    notes.push(
      `maxSurge ${conflict.maxSurge} with ${describeSurgeConflict(conflict)}: the new pod cannot run next to the old one on any node; use maxUnavailable (with maxSurge 0)`,
    );
  }
  if (!surging && unfit.some((u) => u.reason === CoverageReason.HOST_PORT || u.reason === CoverageReason.RESOURCES)) {
    notes.push('new pods that stay Pending keep counting as unavailable');
  }
  const sim = surging ? simulateSurge(states, strategy.maxSurge) : simulateUnavailable(states, strategy.maxUnavailable);
  const perWave = pullSeconds + readySeconds + strategy.minReadySeconds;
  const stuckOutcome = sim.blockedBy.length > 0 || sim.neverUpdated.length > 0;
  if (!surging && strategy.maxUnavailable === 1 && desired > 20) {
    notes.push(`maxUnavailable 1 over ${desired} nodes means ${desired} waves; a percentage (e.g. "10%") rolls large clusters faster`);
  }
  return {
    ...base,
    changes,
    because,
    toUpdate,
    unavailableAtStart,
    waves: sim.waves,
    outcome: stuckOutcome ? 'stuck' : 'complete',
    blockedBy: sim.blockedBy,
    neverUpdated: sim.neverUpdated,
    unfit,
    estimatedSeconds: stuckOutcome ? null : sim.waves.length * perWave,
    notes,
  };
}

interface Simulation {
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
function simulateUnavailable(states: NodeState[], maxUnavailable: number): Simulation {
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
function simulateSurge(states: NodeState[], maxSurge: number): Simulation {
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

/**
 * Plans the rollout of every DaemonSet in `newObjects` over `options.nodes`. What "changes" means:
 * - with `options.old`: the pod template differs from the old DaemonSet of the same namespace/name (any field: the
 *   controller hashes the whole template); which pods are already new is read from `options.pods` when given
 *   ({@link podMatchesTemplate}), else every node the old DaemonSet covers runs an old pod;
 * - without `options.old`: some pod of the DaemonSet in `options.pods` does not match the new template
 *   ({@link podMatchesTemplate}).
 */
export function planRollouts(newObjects: readonly InputObject[], options: PlanOptions): PlanReport {
  const nodesByName = new Map<string, any>(options.nodes.map((n) => [nameOf(n), n]));
  const podsByNode = new Map<string, any[]>();
  for (const p of options.pods ?? []) {
    const node = p?.spec?.nodeName;
    if (typeof node !== 'string') continue;
    let list = podsByNode.get(node);
    if (!list) podsByNode.set(node, (list = []));
    list.push(p);
  }
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
    plans.push(planOne(current.object, oldDs, options, nodesByName, podsByNode));
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
function addedPlan(ds: any, options: PlanOptions, why: string): RolloutPlan {
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
