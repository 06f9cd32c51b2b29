/**
 * The synth-time proof of a service's declared coverage targets, with the DaemonSet controller's semantics: on every
 * node of every pool in `pools`, exactly one DaemonSet of the service is wanted and its pod runs (and fits, when the
 * pool's allocatable is known); on no node of a pool in `excludePools` is any wanted. A pool's nodes are checked as
 * they are, and with the labels of each canary and node-label variant, so every split is proven.
 */

import type { CompiledNode, CompiledWorkload, NodeVerdict } from '../coverage';
import { compileNode, compileWorkload, evaluate } from '../coverage/on-demand';
import { CoverageReason, CoverageStatus, statusOf } from '../coverage/types';
import { ownValue } from '../k8s/json';
import { NodePool } from './node-pool';

/** One DaemonSet of a service, as the coverage proof sees it. @internal */
export interface CoveredDaemonSet {
  /** Its name. */
  readonly what: string;
  /** Its manifest. */
  readonly manifest: any;
  /** Labels a pool's node needs besides the pool's own to run it (canary and node-label values). */
  readonly nodeLabels: { [key: string]: string };
  /** The pool a pool variant is for. */
  readonly pool?: string;
}

/** The DaemonSets of a service, each compiled once and evaluated on every pool's node (as checkPodOnNode would, pair by pair). */
interface Service {
  /** `namespace/name`. */
  readonly name: string;
  readonly all: readonly CoveredDaemonSet[];
  readonly compiled: Map<CoveredDaemonSet, CompiledWorkload>;
}

/** A DaemonSet's verdict on one node. */
interface Verdict {
  readonly d: CoveredDaemonSet;
  readonly verdict: NodeVerdict;
}

/** The coverage errors of a service (`namespace/name`) over its DaemonSets, for the pools it must and must not cover. @internal */
export function coverageErrors(name: string, all: CoveredDaemonSet[], pools: NodePool[], excludePools: NodePool[]): string[] {
  const service: Service = { name, all, compiled: new Map(all.map((d) => [d, compileWorkload(d.manifest)])) };
  const errors: string[] = [];
  for (const pool of pools) {
    for (const labels of scenarios(all, pool)) {
      const error = coveredNodeError(service, pool, labels);
      if (error !== undefined) errors.push(error);
    }
  }
  for (const pool of excludePools) {
    for (const labels of scenarios(all, pool)) errors.push(...excludedNodeErrors(service, pool, labels));
  }
  return errors;
}

/** The label sets a pool's nodes are checked with: none, and those of each DaemonSet that may run there. */
function scenarios(all: readonly CoveredDaemonSet[], pool: NodePool): Array<{ [key: string]: string }> {
  const seen = new Map<string, { [key: string]: string }>();
  for (const d of all) {
    if (d.pool !== undefined && d.pool !== pool.name) continue;
    // A pool's nodes carry its labels: labels that contradict them describe no node of the pool.
    if (
      Object.entries(d.nodeLabels).some(([k, v]) => {
        const poolValue = ownValue(pool.labels, k);
        return poolValue !== undefined && poolValue !== v;
      })
    )
      continue;
    const id = JSON.stringify(d.nodeLabels);
    if (!seen.has(id)) seen.set(id, d.nodeLabels);
  }
  return [...seen.values()];
}

/** ` (nodes labelled k=v, …)`, or nothing for no labels. */
function describe(labels: { [key: string]: string }): string {
  const list = Object.entries(labels).map(([k, v]) => `${k}=${v}`);
  return list.length > 0 ? ` (nodes labelled ${list.join(', ')})` : '';
}

/** The node of `pool` with `labels` added, compiled. */
function nodeOf(pool: NodePool, labels: { [key: string]: string }): CompiledNode {
  return compileNode(withLabels(pool.toNode(), labels));
}

