/**
 * Where a rollout starts: for each node, whether it runs the DaemonSet's old pod, its new one, both or none, whether
 * they are available, and why a new pod there would never become available. Read from the pods when given (`--pods`),
 * else from the coverage of the old DaemonSet (`--old`), else every covered node is taken to run the new pod.
 */

import type { WireDaemonSet, WireNode, WirePod, WirePodTemplateSpec } from '../k8s/wire';
import { analyzeCoverage } from '../coverage/analyze';
import { ResolvedStrategy } from '../coverage/strategy';
import { NodeCoverage } from '../coverage/types';
import { isDesired } from './canary-plan';
import { jsonEqual, nodeReady, podReady } from './objects';
import { UnfitPod } from './plan-types';
import { isTerminal, nodeReadyStatus, ownPods, podMatchesTemplate, surgeFit } from './rollout-pods';
import { NodeState } from './rollout-simulation';
import { PlanOptions } from './plan-types';

/** What a plan reads its DaemonSet's nodes from. */
export interface PlanInput {
  readonly ds: WireDaemonSet;
  readonly oldDs: WireDaemonSet | undefined;
  readonly options: PlanOptions;
  readonly nodesByName: Map<string, WireNode>;
  readonly podsByNode: Map<string, WirePod[]>;
}

/** The state of every node the rollout touches, and what was counted on the way. */
export interface NodeCensus {
  /** The desired nodes in coverage order, then the unreachable undesired nodes an old pod still holds. */
  readonly states: NodeState[];
  /** New pods that cannot be placed on their node. */
  readonly unfit: UnfitPod[];
  /** The DaemonSet's live pods in --pods on its desired nodes. */
  livePods: number;
  /** Those of them that do not run the new template. */
  stalePods: number;
  /** Whether the pod template differs from --old (undefined without --old). */
  readonly templateChanged: boolean | undefined;
}

/** What the per-node reading shares. */
interface Scan {
  readonly input: PlanInput;
  /** The DaemonSet's pods (undefined without --pods). */
  readonly own: WirePod[] | undefined;
  /** Its pods that are not terminal, by node name. */
  readonly ownByNode: Map<string, WirePod[]>;
  readonly runsNew: (pod: WirePod) => boolean;
  /** The nodes the old DaemonSet covers, when read from --old without --pods. */
  readonly oldDesired: Set<string> | undefined;
  readonly surging: boolean;
  readonly census: NodeCensus;
}

/** The pods by the node they are bound to (`spec.nodeName`), skipping those `skip` rejects. */
export function podsByNodeName(pods: readonly WirePod[], skip: (pod: WirePod) => boolean = () => false): Map<string, WirePod[]> {
  const byNode = new Map<string, WirePod[]>();
  for (const p of pods) {
    const node = p?.spec?.nodeName;
    if (typeof node !== 'string' || skip(p)) continue;
    let list = byNode.get(node);
    if (!list) byNode.set(node, (list = []));
    list.push(p);
  }
  return byNode;
}

/**
 * Whether a pod runs the new template: it matches it and, with --old, does not match the old one as well (the
 * compared fields cannot tell them apart: the cluster is taken to run the old one). Pods of one controller revision
 * share their template: the first pod of each revision decides for all of them.
 */
function newTemplateJudge(
  newTemplate: WirePodTemplateSpec | undefined,
  oldTemplate: WirePodTemplateSpec | undefined,
): (pod: WirePod) => boolean {
  const judge = (pod: WirePod) =>
    podMatchesTemplate(pod, newTemplate) && !(oldTemplate !== undefined && podMatchesTemplate(pod, oldTemplate));
  const byRevision = new Map<string, boolean>();
  return (pod: WirePod): boolean => {
    const hash = pod?.metadata?.labels?.['controller-revision-hash'];
    if (typeof hash !== 'string') return judge(pod);
    let verdict = byRevision.get(hash);
    if (verdict === undefined) byRevision.set(hash, (verdict = judge(pod)));
    return verdict;
  };
}

/** The state of every node the rollout of `input.ds` touches (`rows`: its coverage; `strategy`: its resolved budgets). */
export function nodeCensus(input: PlanInput, rows: readonly NodeCoverage[], strategy: ResolvedStrategy): NodeCensus {
  const { ds, oldDs, options } = input;
  const own = options.pods !== undefined ? ownPods(ds, options.pods) : undefined;
  const templateChanged = oldDs !== undefined ? !jsonEqual(oldDs?.spec?.template, ds?.spec?.template) : undefined;
  const scan: Scan = {
    input,
    own,
    ownByNode: podsByNodeName(own ?? [], isTerminal),
    runsNew: newTemplateJudge(ds?.spec?.template, oldDs?.spec?.template),
    oldDesired:
      oldDs !== undefined && own === undefined
        ? new Set((analyzeCoverage([oldDs], options.nodes).workloads[0]?.nodes ?? []).filter(isDesired).map((r) => r.node))
        : undefined,
    surging: strategy.type === 'RollingUpdate' && strategy.maxSurge > 0,
    census: { states: [], unfit: [], livePods: 0, stalePods: 0, templateChanged },
  };
  for (const row of rows.filter(isDesired)) scan.census.states.push(desiredNodeState(scan, row));
  scan.census.states.push(...unreachableStates(scan, rows));
  return scan.census;
}

