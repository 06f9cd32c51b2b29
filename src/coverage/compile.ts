/**
 * Compiling workloads and nodes once, so that evaluating every workload on every node only compares precomputed
 * values: label lookups by interned key id, taint verdicts memoized per workload, requests summed in scheduler units.
 */

import {
  CompiledAffinity,
  LabelRequirement,
  LabelTable,
  Op,
  compileAffinity,
  compileNodeSelector,
  jsonText,
  labelTable,
  parseRequirement,
  requirement,
} from './selector';
import { labelValueError, qualifiedNameError } from '../k8s/names';
import { HostPort, ResourceVector, addVector, allocatable, emptyVector, isSidecar, podHostPorts, podRequests } from './resources';
import { InternedTaint, Toleration, daemonPodTolerations, internTaint } from './taints';
import { PodPriority, PriorityClasses, SYSTEM_CRITICAL_PRIORITY } from './priority';
import { CoverageOptions } from './types';
import type {
  WireContainer,
  WireDaemonSetSpec,
  WireLabelSelector,
  WireLabelSelectorRequirement,
  WireNode,
  WireNodeSelectorRequirement,
  WireNodeSelectorTerm,
  WireObject,
  WireOwnerReference,
  WirePod,
  WirePodSpec,
  WirePodTemplateSpec,
  WireRuntimeClass,
} from '../k8s/wire';

/** What {@link compileWorkload} reads: a DaemonSet, a PodTemplate (`template`), a pod template or a Pod. */
interface WorkloadObject extends WireObject {
  readonly spec?: WireDaemonSetSpec & WirePodSpec;
  readonly template?: WirePodTemplateSpec;
}

/** The default Kubernetes minor version whose semantics are applied. */
const DEFAULT_KUBERNETES_MINOR = 28;

/** A pod already bound to a node. */
export interface ExistingPod {
  /** Namespace (`default` when absent). */
  readonly namespace: string;
  /** Name. */
  readonly name: string;
  /** Pod labels. */
  readonly labels: Record<string, string> | undefined;
  /** Names of the DaemonSets in `ownerReferences`; `undefined` when the pod has no owner references at all. */
  readonly daemonSetOwners: readonly string[] | undefined;
  /** Requests in scheduler units (after defaulting, with overhead). */
  readonly requests: ResourceVector;
  /** Host ports it binds. */
  readonly ports: readonly HostPort[];
  /** Its priority (`spec.priority`, else from its class; `undefined` when its class is unknown). */
  readonly priority: number | undefined;
}

const priorityTables = new WeakMap<object, PriorityClasses>();
const BUILT_IN_PRIORITIES = new PriorityClasses(undefined);

/** The PriorityClasses of an analysis (one table per options list). */
function priorityClassesOf(options: CoverageOptions | undefined): PriorityClasses {
  const list = options?.priorityClasses;
  if (list === undefined || list.length === 0) return BUILT_IN_PRIORITIES;
  let table = priorityTables.get(list);
  if (table === undefined) priorityTables.set(list, (table = new PriorityClasses(list)));
  return table;
}

/** The operating system label keys, current and deprecated. */
const OS_LABELS = ['kubernetes.io/os', 'beta.kubernetes.io/os'];

/**
 * The operating system a pod is built for: `spec.os.name`; else Windows when it sets Windows security options; else
 * what its nodeSelector names; else `undefined` (any) when its required node affinity reads the OS label; else Linux.
 */
function podOs(spec: WirePodSpec): string | undefined {
  if (typeof spec.os?.name === 'string' && spec.os.name.length > 0) return spec.os.name;
  const windows = (sc: { readonly windowsOptions?: unknown } | undefined) => sc?.windowsOptions != null;
  const all = [
    ...(Array.isArray(spec.containers) ? spec.containers : []),
    ...(Array.isArray(spec.initContainers) ? spec.initContainers : []),
  ];
  if (windows(spec.securityContext) || all.some((c: WireContainer | undefined) => windows(c?.securityContext))) return 'windows';
  const selector = spec.nodeSelector;
  if (selector != null && typeof selector === 'object') {
    for (const key of OS_LABELS) if (typeof selector[key] === 'string') return selector[key];
  }
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (
    Array.isArray(terms) &&
    terms.some(
      (t: WireNodeSelectorTerm | undefined) =>
        Array.isArray(t?.matchExpressions) &&
        t.matchExpressions.some((e: WireNodeSelectorRequirement | undefined) => OS_LABELS.includes(e?.key as string)),
    )
  ) {
    return undefined;
  }
  return 'linux';
}

