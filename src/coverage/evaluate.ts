/**
 * Evaluating a compiled workload on a compiled node, in the upstream order: controller stage
 * (`NodeShouldRunDaemonPod`) template nodeName → nodeSelector → required node affinity → taints; scheduler stage
 * (the filters that can fail for a daemon pod) NodePorts → NodeResourcesFit.
 *
 * For many pairs: label matchers are closures compiled per workload, taint verdicts are memoized per workload,
 * explanations are built only for failures and memoized where the words depend on little (a requirement and the
 * node's value of its label, a taint). Nodes that must look alike to every workload are evaluated once per group
 * ({@link coverageRows}), and the rows of a group with the same words are shared between workloads.
 */

import { CompiledNode, CompiledWorkload, compileNode, compileWorkload } from './compile';
import { formatBytes, formatMilliCpu } from './quantity';
import { ResourceVector, addVector, emptyVector } from './resources';
import { LabelRequirement, LabelTable, describeNodeLabel, describeRequirement, fieldMatches, showValue } from './selector';
import { InternedTaint, tolerationsTolerate } from './taints';
import { CoverageFailure, CoverageOptions, CoverageReason, InsufficientResource, NodeCoverage, NodeVerdict, statusOf } from './types';

/** Check outcomes: 0 is success, the others in evaluation order. */
export const enum Check {
  OK = 0,
  NODE_NAME = 1,
  NODE_SELECTOR = 2,
  NODE_AFFINITY = 3,
  TAINT = 4,
  HOST_PORT = 5,
  RESOURCES = 6,
  UNREACHABLE = 7,
  NOT_READY = 8,
  OS = 9,
  DISK_PRESSURE = 10,
}

/** What a DaemonSet's own pods already hold on a node; they do not block the node for their DaemonSet. */
export interface OwnShare {
  /** Number of own pods on the node. */
  count: number;
  /** Their summed requests. */
  readonly requests: ResourceVector;
  /** Their indexes in `CompiledNode.pods`. */
  readonly pods: Set<number>;
}

/** Whether the node's labels satisfy every `spec.nodeSelector` entry. */
function nodeSelectorFits(w: CompiledWorkload, n: CompiledNode): boolean {
  const reqs = w.nodeSelector;
  for (let i = 0; i < reqs.length; i++) if (!reqs[i].matches(n.labels)) return false;
  return true;
}

function tolerates(w: CompiledWorkload, t: InternedTaint): boolean {
  let v = w.taintVerdicts[t.id];
  if (v === undefined) {
    v = tolerationsTolerate(w.tolerations, t) ? 1 : 2;
    w.taintVerdicts[t.id] = v;
  }
  return v === 1;
}

/** The first `NoSchedule`/`NoExecute` taint the workload does not tolerate (`FindMatchingUntoleratedTaint`). */
export function untoleratedTaint(w: CompiledWorkload, n: CompiledNode, noExecuteOnly = false): InternedTaint | undefined {
  const taints = n.excludingTaints;
  for (let i = 0; i < taints.length; i++) {
    const t = taints[i];
    if (noExecuteOnly && !t.noExecute) continue;
    if (!tolerates(w, t)) return t;
  }
  return undefined;
}

/** The controller-stage check that fails first, or `Check.OK`. */
export function controllerCheck(w: CompiledWorkload, n: CompiledNode): Check {
  if (w.nodeName.length > 0 && w.nodeName !== n.name) return Check.NODE_NAME;
  if (!nodeSelectorFits(w, n)) return Check.NODE_SELECTOR;
  if (w.affinity !== undefined && !w.affinity.matches(n.labels, n.name)) return Check.NODE_AFFINITY;
  if (n.excludingTaints.length > 0 && untoleratedTaint(w, n) !== undefined) return Check.TAINT;
  return Check.OK;
}

/**
 * `HostPortInfo.CheckConflict` for two bindings of the same protocol and port: they conflict when either is bound to
 * every address (`0.0.0.0`) or both to the same address.
 */
function bindingsConflict(ip: string, otherIp: string): boolean {
  return ip === '0.0.0.0' || otherIp === '0.0.0.0' || ip === otherIp;
}

