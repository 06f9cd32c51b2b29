/**
 * Offline DaemonSet coverage: which nodes get a DaemonSet's pod, and why the others do not.
 *
 * A pure mirror of the Kubernetes 1.28 DaemonSet controller (`NodeShouldRunDaemonPod`: template nodeName,
 * nodeSelector, required node affinity, taints vs the pod's tolerations including the ones the controller adds)
 * and of the scheduler filters that can keep a daemon pod Pending (NodePorts, NodeResourcesFit). It works on plain
 * Kubernetes objects and imports neither cdk8s nor cdk8s-plus.
 *
 * Applied as the API server and admission would: the automatic tolerations (with their merge rule), requests taken
 * from limits, host-network host ports, protocol TCP, RuntimeClass overhead (when the RuntimeClass objects are given).
 * Kubernetes 1.28 semantics by default; {@link CoverageOptions.kubernetesMinor} switches on sidecar semantics (1.29+)
 * and sidecar host ports (1.33+).
 *
 * Then the kubelet stage: a pod bound to an unreachable or not-ready node, to a node of another operating system, or
 * (not critical) to a node under `DiskPressure` does not run. Default preemption of lower-priority pods on the one node
 * a daemon pod is bound to is modeled (`preempts`).
 *
 * Not modeled: pod (anti-)affinity and topology spread and volume filters (scheduler only), LimitRange
 * defaults, pod-level `spec.resources`, the scheduler's `ignoredResources` config. Warnings say so where they apply.
 *
 * Entry points:
 * - {@link analyzeCoverage}: many DaemonSets × many nodes (+ existing pods) → per-node verdicts (the CLI's report).
 * - {@link checkPodOnNode}: one template × one node → a full verdict with every failed check (synth-time checks of
 *   declared node-pool coverage, with node pools given as synthetic Node objects).
 * - {@link checkCanarySplit}: a base template and its split templates × nodes → whether the split is exact.
 * - {@link compileWorkload} / {@link compileNode} / {@link evaluate}: the same evaluation with compilation done once,
 *   for callers that evaluate many pairs (property tests, benchmarks).
 */

export { CoverageReason, CoverageStatus, WorkloadStatus, statusOf } from './types';
export type {
  CoverageOptions,
  CoverageFailure,
  InsufficientResource,
  NodeVerdict,
  NodeCoverage,
  WorkloadCoverage,
  CoverageReport,
  CanaryNodeCoverage,
  CanarySplitReport,
} from './types';
export { CompiledWorkload, CompiledNode, compileWorkload, compileNode } from './compile';
export { evaluate, checkPodOnNode } from './evaluate';
export { analyzeCoverage } from './analyze';
export { checkCanarySplit } from './canary';
export { AUTOMATIC_TOLERATIONS, HOST_NETWORK_TOLERATION, daemonPodTolerations, formatTaint } from './taints';
export type { Toleration, Taint } from './taints';