/** A port binding on a node: which pod (index into `CompiledNode.pods`) holds which IP. */
export interface PortHolder {
  /** Host IP of the binding. */
  readonly ip: string;
  /** Index of the pod in `CompiledNode.pods`. */
  readonly pod: number;
}

/**
 * A DaemonSet (or pod template) prepared for evaluation against many nodes. Build it with {@link compileWorkload}.
 */
export class CompiledWorkload {
  /** `DaemonSet`, or the object's kind (`PodTemplate`, `Pod`…) when a template was given. */
  public readonly kind: string;
  /** Namespace (`default` when absent). */
  public readonly namespace: string;
  /** Name ("" for a bare template). */
  public readonly name: string;
  /** @internal the pod spec the evaluation is based on (the template's `spec`, as given). */
  public readonly podSpec: WirePodSpec;
  /** @internal template `spec.nodeName` ("" when unset). */
  public readonly nodeName: string;
  /** @internal `spec.nodeSelector` as Equals requirements sorted by key. */
  public readonly nodeSelector: readonly LabelRequirement[];
  /** @internal required node affinity (`undefined` = no constraint). */
  public readonly affinity: CompiledAffinity | undefined;
  /** Tolerations of the daemon pod: the template's merged with the controller's automatic ones. */
  public readonly tolerations: readonly Toleration[];
  /** @internal pod requests in scheduler units. */
  public readonly requests: ResourceVector;
  /** @internal host ports the pod binds (after host-network defaulting). */
  public readonly hostPorts: readonly HostPort[];
  /** Things the analysis cannot model or that the API server would treat differently than it looks. */
  public readonly warnings: readonly string[];
  /** @internal memo: taint id → 1 tolerated, 2 not tolerated. */
  public readonly taintVerdicts: number[] = [];
  /** @internal the node label keys the workload's nodeSelector and affinity read. */
  public readonly labelKeys: readonly string[];
  /** @internal whether the verdict can depend on the node's name (template nodeName or affinity matchFields). */
  public readonly readsNodeName: boolean;
  /** @internal scalar request names and values as parallel arrays. */
  public readonly scalarNames: readonly string[];
  /** @internal */
  public readonly scalarValues: readonly number[];
  /** @internal the daemon pod's priority and whether it may preempt. */
  public readonly priority: PodPriority;
  /** @internal whether the kubelet treats the pod as critical (priority ≥ `system-cluster-critical`). */
  public readonly critical: boolean;
  /** @internal the OS the pod is built for (`undefined`: whatever its node affinity selects). */
  public readonly os: string | undefined;
  /** @internal `spec.hostNetwork`. */
  public readonly hostNetwork: boolean;
  private readonly selectsPod: (labels: Record<string, string> | undefined) => boolean;