/** Every host port the pod wants that a pod on the node (own pods aside) already binds, described; [] when free. */
function hostPortConflicts(w: CompiledWorkload, n: CompiledNode, own: OwnShare | undefined): readonly string[] {
  if (n.ports === undefined || w.hostPorts.length === 0) return NOTHING;
  let out: string[] | undefined;
  for (const want of w.hostPorts) {
    for (const h of n.ports.get(want.key) ?? NOTHING) {
      if (own !== undefined && own.pods.has(h.pod)) continue;
      if (bindingsConflict(want.ip, h.ip)) {
        const pod = n.pods[h.pod];
        (out ??= []).push(
          `${want.protocol} ${want.ip}:${want.port} conflicts with ${h.ip}:${want.port} of pod ${pod.namespace}/${pod.name}`,
        );
        break;
      }
    }
  }
  return out ?? NOTHING;
}

/** Shared empty result (never mutated). */
const NOTHING: readonly never[] = Object.freeze([]);

/** A scalar resource amount (0 when absent). */
function scalarAmount(map: Map<string, number> | undefined, name: string): number {
  if (map === undefined) return 0;
  return map.get(name) ?? 0;
}

/** The scheduler-stage check that fails first, or `Check.OK`. */
function schedulerCheck(w: CompiledWorkload, n: CompiledNode, own: OwnShare | undefined): Check {
  if (w.hostPorts.length > 0 && hostPortConflicts(w, n, own).length > 0) return Check.HOST_PORT;
  if (insufficientResources(w, n, own).length > 0) return Check.RESOURCES;
  return Check.OK;
}

/**
 * The kubelet-stage check that fails first, or `Check.OK`: the pod is bound but does not run. A `Ready: Unknown`
 * node's kubelet never sees the pod; a `Ready: False` kubelet starts no pod (host-network pods still start when the
 * condition blames the pod network, as for a CNI plugin); a pod built for another OS cannot start; under
 * `DiskPressure` the kubelet's eviction manager rejects every pod that is not critical.
 */
function kubeletCheck(w: CompiledWorkload, n: CompiledNode): Check {
  if (n.ready === 'Unknown') return Check.UNREACHABLE;
  if (n.ready === 'False' && !(w.hostNetwork && n.networkNotReady)) return Check.NOT_READY;
  if (w.os !== undefined && w.os !== n.os) return Check.OS;
  if (n.diskPressure && !w.critical) return Check.DISK_PRESSURE;
  return Check.OK;
}

/** The first failing check over all stages (without preemption), or `Check.OK`. */
function firstFailure(w: CompiledWorkload, n: CompiledNode, own: OwnShare | undefined): Check {
  const c = controllerCheck(w, n);
  if (c !== Check.OK) return c;
  const s = schedulerCheck(w, n, own);
  return s !== Check.OK ? s : kubeletCheck(w, n);
}

/** `own` plus the pods at `extra` set aside. */
function setAside(own: OwnShare | undefined, n: CompiledNode, extra: Iterable<number>): OwnShare {
  const share: OwnShare = { count: 0, requests: emptyVector(), pods: new Set() };
  if (own !== undefined) {
    share.count = own.count;
    addVector(share.requests, own.requests);
    for (const i of own.pods) share.pods.add(i);
  }
  for (const i of extra) {
    if (share.pods.has(i)) continue;
    share.pods.add(i);
    share.count++;
    addVector(share.requests, n.pods[i].requests);
  }
  return share;
}

/**
 * Default preemption for a daemon pod bound to one node (`DefaultPreemption.SelectVictimsOnNode`): when the pod may
 * preempt (`preemptionPolicy` is not `Never`) and setting aside every pod of lower priority makes host ports and
 * resources fit, the victims are those pods minus the ones that can be reprieved, trying the highest priority first.
 * Returns the victims' indexes in `n.pods` (input order), or `undefined` when preemption does not help. Pods of equal
 * or higher priority, and pods whose priority is unknown, are never victims. PodDisruptionBudgets are not consulted:
 * the scheduler prefers victims that do not violate one, but preempts them when nothing else helps.
 */
