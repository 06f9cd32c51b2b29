/**
 * Public result types of the coverage analysis.
 */

/**
 * Why a DaemonSet's pod is not on a node, in the order the checks run (the first failing one is the reason).
 * The values are the strings of the CLI's JSON output.
 */
export enum CoverageReason {
  /** The controller wants a pod on the node and the scheduler can place it. */
  OK = 'ok',
  /** `spec.nodeSelector` (or a template `spec.nodeName` naming another node) excludes the node. */
  NODE_SELECTOR = 'nodeSelector',
  /** Required node affinity excludes the node. */
  NODE_AFFINITY = 'nodeAffinity',
  /** The node has a `NoSchedule` or `NoExecute` taint the pod does not tolerate. */
  TAINT = 'taint',
  /** A host port the pod needs is already bound on the node (the pod stays Pending). */
  HOST_PORT = 'hostPort',
  /** The node lacks free allocatable resources or pod slots (the pod stays Pending). */
  RESOURCES = 'resources',
}

/** Which Kubernetes semantics to apply. */
export interface CoverageOptions {
  /**
   * Kubernetes minor version (`1.<minor>`). From 29 on, init containers with `restartPolicy: Always` are sidecars
   * in the request formula; from 33 on, their host ports count too. Before 29 the API server drops the field and
   * they are plain init containers.
   * @default 28
   */
  readonly kubernetesMinor?: number;
  /**
   * RuntimeClass objects (`node.k8s.io/v1`). A pod whose `runtimeClassName` names one of them gets its
   * `overhead.podFixed` as `spec.overhead`, as the RuntimeClass admission plugin does.
   * @default none: `spec.overhead` is used as given
   */
  readonly runtimeClasses?: any[];
}

/** One failed check. */
export interface CoverageFailure {
  /** The check that failed. */
  readonly reason: CoverageReason;
  /** What failed: the label, the taint (`key=value:effect`), the port, or the resources (requested vs free). */
  readonly detail: string;
}

/** A resource the node does not have enough of. */
export interface InsufficientResource {
  /** Resource name (`cpu`, `memory`, `ephemeral-storage`, `pods`, or an extended resource such as `nvidia.com/gpu`). */
  readonly resource: string;
  /** What the pod requests, in scheduler units (milli-CPU, bytes, count). */
  readonly requested: number;
  /** What is left: allocatable minus the requests of the pods already on the node (may be negative). */
  readonly free: number;
  /** The node's allocatable amount. */
  readonly allocatable: number;
}

/** The verdict for one workload on one node, with everything that failed. */
export interface NodeVerdict {
  /** Whether the DaemonSet controller wants a pod on the node (counts towards `desiredNumberScheduled`). */
  readonly desired: boolean;
  /** Whether the pod can also be placed by the scheduler (host ports free, resources fit). */
  readonly runs: boolean;
  /**
   * Whether the controller keeps a daemon pod that is already on the node: false when a selector or affinity
   * excludes the node, or when an untolerated `NoExecute` taint is present; an untolerated `NoSchedule` taint keeps it.
   */
  readonly shouldContinueRunning: boolean;
  /** The first failing check, or `ok`. */
  readonly reason: CoverageReason;
  /** What failed ("" when `ok`). */
  readonly detail: string;
  /** Every other failing check, in evaluation order (without the one in `reason`). */
  readonly alsoFails: CoverageFailure[];
  /** The first untolerated `NoSchedule`/`NoExecute` taint in `spec.taints` order, when any. */
  readonly untoleratedTaint?: string;
  /** Every resource the node lacks (also evaluated when the controller does not want a pod), when any. */
  readonly insufficientResources?: InsufficientResource[];
}

/** One node's line in a workload's coverage (the CLI's JSON `nodes[]` entry). */
export interface NodeCoverage {
  /** Node name. */
  readonly node: string;
  /** Whether the pod runs there (desired and placeable). */
  readonly runs: boolean;
  /** The first failing check, or `ok`. */
  readonly reason: CoverageReason;
  /** What failed ("" when `ok`). */
  readonly detail: string;
}

/** Coverage of one DaemonSet over every node. */
export interface WorkloadCoverage {
  /** Always `DaemonSet`. */
  readonly kind: string;
  /** Namespace (`default` when absent). */
  readonly namespace: string;
  /** Name. */
  readonly name: string;
  /** Number of nodes where the controller wants a pod. */
  readonly desired: number;
  /** Number of nodes where the pod is wanted and can be placed. */
  readonly schedulable: number;
  /** One entry per node, in node input order. */
  readonly nodes: NodeCoverage[];
}

/** The result of {@link analyzeCoverage}. */
export interface CoverageReport {
  /** Number of nodes analysed. */
  readonly nodes: number;
  /** One entry per DaemonSet, in input order. */
  readonly workloads: WorkloadCoverage[];
  /** Number of input objects that are not DaemonSets and were skipped. */
  readonly skipped: number;
  /** Things the analysis cannot see or that need attention, each naming its object and field. */
  readonly warnings: string[];
}

/** One node in a canary split check. */
export interface CanaryNodeCoverage {
  /** Node name. */
  readonly node: string;
  /** Whether the controller wants the base (unsplit) DaemonSet's pod on the node: the node is a target. */
  readonly target: boolean;
  /** How many split templates the controller wants on the node. */
  readonly covered: number;
  /** Indexes (into the split list) of the split templates that cover the node. */
  readonly coveredBy: number[];
}

/** The result of {@link checkCanarySplit}. */
export interface CanarySplitReport {
  /** Whether every target node is covered exactly once and no other node is covered. */
  readonly exact: boolean;
  /** One entry per node, in input order. */
  readonly nodes: CanaryNodeCoverage[];
  /** Target nodes no split covers. */
  readonly uncovered: string[];
  /** Nodes more than one split covers. */
  readonly overlapping: string[];
  /** Non-target nodes some split covers. */
  readonly extra: string[];
}
