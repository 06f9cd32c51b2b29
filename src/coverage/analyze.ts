/**
 * Coverage of many DaemonSets over many nodes. Every workload is compiled once. Nodes are grouped by what any of the
 * workloads can read of them (read straight from the Node objects), and only one node per group is compiled and
 * evaluated (`evaluate.ts`); the verdict and the words hold for the whole group. Row objects are shared between
 * workloads when they say the same about the same node, so the report must be treated as read-only (its types say so).
 */

import { CompiledNode, CompiledWorkload, compileNode, compileWorkload, isActivePodOn, nodeConditions, nodeOs } from './compile';
import { NodeGroup, OwnShare, SharedRows, coverageRows } from './evaluate';
import { ResourceVector, addVector, emptyVector } from './resources';
import { jsonText, labelValue } from './selector';
import { CoverageOptions, CoverageReason, CoverageReport, CoverageStatus, NodeCoverage, WorkloadCoverage, WorkloadStatus } from './types';
import { apiRejections } from './validity';
import type { WireNode, WireObject, WirePod, WirePriorityClass, WireRuntimeClass } from '../k8s/wire';

interface PodRef {
  readonly node: number;
  readonly pod: number;
}

/** Indexes existing pods by the DaemonSet that owns them (`namespace/name`); pods without owners are listed apart. */
function indexOwners(withPods: ReadonlyMap<number, CompiledNode>): { byOwner: Map<string, PodRef[]>; unowned: PodRef[] } {
  const byOwner = new Map<string, PodRef[]>();
  const unowned: PodRef[] = [];
  for (const [node, n] of withPods) {
    n.pods.forEach((p, pod) => {
      if (p.daemonSetOwners === undefined) {
        unowned.push({ node, pod });
        return;
      }
      for (const owner of p.daemonSetOwners) {
        const key = `${p.namespace}/${owner}`;
        let refs = byOwner.get(key);
        if (!refs) byOwner.set(key, (refs = []));
        refs.push({ node, pod });
      }
    });
  }
  return { byOwner, unowned };
}

/** The workload's own pods per node index (see {@link CompiledWorkload.ownsPod}). */
function ownShares(
  w: CompiledWorkload,
  withPods: ReadonlyMap<number, CompiledNode>,
  owners: ReturnType<typeof indexOwners>,
): Map<number, OwnShare> {
  const shares = new Map<number, OwnShare>();
  const candidates = (owners.byOwner.get(`${w.namespace}/${w.name}`) ?? []).concat(owners.unowned);
  for (const ref of candidates) {
    const pod = withPods.get(ref.node)!.pods[ref.pod];
    if (!w.ownsPod(pod)) continue;
    let share = shares.get(ref.node);
    if (!share) shares.set(ref.node, (share = { count: 0, requests: emptyVector(), pods: new Set() }));
    if (share.pods.has(ref.pod)) continue;
    share.count++;
    addVector(share.requests, pod.requests);
    share.pods.add(ref.pod);
  }
  return shares;
}

/** Groups pods by `spec.nodeName`, dropping unbound and terminated ones. */
function podsByNode(pods: readonly WirePod[] | undefined): Map<string, WirePod[]> {
  const byNode = new Map<string, WirePod[]>();
  for (const pod of pods ?? []) {
    const nodeName = pod?.spec?.nodeName;
    if (typeof nodeName !== 'string' || !isActivePodOn(pod, nodeName)) continue;
    let list = byNode.get(nodeName);
    if (!list) byNode.set(nodeName, (list = []));
    list.push(pod);
  }
  return byNode;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : value == null ? '' : jsonText(value);
}

/**
 * What any of the workloads can read of a node, as a string: the values of the label keys they read, the name when
 * one of them reads names, the `NoSchedule`/`NoExecute` taints in order, and the allocatable entries as written.
 * Nodes with the same key get the same verdict and the same words from every workload. (Built as parts joined once:
 * a flat string hashes fast, a long chain of concatenations must be flattened first.)
 */