function preemptionVictims(w: CompiledWorkload, n: CompiledNode, own: OwnShare | undefined): number[] | undefined {
  const priority = w.priority.value;
  if (priority === undefined || !w.priority.preempts || n.pods.length === 0) return undefined;
  const candidates: number[] = [];
  for (let i = 0; i < n.pods.length; i++) {
    if (own !== undefined && own.pods.has(i)) continue;
    const p = n.pods[i].priority;
    if (p !== undefined && p < priority) candidates.push(i);
  }
  if (candidates.length === 0 || schedulerCheck(w, n, setAside(own, n, candidates)) !== Check.OK) return undefined;
  const victims = new Set(candidates);
  const reprieveOrder = [...candidates].sort((a, b) => n.pods[b].priority! - n.pods[a].priority! || a - b);
  for (const i of reprieveOrder) {
    victims.delete(i);
    if (schedulerCheck(w, n, setAside(own, n, victims)) !== Check.OK) victims.add(i);
  }
  return candidates.filter((i) => victims.has(i));
}

/** `namespace/name` of the pods at `indexes`. */
function podNames(n: CompiledNode, indexes: readonly number[]): string[] {
  return indexes.map((i) => `${n.pods[i].namespace}/${n.pods[i].name}`);
}

/** The reason reported for each check (a template `nodeName` naming another node is a node-selection failure). */
const CHECK_REASON: readonly CoverageReason[] = [
  CoverageReason.OK,
  CoverageReason.NODE_SELECTOR,
  CoverageReason.NODE_SELECTOR,
  CoverageReason.NODE_AFFINITY,
  CoverageReason.TAINT,
  CoverageReason.HOST_PORT,
  CoverageReason.RESOURCES,
  CoverageReason.UNREACHABLE,
  CoverageReason.NOT_READY,
  CoverageReason.OS,
  CoverageReason.DISK_PRESSURE,
];

/** The share of a node held by the workload's own pods, or `undefined` when it has none there. */
function ownShare(w: CompiledWorkload, n: CompiledNode): OwnShare | undefined {
  let share: OwnShare | undefined;
  for (let i = 0; i < n.pods.length; i++) {
    if (!w.ownsPod(n.pods[i])) continue;
    share ??= { count: 0, requests: emptyVector(), pods: new Set() };
    share.count++;
    addVector(share.requests, n.pods[i].requests);
    share.pods.add(i);
  }
  return share;
}

/** Memoized explanation of a failed requirement, by the node's value of its label. */
function requirementDetail(
  r: LabelRequirement,
  labels: LabelTable,
  build: (r: LabelRequirement, nodeHas: string, term: number) => string,
  term: number,
): string {
  const value = labels[r.keyId];
  const memo = (r.memo ??= new Map());
  let detail = memo.get(value);
  if (detail === undefined) {
    detail = build(r, describeNodeLabel(r.key, value), term);
    memo.set(value, detail);
  }
  return detail;
}

function selectorFailure(r: LabelRequirement, nodeHas: string): string {
  return `needs label ${r.key}=${JSON.stringify(r.values[0])}; ${nodeHas}`;
}

function termFailure(r: LabelRequirement, nodeHas: string, term: number): string {
  return `term ${term}: ${describeRequirement(r)} fails (${nodeHas})`;
}

function explainNodeSelector(w: CompiledWorkload, n: CompiledNode): string {
  for (const r of w.nodeSelector) {
    if (!r.matches(n.labels)) {
      return requirementDetail(r, n.labels, selectorFailure, 0);
    }
  }
  return '';
}

function explainAffinity(w: CompiledWorkload, n: CompiledNode): string {
  const terms = w.affinity!.terms;
  if (terms.length === 0) return 'required node affinity has no nodeSelectorTerms, so it matches no node';
  let out = '';
  for (const t of terms) {
    let part = t.never !== undefined ? `term ${t.index} ${t.never}` : '';
    for (let i = 0; part === '' && i < t.exprs.length; i++) {
      const r = t.exprs[i];
      if (!r.matches(n.labels)) part = requirementDetail(r, n.labels, termFailure, t.index);
    }
    for (let i = 0; part === '' && n.name.length > 0 && i < t.fields.length; i++) {
      const f = t.fields[i];
      if (!fieldMatches(f, n.name))
        part = `term ${t.index}: field ${f.key} ${f.notIn ? 'NotIn' : 'In'} [${showValue(f.value)}] fails (node is ${n.name})`;
    }
    if (part === '') part = `term ${t.index} matches`;
    out = out.length === 0 ? part : `${out}; ${part}`;
  }
  return out;
}