  /** @internal use {@link compileWorkload}. */
  public constructor(input: unknown, options: CoverageOptions | undefined) {
    const object = input as WorkloadObject | undefined;
    const minor = options?.kubernetesMinor ?? DEFAULT_KUBERNETES_MINOR;
    const isDaemonSet = object?.kind === 'DaemonSet' || (object?.spec?.template != null && object?.kind === undefined);
    const template: WirePodTemplateSpec | undefined = isDaemonSet
      ? object?.spec?.template
      : object?.kind === 'PodTemplate'
        ? object?.template
        : object;
    const meta = isDaemonSet || object?.kind === 'PodTemplate' ? object?.metadata : template?.metadata;
    this.kind = isDaemonSet ? 'DaemonSet' : typeof object?.kind === 'string' ? object.kind : 'PodTemplate';
    this.namespace = typeof meta?.namespace === 'string' && meta.namespace.length > 0 ? meta.namespace : 'default';
    this.name = typeof meta?.name === 'string' ? meta.name : '';
    const spec = template?.spec ?? {};
    this.podSpec = spec;
    const where = isDaemonSet ? 'spec.template.spec' : 'spec';
    const warnings: string[] = [];
    this.nodeName = typeof spec.nodeName === 'string' ? spec.nodeName : '';
    this.nodeSelector = compileNodeSelector(spec.nodeSelector, where, warnings);
    this.affinity = compileAffinity(spec.affinity, where, warnings);
    const keys = new Set(this.nodeSelector.map((r) => r.key));
    for (const term of this.affinity?.terms ?? []) for (const r of term.exprs) keys.add(r.key);
    this.labelKeys = [...keys];
    this.readsNodeName = this.nodeName.length > 0 || (this.affinity?.terms ?? []).some((t) => t.fields.length > 0);
    this.tolerations = daemonPodTolerations(spec);
    const sidecars = minor >= 29;
    this.requests = podRequests(withRuntimeClassOverhead(spec, where, options?.runtimeClasses, warnings), sidecars, where, warnings);
    this.hostPorts = podHostPorts(spec, sidecars && minor >= 33);
    this.scalarNames = this.requests.scalars ? [...this.requests.scalars.keys()] : [];
    this.scalarValues = this.requests.scalars ? [...this.requests.scalars.values()] : [];
    this.priority = priorityClassesOf(options).resolve(spec);
    this.critical = this.priority.value !== undefined && this.priority.value >= SYSTEM_CRITICAL_PRIORITY;
    this.os = podOs(spec);
    this.hostNetwork = spec.hostNetwork === true;
    this.selectsPod = isDaemonSet ? compileLabelSelector(object?.spec?.selector) : () => false;
    workloadWarnings(spec, where, minor, this.tolerations, warnings);
    this.warnings = warnings;
  }

  /**
   * Whether an existing pod is one of this DaemonSet's own pods (it then does not block its own node): a pod
   * with owner references belongs to it when one of them is this DaemonSet (same namespace); a pod without any
   * owner reference (a hand-written pod list) belongs to it when it is in the same namespace and its labels match
   * the DaemonSet's `spec.selector`. A bare template owns no pod.
   */
  public ownsPod(pod: ExistingPod): boolean {
    if (this.kind !== 'DaemonSet' || pod.namespace !== this.namespace) return false;
    if (pod.daemonSetOwners !== undefined) return pod.daemonSetOwners.includes(this.name);
    return this.selectsPod(pod.labels);
  }
}

/**
 * The pod spec as the RuntimeClass admission plugin leaves it: with `runtimeClassName` naming a given RuntimeClass,
 * `spec.overhead` is that class's `overhead.podFixed`. Without the RuntimeClass the overhead is unknown (warned).
 */
function withRuntimeClassOverhead(
  spec: WirePodSpec,
  where: string,
  runtimeClasses: readonly WireRuntimeClass[] | undefined,
  warnings: string[],
): WirePodSpec {
  const name = spec.runtimeClassName;
  if (typeof name !== 'string' || name.length === 0) return spec;
  const runtimeClass = runtimeClasses?.find((rc) => rc?.metadata?.name === name);
  if (runtimeClass === undefined) {
    if (spec.overhead == null) {
      warnings.push(
        `${where}.runtimeClassName is ${name}, but no RuntimeClass ${name} was given: its pod overhead is not counted ` +
          '(pass the RuntimeClass objects along with the manifests)',
      );
    }
    return spec;
  }
  return { ...spec, overhead: runtimeClass.overhead?.podFixed };
}