function groupKey(node: WireNode, labelKeys: readonly string[], byName: boolean): string {
  const parts: string[] = [];
  if (byName) {
    const name = text(node?.metadata?.name);
    parts.push(`${name.length}:${name}`);
  }
  const labels = node?.metadata?.labels;
  const hasLabels = labels != null && typeof labels === 'object';
  for (const k of labelKeys) {
    if (!hasLabels || !Object.prototype.hasOwnProperty.call(labels, k)) {
      parts.push('|-');
      continue;
    }
    const raw = labels[k];
    const v = typeof raw === 'string' ? raw : labelValue(raw);
    parts.push(`|${v.length}:${v}`);
  }
  parts.push('|');
  const taints = node?.spec?.taints;
  if (Array.isArray(taints)) {
    for (const t of taints) {
      const effect = text(t?.effect);
      if (effect !== 'NoSchedule' && effect !== 'NoExecute') continue;
      const k = text(t?.key);
      const v = text(t?.value);
      parts.push(`${k.length}:${k}${v.length}:${v}${effect},`);
    }
  }
  const conditions = nodeConditions(node);
  parts.push(`|${conditions.ready}${conditions.networkNotReady ? 'n' : ''}${conditions.diskPressure ? 'd' : ''}|${nodeOs(node)}`);
  const allocatable = node?.status?.allocatable;
  if (allocatable == null || typeof allocatable !== 'object') {
    parts.push('|?');
    return parts.join('');
  }
  parts.push('|');
  for (const name of Object.keys(allocatable)) {
    const v = allocatable[name];
    parts.push(`${name}=${typeof v === 'string' ? v : `(${typeof v})${JSON.stringify(v)}`};`);
  }
  return parts.join('');
}

/**
 * Groups the nodes. A node with pods bound to it is a group of its own (its pods and their owners matter); the others
 * share a group with every node of the same {@link groupKey}. Only one node per group is compiled.
 */
function groupNodes(
  nodes: readonly WireNode[],
  pods: ReadonlyMap<string, WirePod[]>,
  workloads: readonly CompiledWorkload[],
  options: CoverageOptions,
): { groups: NodeGroup[]; withPods: Map<number, CompiledNode> } {
  const labelKeys = [...new Set(workloads.flatMap((w) => w.labelKeys))].sort();
  const byName = workloads.some((w) => w.readsNodeName);
  const groupOf = new Map<string, number>();
  const members: number[][] = [];
  const representatives: CompiledNode[] = [];
  const withPods = new Map<number, CompiledNode>();
  nodes.forEach((node, i) => {
    const bound = pods.size > 0 ? pods.get(text(node?.metadata?.name)) : undefined;
    if (bound !== undefined) {
      const compiled = compileNode(node, bound, options);
      withPods.set(i, compiled);
      members.push([i]);
      representatives.push(compiled);
      return;
    }
    const key = groupKey(node, labelKeys, byName);
    let group = groupOf.get(key);
    if (group === undefined) {
      groupOf.set(key, (group = members.length));
      members.push([]);
      representatives.push(compileNode(node, undefined, options));
    }
    members[group].push(i);
  });
  const groups = members.map((m, g) => ({ members: Int32Array.from(m), node: representatives[g] }));
  return { groups, withPods };
}

/** One warning per note of a group's node, naming the group's nodes. */
function groupWarnings(groups: readonly NodeGroup[], names: readonly string[], warnings: string[]): void {
  for (const g of groups) {
    if (g.node.notes.length === 0) continue;
    const shown = [...g.members.subarray(0, 3)].map((i) => names[i] || '<unnamed>');
    const who =
      g.members.length === 1
        ? `node ${shown[0]}`
        : `${g.members.length} nodes (${shown.join(', ')}${g.members.length > shown.length ? ', …' : ''})`;
    for (const note of g.node.notes) warnings.push(`${who}: ${note}`);
  }
}

/**
 * Coverage of every DaemonSet in `workloads` (objects of other kinds are skipped and counted) over `nodes`
 * (Node objects, e.g. the items of `kubectl get nodes -o json`). `pods` (e.g. the items of `kubectl get pods -A -o
 * json`) are the pods already running: their requests, host ports and number count against their node, except a
 * DaemonSet's own pods on their own node (see {@link CompiledWorkload.ownsPod}); the scheduler may preempt those of
 * lower priority. Each DaemonSet is evaluated on its own: the analysed DaemonSets do not compete with each other for
 * ports or resources unless their pods are in `pods`. RuntimeClass and PriorityClass objects among `workloads` supply
 * the pod overhead and the priority of the pods naming them (they count as skipped). A DaemonSet the API server would
 * reject gets the status `invalid`, its findings and no node verdicts.
 */