function formatAmount(resource: string, value: number): string {
  if (resource === 'cpu') return formatMilliCpu(value);
  if (resource === 'memory' || resource === 'ephemeral-storage' || resource.startsWith('hugepages-')) return formatBytes(value);
  return String(value);
}

/** Every resource the node lacks for the workload (`fitsRequest`), in upstream order; [] when it fits. */
export function insufficientResources(w: CompiledWorkload, n: CompiledNode, own: OwnShare | undefined): readonly InsufficientResource[] {
  const alloc = n.allocatable;
  if (alloc === undefined) return NOTHING;
  let out: InsufficientResource[] | undefined;
  const used = n.requested;
  const mine = own?.requests;
  const podCount = n.pods.length - (own ? own.count : 0);
  if (podCount + 1 > n.allocatablePods) {
    (out ??= []).push({ resource: 'pods', requested: 1, free: n.allocatablePods - podCount, allocatable: n.allocatablePods });
  }
  const r = w.requests;
  if (r.cpu > 0 && r.cpu > alloc.cpu - used.cpu + (mine ? mine.cpu : 0)) {
    (out ??= []).push({ resource: 'cpu', requested: r.cpu, free: alloc.cpu - used.cpu + (mine ? mine.cpu : 0), allocatable: alloc.cpu });
  }
  if (r.memory > 0 && r.memory > alloc.memory - used.memory + (mine ? mine.memory : 0)) {
    (out ??= []).push({
      resource: 'memory',
      requested: r.memory,
      free: alloc.memory - used.memory + (mine ? mine.memory : 0),
      allocatable: alloc.memory,
    });
  }
  const eph = alloc.ephemeralStorage - used.ephemeralStorage + (mine ? mine.ephemeralStorage : 0);
  if (r.ephemeralStorage > 0 && r.ephemeralStorage > eph) {
    (out ??= []).push({ resource: 'ephemeral-storage', requested: r.ephemeralStorage, free: eph, allocatable: alloc.ephemeralStorage });
  }
  for (let i = 0; i < w.scalarNames.length; i++) {
    const name = w.scalarNames[i];
    const requested = w.scalarValues[i];
    const allocatable = scalarAmount(alloc.scalars, name);
    const free = allocatable - scalarAmount(used.scalars, name) + scalarAmount(mine?.scalars, name);
    if (requested > 0 && requested > free) (out ??= []).push({ resource: name, requested, free, allocatable });
  }
  return out ?? NOTHING;
}

/** `memory: requested 512Mi, free 256Mi of 1Gi allocatable` for each insufficient resource. */
function describeInsufficient(list: readonly InsufficientResource[]): string {
  return list
    .map((x) =>
      x.resource === 'pods'
        ? `pods: ${x.allocatable - x.free} of ${x.allocatable} pod slots in use`
        : `${x.resource}: requested ${formatAmount(x.resource, x.requested)}, free ${formatAmount(x.resource, x.free)} of ` +
          `${formatAmount(x.resource, x.allocatable)} allocatable`,
    )
    .join('; ');
}

/** The detail of a failed check. */
export function explain(check: Check, w: CompiledWorkload, n: CompiledNode, own: OwnShare | undefined): string {
  switch (check) {
    case Check.OK:
      return '';
    case Check.NODE_NAME:
      return `spec.nodeName is ${JSON.stringify(w.nodeName)}, so the pod goes only to that node`;
    case Check.NODE_SELECTOR:
      return explainNodeSelector(w, n);
    case Check.NODE_AFFINITY:
      return explainAffinity(w, n);
    case Check.TAINT:
      return untoleratedTaint(w, n)!.text;
    case Check.HOST_PORT:
      return hostPortConflicts(w, n, own).join('; ');
    case Check.RESOURCES:
      return describeInsufficient(insufficientResources(w, n, own));
    case Check.UNREACHABLE:
      return 'node condition Ready is Unknown (its kubelet stopped reporting): the pod is bound there but never started';
    case Check.NOT_READY:
      return 'node condition Ready is False: its kubelet starts no pod until the node is ready again';
    case Check.OS:
      return w.os === 'linux' && !explicitOs(w)
        ? `node runs ${n.os} and the pod has no OS selector, so its Linux containers cannot start there; add nodeSelector kubernetes.io/os: linux`
        : `node runs ${n.os} and the pod is built for ${w.os}, so it cannot start there; add nodeSelector kubernetes.io/os: ${w.os}`;
    case Check.DISK_PRESSURE:
      return (
        'node condition DiskPressure is True: the kubelet rejects and evicts pods that are not critical; a priority class of ' +
        'system-node-critical (or system-cluster-critical) lets the pod run'
      );
  }
}

