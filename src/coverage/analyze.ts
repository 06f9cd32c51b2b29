/**
 * Coverage of many DaemonSets over many nodes: every workload is compiled once, every node once (with the pods
 * bound to it), then nodes that every workload must see alike are grouped and evaluated once per group
 * (`evaluate.ts`). Row objects are shared between workloads when they say the same about the same node, so the
 * report must be treated as read-only (its types say so).
 */

import { CompiledNode, CompiledWorkload, compileNode, compileWorkload, isActivePodOn } from './compile';
import { OwnShare, SharedRows, coverageRows } from './evaluate';
import { addVector, emptyVector } from './resources';
import { CoverageOptions, CoverageReason, CoverageReport, NodeCoverage, WorkloadCoverage } from './types';

interface PodRef {
  readonly node: number;
  readonly pod: number;
}

/** Indexes existing pods by the DaemonSet that owns them (`namespace/name`); pods without owners are listed apart. */
function indexOwners(nodes: readonly CompiledNode[]): { byOwner: Map<string, PodRef[]>; unowned: PodRef[] } {
  const byOwner = new Map<string, PodRef[]>();
  const unowned: PodRef[] = [];
  nodes.forEach((n, node) => {
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
  });
  return { byOwner, unowned };
}

function ownShares(w: CompiledWorkload, nodes: readonly CompiledNode[], owners: ReturnType<typeof indexOwners>): Map<number, OwnShare> {
  const shares = new Map<number, OwnShare>();
  const candidates = [...(owners.byOwner.get(`${w.namespace}/${w.name}`) ?? []), ...owners.unowned];
  for (const ref of candidates) {
    const pod = nodes[ref.node].pods[ref.pod];
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
function podsByNode(pods: readonly any[] | undefined): Map<string, any[]> {
  const byNode = new Map<string, any[]>();
  for (const pod of pods ?? []) {
    const nodeName = pod?.spec?.nodeName;
    if (typeof nodeName !== 'string' || !isActivePodOn(pod, nodeName)) continue;
    let list = byNode.get(nodeName);
    if (!list) byNode.set(nodeName, (list = []));
    list.push(pod);
  }
  return byNode;
}

/**
 * Groups nodes that every given workload must see alike: same values of every label key a workload reads, same
 * excluding taints in the same order, the same name when a workload reads names, and the same allocatable when no
 * pod is bound to them (a node with pods is a group of its own, since its pods and their owners matter). Evaluating
 * one node per group gives the verdict and the words for all of them. Returns the node indexes of each group.
 */
function nodeGroups(nodes: readonly CompiledNode[], workloads: readonly CompiledWorkload[]): Int32Array[] {
  const keyIds = [...new Set(workloads.flatMap((w) => w.labelKeyIds))].sort((a, b) => a - b);
  const byName = workloads.some((w) => w.readsNodeName);
  const groupOf = new Map<string, number>();
  const members: number[][] = [];
  nodes.forEach((n, i) => {
    let key = byName ? `${n.name.length}:${n.name}` : '';
    for (const id of keyIds) {
      const v = n.labels[id];
      key += v === undefined ? '|-' : `|${v.length}:${v}`;
    }
    key += '|';
    for (const t of n.excludingTaints) key += `${t.id},`;
    const a = n.allocatable;
    if (n.pods.length > 0) key += `|#${i}`;
    else if (a === undefined) key += '|?';
    else key += `|${a.cpu},${a.memory},${a.ephemeralStorage},${n.allocatablePods},${a.scalars ? [...a.scalars].join(',') : ''}`;
    let group = groupOf.get(key);
    if (group === undefined) {
      groupOf.set(key, (group = members.length));
      members.push([]);
    }
    members[group].push(i);
  });
  return members.map((m) => Int32Array.from(m));
}

/**
 * Coverage of every DaemonSet in `workloads` (objects of other kinds are skipped and counted) over `nodes`
 * (Node objects, e.g. the items of `kubectl get nodes -o json`). `pods` (e.g. the items of `kubectl get pods -A -o
 * json`) are the pods already running: their requests, host ports and number count against their node, except a
 * DaemonSet's own pods on their own node (see {@link CompiledWorkload.ownsPod}). Each DaemonSet is evaluated on its
 * own: the analysed DaemonSets do not compete with each other for ports or resources unless their pods are in `pods`.
 * RuntimeClass objects among `workloads` supply the pod overhead of DaemonSets naming them (they count as skipped).
 */
export function analyzeCoverage(workloads: readonly any[], nodes: readonly any[], pods?: readonly any[], options?: CoverageOptions): CoverageReport {
  const runtimeClasses = workloads.filter((o) => o?.kind === 'RuntimeClass');
  const compileOptions: CoverageOptions = runtimeClasses.length > 0 ? { ...options, runtimeClasses: [...(options?.runtimeClasses ?? []), ...runtimeClasses] } : { ...options };
  const daemonSets = workloads.filter((o) => o?.kind === 'DaemonSet').map((o) => compileWorkload(o, compileOptions));
  const byNode = podsByNode(pods);
  const compiledNodes = nodes.map((n) => compileNode(n, byNode.get(n?.metadata?.name) ?? [], options));
  const warnings: string[] = [];
  for (const n of compiledNodes) warnings.push(...n.warnings);
  const owners = indexOwners(compiledNodes);
  const groups = nodeGroups(compiledNodes, daemonSets);
  const okRows: NodeCoverage[] = compiledNodes.map((n) => ({ node: n.name, runs: true, reason: CoverageReason.OK, detail: '' }));
  const sharedRows = new SharedRows();
  const results = daemonSets.map((w): WorkloadCoverage => {
    for (const message of w.warnings) warnings.push(`DaemonSet ${w.namespace}/${w.name}: ${message}`);
    const shares = ownShares(w, compiledNodes, owners);
    const { rows, desired, schedulable } = coverageRows(w, compiledNodes, groups, shares, okRows, sharedRows);
    return { kind: 'DaemonSet', namespace: w.namespace, name: w.name, desired, schedulable, nodes: rows };
  });
  return { nodes: compiledNodes.length, workloads: results, skipped: workloads.length - daemonSets.length, warnings };
}