export function analyzeCoverage(
  inputs: readonly unknown[],
  nodeInputs: readonly unknown[],
  podInputs?: readonly unknown[],
  options?: CoverageOptions,
): CoverageReport {
  // Typed as read: every field is still checked where it is used.
  const workloads = inputs as readonly (WireObject | undefined)[];
  const nodes = nodeInputs as readonly WireNode[];
  const pods = podInputs as readonly WirePod[] | undefined;
  const runtimeClasses = workloads.filter((o) => o?.kind === 'RuntimeClass') as WireRuntimeClass[];
  const priorityClasses = workloads.filter((o) => o?.kind === 'PriorityClass') as WirePriorityClass[];
  const compileOptions: CoverageOptions = {
    ...options,
    ...(runtimeClasses.length > 0 ? { runtimeClasses: (options?.runtimeClasses ?? []).concat(runtimeClasses) } : {}),
    ...(priorityClasses.length > 0 ? { priorityClasses: (options?.priorityClasses ?? []).concat(priorityClasses) } : {}),
  };
  const rejections = apiRejections(workloads, options?.kubernetesMinor);
  const entries = workloads.flatMap((o, i) => (o?.kind === 'DaemonSet' ? [{ object: o, rejected: rejections[i] }] : []));
  const daemonSets = entries.filter((e) => e.rejected.length === 0).map((e) => compileWorkload(e.object, compileOptions));
  const { groups, withPods } = groupNodes(nodes, podsByNode(pods), daemonSets, compileOptions);
  const names = nodes.map((n) => text(n?.metadata?.name));
  const warnings: string[] = [];
  groupWarnings(groups, names, warnings);
  const owners = indexOwners(withPods);
  const okRows: NodeCoverage[] = names.map((node) => ({
    node,
    runs: true,
    reason: CoverageReason.OK,
    detail: '',
    status: CoverageStatus.RUNNING,
  }));
  const sharedRows = new SharedRows();
  let next = 0;
  const results = entries.map((e): WorkloadCoverage => {
    if (e.rejected.length > 0) {
      const meta = e.object?.metadata;
      const namespace = typeof meta?.namespace === 'string' && meta.namespace.length > 0 ? meta.namespace : 'default';
      const name = typeof meta?.name === 'string' ? meta.name : '';
      for (const f of e.rejected) warnings.push(`DaemonSet ${namespace}/${name}: the API server rejects it (${f}); it is not analysed`);
      return {
        kind: 'DaemonSet',
        namespace,
        name,
        desired: 0,
        schedulable: 0,
        nodes: [],
        status: WorkloadStatus.INVALID,
        findings: e.rejected,
      };
    }
    const w = daemonSets[next++];
    for (const message of w.warnings) warnings.push(`DaemonSet ${w.namespace}/${w.name}: ${message}`);
    const shares = ownShares(w, withPods, owners);
    const { rows, desired, schedulable, preemptions, unknownPriorityMatters } = coverageRows(w, groups, names, shares, okRows, sharedRows);
    preemptionWarnings(w, preemptions, unknownPriorityMatters, warnings);
    return { kind: 'DaemonSet', namespace: w.namespace, name: w.name, desired, schedulable, nodes: rows, status: WorkloadStatus.ANALYZED };
  });
  const report: CoverageReport = { nodes: nodes.length, workloads: results, skipped: workloads.length - entries.length, warnings };
  layouts.set(report, groupLayout(groups, nodes.length));
  if (options?.runtimeClasses === undefined) {
    compiled.set(report, { inputs, minor: options?.kubernetesMinor, requests: daemonSets.map((w) => w.requests) });
  }
  return report;
}

/**
 * The pod requests of a report's analysed DaemonSets (its workloads that are not `invalid`, in order), as
 * {@link analyzeCoverage} compiled them, kept for a report made with no `runtimeClasses` option: the workloads' own
 * RuntimeClass objects then decide the pod overhead, so the requests depend on the inputs and the minor only.
 */
const compiled = new WeakMap<
  CoverageReport,
  { readonly inputs: readonly unknown[]; readonly minor?: number; readonly requests: readonly ResourceVector[] }