/** Whether the workload names its OS (`spec.os.name`). */
function explicitOs(w: CompiledWorkload): boolean {
  return typeof w.podSpec?.os?.name === 'string' && w.podSpec.os.name.length > 0;
}

/**
 * Evaluates a compiled workload on a compiled node with every check (not only the first failing one). The
 * workload's own pods already on the node do not count against it.
 */
export function evaluate(w: CompiledWorkload, n: CompiledNode): NodeVerdict {
  const own = ownShare(w, n);
  const failures: Check[] = [];
  if (w.nodeName.length > 0 && w.nodeName !== n.name) failures.push(Check.NODE_NAME);
  if (!nodeSelectorFits(w, n)) failures.push(Check.NODE_SELECTOR);
  if (w.affinity !== undefined && !w.affinity.matches(n.labels, n.name)) failures.push(Check.NODE_AFFINITY);
  const taint = untoleratedTaint(w, n);
  if (taint !== undefined) failures.push(Check.TAINT);
  if (hostPortConflicts(w, n, own).length > 0) failures.push(Check.HOST_PORT);
  const insufficient = insufficientResources(w, n, own);
  if (insufficient.length > 0) failures.push(Check.RESOURCES);
  const selected = !failures.some((f) => f === Check.NODE_NAME || f === Check.NODE_SELECTOR || f === Check.NODE_AFFINITY);
  const desired = selected && taint === undefined;
  let victims: number[] | undefined;
  if (desired && failures.length > 0) {
    victims = preemptionVictims(w, n, own);
    if (victims !== undefined) failures.length = 0;
  }
  if (n.ready === 'Unknown') failures.push(Check.UNREACHABLE);
  else if (n.ready === 'False' && !(w.hostNetwork && n.networkNotReady)) failures.push(Check.NOT_READY);
  if (w.os !== undefined && w.os !== n.os) failures.push(Check.OS);
  if (n.diskPressure && !w.critical) failures.push(Check.DISK_PRESSURE);

  const all: CoverageFailure[] = failures.map((f) => ({ reason: CHECK_REASON[f], detail: explain(f, w, n, own) }));
  const first = all[0];
  const reason = first ? first.reason : CoverageReason.OK;
  return {
    desired,
    runs: failures.length === 0,
    shouldContinueRunning: selected && untoleratedTaint(w, n, true) === undefined,
    reason,
    detail: first ? first.detail : '',
    alsoFails: all.slice(1),
    ...(taint ? { untoleratedTaint: taint.text } : {}),
    ...(insufficient.length > 0 ? { insufficientResources: [...insufficient] } : {}),
    status: statusOf(reason),
    ...(victims !== undefined ? { preempts: podNames(n, victims) } : {}),
  };
}

/**
 * Checks one pod template (or DaemonSet) against one node — e.g. a synthetic node standing for a node pool:
 * `{metadata: {name, labels}, spec: {taints}, status: {allocatable}}`. Without `status.allocatable` the resource
 * fit is not checked. `existingPods` are pods already on the node.
 */
export function checkPodOnNode(
  template: unknown,
  node: unknown,
  existingPods?: readonly unknown[],
  options?: CoverageOptions,
): NodeVerdict {
  return evaluate(compileWorkload(template, options), compileNode(node, existingPods, options));
}

/** The rows of one workload over every node, with its desired and schedulable counts. */
export interface CoverageRows {
  /** One row per node, in node order. */
  readonly rows: NodeCoverage[];
  /** Nodes where the controller wants a pod. */
  readonly desired: number;
  /** Nodes where the pod runs. */
  readonly schedulable: number;
  /** Nodes where the pod runs only by preempting lower-priority pods, with the pods preempted. */
  readonly preemptions: ReadonlyArray<{ readonly node: string; readonly preempts: readonly string[] }>;
  /** Whether a host port or resources kept the pod off a node with pods while its own priority is unknown. */
  readonly unknownPriorityMatters: boolean;
}