/** Which pods a desired node runs, and whether they are available. */
interface PodsOnNode {
  hasOld: boolean;
  oldAvailable: boolean;
  hasNew: boolean;
  newAvailable: boolean;
  terminating: boolean;
  newNotReady: boolean;
}

/** The pods on a desired node, read from --pods, else from --old, else taken to be new. */
function podsOnNode(scan: Scan, node: string, ready: boolean): PodsOnNode {
  const pods: PodsOnNode = {
    hasOld: false,
    oldAvailable: false,
    hasNew: false,
    newAvailable: false,
    terminating: false,
    newNotReady: false,
  };
  const { templateChanged } = scan.census;
  if (scan.own !== undefined) {
    const live = (scan.ownByNode.get(node) ?? []).filter((p) => p?.metadata?.deletionTimestamp == null);
    // Only terminating pods: the controller creates the new pod once they are gone, which never happens on a node
    // whose kubelet does not answer (a Ready node's pods are gone in moments).
    pods.terminating = live.length === 0 && (scan.ownByNode.get(node) ?? []).length > 0 && !ready;
    const fresh = live.find((p) => templateChanged !== false && scan.runsNew(p));
    const stale = live.find((p) => p !== fresh);
    scan.census.livePods += live.length;
    if (templateChanged !== false) scan.census.stalePods += live.filter((p) => p !== fresh).length;
    if (templateChanged === false) {
      pods.hasNew = live.length > 0;
      pods.newAvailable = pods.hasNew && ready && live.some(podReady);
    } else {
      pods.hasNew = fresh !== undefined;
      pods.newAvailable = pods.hasNew && ready && podReady(fresh);
      pods.newNotReady = pods.hasNew && !pods.newAvailable;
      pods.hasOld = stale !== undefined;
      pods.oldAvailable = pods.hasOld && ready && podReady(stale);
    }
  } else if (templateChanged === true) {
    pods.hasOld = scan.oldDesired!.has(node);
    pods.oldAvailable = pods.hasOld && ready;
  } else {
    pods.hasNew = true;
    pods.newAvailable = ready;
  }
  return pods;
}

/** Why the new pod on a desired node will never become available ("" when it will); records the pods that do not fit. */
function stuckReason(scan: Scan, row: NodeCoverage, node: WireNode | undefined, ready: boolean, pods: PodsOnNode): string {
  const { ds, oldDs } = scan.input;
  if (!ready) return 'node is NotReady: its new pod never becomes available';
  if (pods.newNotReady) return 'its new pod is not ready (in --pods)';
  if (scan.surging && pods.hasOld && !pods.hasNew) {
    const nodePods = scan.input.podsByNode.get(row.node) ?? [];
    const oldTemplate = oldDs?.spec?.template ?? ds?.spec?.template;
    const misfit = surgeFit(ds, oldTemplate, node, nodePods, (scan.ownByNode.get(row.node) ?? []).length > 0);
    if (!misfit) return '';
    scan.census.unfit.push({ node: row.node, ...misfit });
    return `the surge pod cannot be placed next to the old one (${misfit.reason}: ${misfit.detail})`;
  }
  if (!row.runs) {
    scan.census.unfit.push({ node: row.node, reason: row.reason, detail: row.detail });
    return `its new pod stays Pending (${row.reason}: ${row.detail})`;
  }
  return '';
}

/** The state of a node where the controller wants the pod. */
function desiredNodeState(scan: Scan, row: NodeCoverage): NodeState {
  const node = scan.input.nodesByName.get(row.node);
  const ready = nodeReady(node);
  const pods = podsOnNode(scan, row.node, ready);
  const stuck = stuckReason(scan, row, node, ready, pods);
  const { hasOld, oldAvailable, hasNew, newAvailable, terminating } = pods;
  return { name: row.node, desired: true, hasOld, oldAvailable, hasNew, newAvailable, terminating, stuck };
}

/**
 * An unreachable node (Ready Unknown) that the DaemonSet no longer wants (its taints are not tolerated) but where its
 * old pod runs: the controller deletes the pod, which then stays Terminating (no kubelet confirms it) and counts as
 * unavailable without surge.
 */
function unreachableStates(scan: Scan, rows: readonly NodeCoverage[]): NodeState[] {
  const out: NodeState[] = [];
  for (const row of rows) {
    if (isDesired(row) || nodeReadyStatus(scan.input.nodesByName.get(row.node)) !== 'Unknown') continue;
    const hasPod = scan.own !== undefined ? (scan.ownByNode.get(row.node) ?? []).length > 0 : (scan.oldDesired?.has(row.node) ?? false);
    if (!hasPod) continue;
    out.push({
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
  return out;
}