>();

/**
 * The pod requests of the analysed (not `invalid`) DaemonSets of `report`, in order, when {@link analyzeCoverage} made
 * it from exactly `inputs` (the same array) for Kubernetes `1.<minor>` with no `runtimeClasses` option; else
 * `undefined` (compile them again). The vectors are the analysis' own: read them, do not change them.
 */
export function analysedRequests(
  report: CoverageReport,
  inputs: readonly unknown[],
  minor: number | undefined,
): readonly ResourceVector[] | undefined {
  const known = compiled.get(report);
  return known !== undefined && known.inputs === inputs && known.minor === minor ? known.requests : undefined;
}

/**
 * Which nodes of a report were evaluated as one group. For every workload, the rows of one group's nodes say the same
 * (`runs`, `reason`, `detail`, `status`, `preempts`; only `node` differs), so a writer can decide once per group and
 * then walk the nodes in order. Groups are numbered in the order of their first node.
 */
export interface NodeLayout {
  /** The group of each node, in node order. */
  readonly groupOf: Int32Array;
  /** The first (lowest) node index of each group; ascending. */
  readonly first: Int32Array;
  /** The number of nodes of each group. */
  readonly size: Int32Array;
  /** The nodes of each group, ascending: those of group `g` are `members[start[g]]` to `members[start[g + 1] - 1]`. */
  readonly members: Int32Array;
  /** Where each group's nodes start in {@link NodeLayout.members} (one more entry than there are groups). */
  readonly start: Int32Array;
}

/** The layouts of the reports {@link analyzeCoverage} made (a report is read-only, so its layout stays true). */
const layouts = new WeakMap<CoverageReport, NodeLayout>();

function groupLayout(groups: readonly NodeGroup[], nodes: number): NodeLayout {
  const groupOf = new Int32Array(nodes);
  const first = new Int32Array(groups.length);
  const size = new Int32Array(groups.length);
  const members = new Int32Array(nodes);
  const start = new Int32Array(groups.length + 1);
  let at = 0;
  for (let g = 0; g < groups.length; g++) {
    const m = groups[g].members;
    first[g] = m[0];
    size[g] = m.length;
    start[g] = at;
    members.set(m, at);
    at += m.length;
    for (let k = 0; k < m.length; k++) groupOf[m[k]] = g;
  }
  start[groups.length] = at;
  return { groupOf, first, size, members, start };
}

/**
 * The node groups of `report`: as {@link analyzeCoverage} evaluated them, or one group per node for a report made
 * otherwise (e.g. a copy).
 */
export function nodeLayout(report: CoverageReport): NodeLayout {
  const known = layouts.get(report);
  if (known !== undefined) return known;
  const identity = new Int32Array(report.nodes + 1);
  for (let i = 0; i < identity.length; i++) identity[i] = i;
  const nodes = identity.subarray(0, report.nodes);
  return { groupOf: nodes, first: nodes, size: new Int32Array(report.nodes).fill(1), members: nodes, start: identity };
}

/** The preemption warnings of one workload: only where preemption changes an answer (or could, unseen). */
function preemptionWarnings(
  w: CompiledWorkload,
  preemptions: ReadonlyArray<{ readonly node: string; readonly preempts: readonly string[] }>,
  unknownPriorityMatters: boolean,
  warnings: string[],
): void {
  const who = `DaemonSet ${w.namespace}/${w.name}`;
  if (preemptions.length > 0) {
    const first = preemptions[0];
    const more = preemptions.length > 1 ? ` and ${preemptions.length - 1} more node${preemptions.length === 2 ? '' : 's'}` : '';
    warnings.push(
      `${who}: placed only by preempting lower-priority pods on ${preemptions.length} node${preemptions.length === 1 ? '' : 's'} ` +
        `(node ${first.node}: ${first.preempts.join(', ')}${more}); PodDisruptionBudgets do not stop this preemption`,
    );
  }
  if (unknownPriorityMatters) {
    warnings.push(
      `${who}: spec.template.spec.priorityClassName ${JSON.stringify(w.priority.className)} is not a given PriorityClass, so whether ` +
        'the scheduler would preempt pods to place it is not evaluated; pass the PriorityClass objects with the manifests',
    );
  }
}