/** Nodes that every workload sees alike: their indexes in the node list, and one of them compiled. */
export interface NodeGroup {
  /** Indexes of the group's nodes in the node list. */
  readonly members: Int32Array;
  /** The first of them, compiled (with its pods, when it has some: such a node is a group of its own). */
  readonly node: CompiledNode;
}

/**
 * Failure rows shared between workloads: for each node group, the rows of its nodes for one (reason, detail), made
 * once and reused by every workload that fails the group with the same words.
 */
export class SharedRows {
  /** Per check, the id of each detail seen with it. */
  private readonly ids: Array<Map<string, number>> = CHECK_REASON.map(() => new Map());
  private idCount = 0;
  private readonly byGroup: Array<Map<number, NodeCoverage[]> | undefined> = [];

  /** The rows of group `group`'s nodes for a failed check with these words. */
  public rows(group: number, members: Int32Array, names: readonly string[], check: Check, detail: string): NodeCoverage[] {
    const ids = this.ids[check];
    let id = ids.get(detail);
    if (id === undefined) ids.set(detail, (id = this.idCount++));
    let cache = this.byGroup[group];
    if (cache === undefined) this.byGroup[group] = cache = new Map();
    let rows = cache.get(id);
    if (rows === undefined) {
      const reason = CHECK_REASON[check];
      rows = new Array(members.length);
      const status = statusOf(reason);
      for (let k = 0; k < members.length; k++) rows[k] = { node: names[members[k]], runs: false, reason, detail, status };
      cache.set(id, rows);
    }
    return rows;
  }
}

/**
 * Evaluates `w` once per node group and fills one row per node (`names` in node order). A node holding pods of the
 * workload is always a group of its own and is evaluated with them set aside (`shares`, by node index). `okRows[i]`
 * is the shared row of node `i` for a pod that runs; `shared` keeps failure rows for the next workloads.
 */
export function coverageRows(
  w: CompiledWorkload,
  groups: readonly NodeGroup[],
  names: readonly string[],
  shares: Map<number, OwnShare>,
  okRows: readonly NodeCoverage[],
  shared: SharedRows,
): CoverageRows {
  // Every node's row starts as its row for a pod that runs (a copy of `okRows`); the groups that fail overwrite theirs.
  const rows: NodeCoverage[] = okRows.slice();
  const anyShares = shares.size > 0;
  let desired = 0;
  let schedulable = 0;
  const preemptions: Array<{ node: string; preempts: string[] }> = [];
  let unknownPriorityMatters = false;
  for (let g = 0; g < groups.length; g++) {
    const { members, node } = groups[g];
    const own = anyShares && members.length === 1 ? shares.get(members[0]) : undefined;
    let check = firstFailure(w, node, own);
    if ((check === Check.HOST_PORT || check === Check.RESOURCES) && node.pods.length > 0) {
      // Only a node with pods bound to it (always a group of its own) has anything to preempt.
      if (w.priority.value === undefined) unknownPriorityMatters = true;
      const victims = preemptionVictims(w, node, own);
      if (victims !== undefined) {
        check = kubeletCheck(w, node);
        const preempts = podNames(node, victims);
        const reason = CHECK_REASON[check];
        const i = members[0];
        rows[i] = {
          node: names[i],
          runs: check === Check.OK,
          reason,
          detail: explain(check, w, node, own),
          status: statusOf(reason),
          preempts,
        };
        desired++;
        if (check === Check.OK) schedulable++;
        preemptions.push({ node: names[i], preempts });
        continue;
      }
    }
    if (check === Check.OK) {
      desired += members.length;
      schedulable += members.length;
      continue;
    }
    if (check >= Check.HOST_PORT) desired += members.length;
    const failed = shared.rows(g, members, names, check, explain(check, w, node, own));
    for (let k = 0; k < members.length; k++) rows[members[k]] = failed[k];
  }
  return { rows, desired, schedulable, preemptions, unknownPriorityMatters };
}