function workloadWarnings(spec: WirePodSpec, where: string, minor: number, tolerations: readonly Toleration[], warnings: string[]): void {
  for (const t of tolerations) {
    if (t.effect === 'NoExecute' && t.tolerationSeconds != null) {
      warnings.push(
        `${where}.tolerations: ${t.key ? jsonText(t.key) : '<every key>'}:NoExecute has tolerationSeconds ${jsonText(t.tolerationSeconds)}; the pod is placed, ` +
          'evicted when the time is up and recreated by the controller (churn). Remove tolerationSeconds for a daemon pod',
      );
    }
    if (t.operator !== undefined && t.operator !== '' && t.operator !== 'Exists' && t.operator !== 'Equal') {
      warnings.push(
        `${where}.tolerations: operator ${JSON.stringify(t.operator)} of ${t.key ? jsonText(t.key) : '<every key>'} tolerates nothing; use Exists or Equal`,
      );
    }
  }
  const affinity = spec.affinity ?? {};
  if (
    affinity.podAffinity ||
    affinity.podAntiAffinity ||
    (Array.isArray(spec.topologySpreadConstraints) && spec.topologySpreadConstraints.length > 0)
  ) {
    warnings.push(`${where}: pod (anti-)affinity and topology spread constraints are evaluated by the scheduler only and are not modeled`);
  }
  if (spec.resources != null) {
    warnings.push(
      `${where}.resources (pod-level resources, alpha in 1.32, beta in 1.34) is not modeled: requests are summed from the containers`,
    );
  }
  const containers: (WireContainer | undefined)[] = Array.isArray(spec.containers) ? spec.containers : [];
  containers.forEach((c, i) => {
    const resources = c?.resources ?? {};
    if (resources.requests == null && resources.limits == null) {
      warnings.push(
        `${where}.containers[${i}] (${c?.name == null ? 'unnamed' : jsonText(c.name)}) has no resource requests: a LimitRange defaultRequest in the namespace ` +
          'would add some, which the analysis cannot see; set requests explicitly',
      );
    }
  });
  if (minor < 29 && Array.isArray(spec.initContainers)) {
    spec.initContainers.forEach((c: WireContainer | undefined, i: number) => {
      if (isSidecar(c)) {
        warnings.push(
          `${where}.initContainers[${i}] has restartPolicy: Always; Kubernetes 1.${minor} drops the field unless the SidecarContainers ` +
            'feature gate is on, so it counts as a plain init container (set kubernetesMinor >= 29 for sidecar semantics)',
        );
      }
    });
  }
}

/**
 * Compiles a DaemonSet's `spec.selector` (metav1 `LabelSelector`) into a predicate over a pod's labels.
 * An absent, empty or invalid selector selects no pod.
 */
function compileLabelSelector(selector: WireLabelSelector | undefined): (labels: Record<string, string> | undefined) => boolean {
  const matchLabels = selector?.matchLabels && typeof selector.matchLabels === 'object' ? selector.matchLabels : {};
  const exprs: (WireLabelSelectorRequirement | undefined)[] = Array.isArray(selector?.matchExpressions) ? selector.matchExpressions : [];
  const requirements: LabelRequirement[] = [];
  for (const key of Object.keys(matchLabels)) {
    const value = jsonText(matchLabels[key]);
    if (qualifiedNameError(key) || labelValueError(value)) return () => false;
    requirements.push(requirement(key, Op.IN, [value], 0));
  }
  for (let i = 0; i < exprs.length; i++) {
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(exprs[i]?.operator as string)) return () => false;
    const r = parseRequirement(exprs[i], i);
    if (Array.isArray(r)) return () => false;
    requirements.push(r);
  }
  if (requirements.length === 0) return () => false;
  return (labels) => {
    const table = labelTable(labels);
    return requirements.every((r) => r.matches(table));
  };
}

/**
 * Prepares a workload for evaluation: a `DaemonSet`, a `PodTemplate`, or a pod template spec (`{metadata, spec}`).
 * Applies what the controller and the API server would: automatic tolerations, requests from limits, host-network
 * ports, TCP default.
 */
export function compileWorkload(object: unknown, options?: CoverageOptions): CompiledWorkload {
  return new CompiledWorkload(object, options);
}

/**
 * A node prepared for evaluation, with the pods already bound to it. Build it with {@link compileNode}.
 */
