/**
 * Public result types of the coverage analysis.
 */

import type { WirePriorityClass, WireRuntimeClass } from '../k8s/wire';

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
  /**
   * The node reports `DiskPressure`: the kubelet rejects (and evicts) every pod that is not critical (priority below
   * `system-cluster-critical`), and the DaemonSet controller recreates it, in a loop.
   */
  DISK_PRESSURE = 'diskPressure',
  /** The node's `Ready` condition is `Unknown` (the kubelet stopped reporting): the pod is bound but never started. */
  UNREACHABLE = 'unreachable',
  /** The node's `Ready` condition is `False`: the kubelet does not start the pod. */
  NOT_READY = 'notReady',
  /** The pod is built for another operating system than the node's (a Linux pod on a Windows node, or the reverse). */
  OS = 'os',
}

/** What happens to a DaemonSet's pod on a node (the CLI's JSON `status`). */
export enum CoverageStatus {
  /** The pod runs there (possibly after preempting lower-priority pods, see `preempts`). */
  RUNNING = 'running',
  /** The DaemonSet controller creates no pod there (nodeSelector, node affinity or an untolerated taint). */
  EXCLUDED = 'excluded',
  /** A pod is created but the scheduler cannot place it (host port or resources); it stays Pending. */
  PENDING = 'pending',
  /** A pod is created and bound, but the kubelet will not run it (node conditions or operating system). */
  NOT_RUNNING = 'notRunning',
}

/** The status a reason stands for. */
export function statusOf(reason: CoverageReason): CoverageStatus {
  switch (reason) {
    case CoverageReason.OK:
      return CoverageStatus.RUNNING;
    case CoverageReason.NODE_SELECTOR:
    case CoverageReason.NODE_AFFINITY:
    case CoverageReason.TAINT:
      return CoverageStatus.EXCLUDED;
    case CoverageReason.HOST_PORT:
    case CoverageReason.RESOURCES:
      return CoverageStatus.PENDING;
    default:
      return CoverageStatus.NOT_RUNNING;
  }
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
  readonly runtimeClasses?: WireRuntimeClass[];
  /**
   * PriorityClass objects (`scheduling.k8s.io/v1`) beyond the built-in `system-node-critical` (2000001000) and
   * `system-cluster-critical` (2000000000): they give pods their priority and `preemptionPolicy`, as the Priority
   * admission plugin does. A class named by a pod but not given leaves its priority unknown (preemption is then
   * not evaluated for it, and a warning says so).
   * @default only the built-in classes
   */
  readonly priorityClasses?: WirePriorityClass[];
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
  /** What happens to the pod there. */
  readonly status: CoverageStatus;
  /**
   * The pods (`namespace/name`) the scheduler would preempt to place the pod, when the node fits only that way.
   * PodDisruptionBudgets do not stop this: the scheduler respects them on a best-effort basis only.
   */
  readonly preempts?: string[];
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
  /** What happens to the pod there: `running`, `excluded`, `pending` or `notRunning`. */
  readonly status: CoverageStatus;
  /** The pods (`namespace/name`) preempted to place the pod, when it runs only that way. */
  readonly preempts?: readonly string[];
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
  /** One entry per node, in node input order (none when {@link WorkloadCoverage.status} is `invalid`). */
  readonly nodes: NodeCoverage[];
  /** `analyzed`, or `invalid` when the API server would reject the DaemonSet (then no node has a verdict). */
  readonly status: WorkloadStatus;
  /** Why the API server would reject it (`rule-id: message`), when `invalid`. */
  readonly findings?: string[];
}

/** Whether a DaemonSet was analysed. */
export enum WorkloadStatus {
  /** Valid for the API server: every node has a verdict. */
  ANALYZED = 'analyzed',
  /**
   * The API server would reject the DaemonSet (an API-validity finding of the rule catalogue, or an extended resource
   * requested without an equal integer limit): no pod would exist anywhere, so no node gets a verdict.
   */
  INVALID = 'invalid',
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
