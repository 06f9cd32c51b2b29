/**
 * Coverage of many DaemonSets over many nodes: every workload is compiled once, every node once (with the pods
 * bound to it), then each pair is evaluated on the allocation-free fast path. Nodes where the pod runs share one
 * frozen entry per node across workloads.
 */

import { CompiledNode, CompiledWorkload, compileNode, compileWorkload, isActivePodOn } from './compile';
import { Check, CHECK_REASON, OwnShare, explain, firstFailure } from './evaluate';
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
 * Coverage of every DaemonSet in `workloads` (objects of other kinds are skipped and counted) over `nodes`
 * (Node objects, e.g. the items of `kubectl get nodes -o json`). `pods` (e.g. the items of `kubectl get pods -A -o
 * json`) are the pods already running: their requests, host ports and number count against their node, except a
 * DaemonSet's own pods on their own node (see {@link CompiledWorkload.ownsPod}). Each DaemonSet is evaluated on its
 * own: the analysed DaemonSets do not compete with each other for ports or resources unless their pods are in `pods`.
 */
export function analyzeCoverage(workloads: readonly any[], nodes: readonly any[], pods?: readonly any[], options?: CoverageOptions): CoverageReport {
  const byNode = podsByNode(pods);
  const compiledNodes = nodes.map((n) => compileNode(n, byNode.get(n?.metadata?.name) ?? [], options));
  const warnings: string[] = [];
  for (const n of compiledNodes) warnings.push(...n.warnings);
  const owners = indexOwners(compiledNodes);
  const okEntries: NodeCoverage[] = compiledNodes.map((n) => Object.freeze({ node: n.name, runs: true, reason: CoverageReason.OK, detail: '' }));
  const results: WorkloadCoverage[] = [];
  let skipped = 0;
  for (const object of workloads) {
    if (object?.kind !== 'DaemonSet') {
      skipped++;
      continue;
    }
    const w = compileWorkload(object, options);
    for (const message of w.warnings) warnings.push(`DaemonSet ${w.namespace}/${w.name}: ${message}`);
    const shares = ownShares(w, compiledNodes, owners);
    const entries: NodeCoverage[] = new Array(compiledNodes.length);
    let desired = 0;
    let schedulable = 0;
    for (let i = 0; i < compiledNodes.length; i++) {
      const n = compiledNodes[i];
      const own = shares.size > 0 ? shares.get(i) : undefined;
      const check = firstFailure(w, n, own);
      if (check === Check.OK) {
        desired++;
        schedulable++;
        entries[i] = okEntries[i];
        continue;
      }
      if (check >= Check.HOST_PORT) desired++;
      entries[i] = { node: n.name, runs: false, reason: CHECK_REASON[check], detail: explain(check, w, n, own) };
    }
    results.push({ kind: 'DaemonSet', namespace: w.namespace, name: w.name, desired, schedulable, nodes: entries });
  }
  return { nodes: compiledNodes.length, workloads: results, skipped, warnings };
}