export class CompiledNode {
  /** Node name. */
  public readonly name: string;
  /** @internal the node object as given. */
  public readonly node: WireNode;
  /** @internal labels by interned key id. */
  public readonly labels: LabelTable;
  /** @internal taints in `spec.taints` order. */
  public readonly taints: readonly InternedTaint[];
  /** @internal only the `NoSchedule`/`NoExecute` taints, in order. */
  public readonly excludingTaints: readonly InternedTaint[];
  /** @internal allocatable in scheduler units; `undefined` without `status.allocatable` (fit is not checked). */
  public readonly allocatable: ResourceVector | undefined;
  /** @internal allocatable pod slots. */
  public readonly allocatablePods: number;
  /** @internal sum of the requests of the pods already on the node. */
  public readonly requested: ResourceVector;
  /** @internal non-terminated pods bound to the node. */
  public readonly pods: readonly ExistingPod[];
  /** @internal `protocol/port` → bindings, `undefined` when no pod binds a host port. */
  public readonly ports: Map<string, PortHolder[]> | undefined;
  /**
   * Things about the node worth knowing, each starting with `node <name>:` (taints the automatic tolerations do not
   * cover, the legacy master taint, missing or invalid allocatable, invalid quantities of its pods).
   */
  public readonly warnings: readonly string[];
  /** @internal the same without the `node <name>:` prefix. */
  public readonly notes: readonly string[];
  /** @internal status of the `Ready` condition ("" when not reported). */
  public readonly ready: string;
  /** @internal whether a `Ready` of `False` blames the network (the kubelet still starts host-network pods). */
  public readonly networkNotReady: boolean;
  /** @internal whether the `DiskPressure` condition is `True`. */
  public readonly diskPressure: boolean;
  /** @internal the node's operating system (`kubernetes.io/os`, else `status.nodeInfo.operatingSystem`, else linux). */
  public readonly os: string;

  /** @internal use {@link compileNode}. */
  public constructor(node: WireNode, existingPods: readonly WirePod[] | undefined, options: CoverageOptions | undefined) {
    const notes: string[] = [];
    this.node = node;
    this.name = typeof node?.metadata?.name === 'string' ? node.metadata.name : '';
    this.labels = labelTable(node?.metadata?.labels);
    const conditions = nodeConditions(node);
    this.ready = conditions.ready;
    this.networkNotReady = conditions.networkNotReady;
    this.diskPressure = conditions.diskPressure;
    this.os = nodeOs(node);
    const rawTaints = node?.spec?.taints;
    if (Array.isArray(rawTaints) && rawTaints.length > 0) {
      this.taints = rawTaints.map(internTaint);
      this.excludingTaints = this.taints.filter((t) => t.excludes);
      taintNotes(this.excludingTaints, notes);
    } else {
      this.taints = NONE;
      this.excludingTaints = NONE;
    }
    const rawAllocatable = node?.status?.allocatable;
    if (rawAllocatable && typeof rawAllocatable === 'object') {
      const parsed = allocatable(rawAllocatable, 'status.allocatable', notes);
      this.allocatable = parsed.vector;
      this.allocatablePods = parsed.pods;
    } else {
      this.allocatable = undefined;
      this.allocatablePods = 0;
      notes.push('no status.allocatable: resource fit and pod count are not checked there');
    }
    const minor = options?.kubernetesMinor ?? DEFAULT_KUBERNETES_MINOR;
    const pods: ExistingPod[] = [];
    const requested = emptyVector();
    let ports: Map<string, PortHolder[]> | undefined;
    for (const pod of existingPods ?? NONE) {
      if (!isActivePodOn(pod, this.name)) continue;
      const existing = existingPod(pod, minor, notes, options);
      addVector(requested, existing.requests);
      for (const p of existing.ports) {
        ports ??= new Map();
        let holders = ports.get(p.key);
        if (!holders) ports.set(p.key, (holders = []));
        holders.push({ ip: p.ip, pod: pods.length });
      }
      pods.push(existing);
    }
    this.pods = pods.length > 0 ? pods : NONE;
    this.requested = pods.length > 0 ? requested : NOTHING_REQUESTED;
    this.ports = ports;
    this.notes = notes.length > 0 ? notes : NONE;
    this.warnings = notes.map((note) => `node ${this.name || '<unnamed>'}: ${note}`);
  }
}

/** A Ready condition's reason or message that blames the node's network (e.g. `NetworkPluginNotReady`). */
const NETWORK = /network/i;

/**
 * What a node's conditions say: `Ready` status, whether a `Ready` of `False` blames the network (only that case is
 * ever asked about: a host-network pod still lands on such a node), and `DiskPressure`.
 */