/** The error on a node the service must cover, if any: not exactly one DaemonSet wanted, or its pod would not run. */
function coveredNodeError(service: Service, pool: NodePool, labels: { [key: string]: string }): string | undefined {
  const node = nodeOf(pool, labels);
  const verdicts = service.all.map((d) => ({ d, verdict: evaluate(service.compiled.get(d)!, node) }));
  const wanted = verdicts.filter((v) => v.verdict.desired);
  const where = `node pool "${pool.name}"${describe(labels)}`;
  if (wanted.length > 1) {
    return `coverage: DaemonSets ${wanted.map((w) => w.d.what).join(' and ')} of service ${service.name} would all run on ${where}: each node must run exactly one. Fix: make their node requirements disjoint (variants and canaries are, by construction; check nodeAffinity, nodeSelector and nodeRequirements)`;
  }
  if (wanted.length === 0) return unwantedError(service, pool, labels, verdicts, where);
  const { d, verdict } = wanted[0];
  if (verdict.runs) return undefined;
  const outcome =
    statusOf(verdict.reason) === CoverageStatus.NOT_RUNNING
      ? 'its pod would be placed but the kubelet would not run it'
      : 'its pod would stay Pending';
  return `coverage: DaemonSet ${d.what} is wanted on ${where} but ${outcome}: ${verdict.reason} (${verdict.detail}). Fix: ${coverageFix(verdict.reason)}`;
}

/** The error on a node no DaemonSet of the service wants, blaming the one meant for it. */
function unwantedError(service: Service, pool: NodePool, labels: { [key: string]: string }, verdicts: Verdict[], where: string): string {
  // The DaemonSet meant for these nodes: the one whose pool and labels they are, else the default one.
  const id = JSON.stringify(labels);
  const meant =
    verdicts.find((v) => v.d.pool === pool.name && JSON.stringify(v.d.nodeLabels) === id) ??
    verdicts.find((v) => v.d.pool === undefined && JSON.stringify(v.d.nodeLabels) === id) ??
    verdicts[0];
  const others = verdicts.filter((v) => v !== meant);
  const rest =
    service.all.length > 1 && others.length > 0
      ? `, and no other DaemonSet of service ${service.name} would (${others.map((o) => `${o.d.what}: ${o.verdict.reason}`).join('; ')})`
      : '';
  return `coverage: DaemonSet ${meant.d.what} would not run on ${where}: ${meant.verdict.reason} (${meant.verdict.detail})${rest}. Fix: ${coverageFix(meant.verdict.reason)}`;
}

/** The errors on a node the service must not cover: one for each DaemonSet that would run there. */
function excludedNodeErrors(service: Service, pool: NodePool, labels: { [key: string]: string }): string[] {
  const node = nodeOf(pool, labels);
  return service.all
    .filter((d) => evaluate(service.compiled.get(d)!, node).desired)
    .map(
      (d) =>
        `coverage: DaemonSet ${d.what} would run on node pool "${pool.name}"${describe(labels)}, which it must not cover. Fix: exclude the pool's labels with nodeAffinity (e.g. NodeRequirement.notIn / doesNotExist) or stop tolerating its taints`,
    );
}

/** How to fix each reason a DaemonSet would not run on a node (any other: {@link RESOURCES_FIX}). */
const COVERAGE_FIXES: { readonly [reason: string]: string } = {
  [CoverageReason.NODE_SELECTOR]: "make nodeSelector match the pool's labels, or drop the pool from the coverage targets",
  [CoverageReason.NODE_AFFINITY]:
    "let the required node affinity admit the pool's labels (or omit nodeAffinity to derive it from the pools)",
  [CoverageReason.TAINT]: 'tolerate the taint (add it to the pool so it is derived, or pass a Toleration)',
  [CoverageReason.HOST_PORT]: 'free the host port or use another one',
  [CoverageReason.OS]:
    "build the service for the pool's operating system (spec.os and the kubernetes.io/os node selector), or drop the pool from the coverage targets",
  [CoverageReason.DISK_PRESSURE]:
    "free disk on the pool's nodes, or give the service a node-critical priority class (the kubelet admits critical pods under disk pressure)",
  [CoverageReason.NOT_READY]: "bring the pool's nodes back to Ready (their kubelet does not start pods)",
  [CoverageReason.UNREACHABLE]: "bring the pool's nodes back to Ready (their kubelet does not start pods)",
};

/** How to fix a lack of resources, and any reason without a fix of its own. */
const RESOURCES_FIX = "lower the pod's requests or give the pool larger nodes";

/** How to fix the reason a DaemonSet would not run on a node. */
function coverageFix(reason: string): string {
  return Object.prototype.hasOwnProperty.call(COVERAGE_FIXES, reason) ? COVERAGE_FIXES[reason] : RESOURCES_FIX;
}

/** The node with `labels` added. */
function withLabels(node: any, labels: { [key: string]: string }): any {
  return { ...node, metadata: { ...node.metadata, labels: { ...node.metadata.labels, ...labels } } };
}