export function nodeConditions(node: WireNode | undefined): { ready: string; networkNotReady: boolean; diskPressure: boolean } {
  let ready = '';
  let networkNotReady = false;
  let diskPressure = false;
  const conditions = node?.status?.conditions;
  if (Array.isArray(conditions)) {
    for (const c of conditions) {
      if (c?.type === 'Ready' && typeof c.status === 'string') {
        ready = c.status;
        networkNotReady = ready === 'False' && (NETWORK.test(jsonText(c.reason ?? '')) || NETWORK.test(jsonText(c.message ?? '')));
      } else if (c?.type === 'DiskPressure' && c.status === 'True') {
        diskPressure = true;
      }
    }
  }
  return { ready, networkNotReady, diskPressure };
}

/** A node's operating system: the `kubernetes.io/os` label, else `status.nodeInfo.operatingSystem`, else linux. */
export function nodeOs(node: WireNode | undefined): string {
  const labels = node?.metadata?.labels;
  if (labels != null && typeof labels === 'object') {
    for (const key of OS_LABELS) if (typeof labels[key] === 'string' && labels[key].length > 0) return labels[key];
  }
  const os = node?.status?.nodeInfo?.operatingSystem;
  return typeof os === 'string' && os.length > 0 ? os : 'linux';
}

/** What the node's excluding taints mean for daemon pods that the automatic tolerations do not make obvious. */
function taintNotes(taints: readonly InternedTaint[], notes: string[]): void {
  for (const t of taints) {
    if ((t.key === 'node.kubernetes.io/not-ready' || t.key === 'node.kubernetes.io/unreachable') && t.effect === 'NoSchedule') {
      notes.push(
        `taint ${t.text}: daemon pods tolerate only the NoExecute variant, so no new daemon pod is created there (existing ones are kept)`,
      );
    }
    if (t.key === 'node-role.kubernetes.io/master') {
      notes.push(
        `legacy taint ${t.text} (clusters upgraded from 1.24 or older): tolerate it as well as node-role.kubernetes.io/control-plane`,
      );
    }
  }
}

/** Shared empty list (never mutated). */
const NONE: readonly never[] = Object.freeze([]);
/** Shared zero requests of a node without pods (never mutated). */
const NOTHING_REQUESTED: ResourceVector = Object.freeze(emptyVector());

/** Whether a pod counts on a node: bound to it (`spec.nodeName`) and not terminated (`Succeeded`/`Failed`). */
export function isActivePodOn(pod: WirePod | undefined, nodeName: string): boolean {
  const phase = pod?.status?.phase;
  return pod?.spec?.nodeName === nodeName && nodeName.length > 0 && phase !== 'Succeeded' && phase !== 'Failed';
}

function existingPod(pod: WirePod, minor: number, warnings: string[], options: CoverageOptions | undefined): ExistingPod {
  const meta = pod?.metadata ?? {};
  const namespace = typeof meta.namespace === 'string' && meta.namespace.length > 0 ? meta.namespace : 'default';
  const name = typeof meta.name === 'string' ? meta.name : '';
  const owners: (WireOwnerReference | undefined)[] | undefined =
    Array.isArray(meta.ownerReferences) && meta.ownerReferences.length > 0 ? meta.ownerReferences : undefined;
  const where = `pod ${namespace}/${name} spec`;
  const sidecars = minor >= 29;
  return {
    namespace,
    name,
    labels: meta.labels,
    daemonSetOwners: owners?.filter((o) => o?.kind === 'DaemonSet').map((o) => jsonText(o?.name)),
    requests: podRequests(pod.spec, sidecars, where, warnings),
    ports: podHostPorts(pod.spec, sidecars && minor >= 33),
    priority: priorityClassesOf(options).resolve(pod.spec).value,
  };
}

/**
 * Prepares a node for evaluation. `existingPods` may be every pod of the cluster: only non-terminated pods bound to
 * this node (`spec.nodeName`) count; their requests, host ports and number count against the node.
 */
export function compileNode(node: unknown, existingPods?: readonly unknown[], options?: CoverageOptions): CompiledNode {
  return new CompiledNode(node as WireNode, existingPods as readonly WirePod[] | undefined, options);
}
