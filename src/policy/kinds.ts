/**
 * Node-service kinds and their host-access profiles. This table is the single source of truth for what each kind
 * may touch on the host: the presets enforce it when constructed, and the policy rules re-check synthesized (or any)
 * manifests against it. It is plain data so that the CLI can use it without loading cdk8s.
 */

import { isPathWithin, normalizeHostPath } from '../k8s/paths';
import { KIND_ANNOTATION } from '../k8s/vocabulary';
import type { WireObject } from '../k8s/wire';

/** apiVersions of OpenKruise Advanced DaemonSets (`kind: DaemonSet` served by the OpenKruise CRDs). */
export const KRUISE_API_VERSIONS: readonly string[] = ['apps.kruise.io/v1alpha1', 'apps.kruise.io/v1beta1'];

/** Whether a manifest is an OpenKruise Advanced DaemonSet. */
export function isKruiseDaemonSet(object: unknown): boolean {
  const apiVersion = (object as WireObject | undefined)?.apiVersion;
  return typeof apiVersion === 'string' && KRUISE_API_VERSIONS.includes(apiVersion);
}

export { KIND_ANNOTATION };

/** The kinds of node service the library knows. */
export enum NodeServiceKind {
  /** A generic node service (`NodeService` used directly): no kind-specific allowlist. */
  GENERIC = 'node-service',
  /** A log collector (Fluent Bit, Vector, Promtail, Filebeat…). */
  LOG_AGENT = 'log-agent',
  /** A node metrics exporter (node-exporter…). */
  MONITORING_AGENT = 'monitoring-agent',
  /** A GPU metrics exporter (DCGM exporter…). */
  GPU_MONITOR = 'gpu-monitor',
  /** A CNI plugin agent (Calico, Cilium, flannel…). */
  CNI_PLUGIN = 'cni-plugin',
  /** A CSI node plugin (EBS, EFS, local-path…). */
  CSI_NODE = 'csi-node',
  /** A runtime-security or compliance agent (Falco, Tetragon, node baseline scanners…). */
  SECURITY_AGENT = 'security-agent',
  /** kube-proxy (or a replacement that programs Service routing on the node). */
  KUBE_PROXY = 'kube-proxy',
  /** A kubelet device plugin (NVIDIA, RDMA, SR-IOV…) that advertises node devices as extended resources. */
  DEVICE_PLUGIN = 'device-plugin',
}

/** One entry of a host-path allowlist. */
export interface HostPathAllowance {
  /**
   * Absolute path; the entry covers the path and everything below it. A `*` element matches exactly one
   * path element (`/var/lib/*` covers `/var/lib/fluent-bit` and below, but not `/var/lib` itself), and never one
   * that names a sensitive host path or a container runtime socket (`/var/lib/kubelet`, `/run/containerd`): those
   * are granted only by an entry that names them.
   */
  readonly path: string;
  /** Whether the path may be mounted writable (otherwise read-only only). */
  readonly writable: boolean;
}

/** How a kind of node service treats a memory limit on its containers. */
export enum MemoryLimitPolicy {
  /** A hard line (collectors that buffer what they read): a missing limit is an error for the declared kind. */
  REQUIRED = 'required',
  /** Expected: a missing limit is a warning. */
  RECOMMENDED = 'recommended',
  /** Left off on purpose (an OOM kill takes the node's network, storage or devices down): advice only. */
  OPTIONAL = 'optional',
}

/**
 * What a kind of node service may do on the host: the one table that the kind's construct enforces when it is built
 * and that the policy rules apply to a DaemonSet that declares the kind (the kind annotation). A kind inferred from a
 * manifest's shape gets none of these allowances silently: see `docs/kinds.md`.
 */
export interface KindProfile {
  /** The kind. */
  readonly kind: NodeServiceKind;
  /** Host paths the kind may mount; `undefined` means no kind-specific allowlist (generic node services). */
  readonly hostPaths?: HostPathAllowance[];
  /**
   * Linux capabilities the kind may add (names without the `CAP_` prefix), the ones beyond
   * `defaultCapabilities` only with a written reason; `undefined` means no allowlist.
   */
  readonly capabilities?: string[];
  /**
   * The capabilities the kind's job needs: its construct adds them by default, and a declared kind gets no
   * `dangerous-capability` finding for them. Every other capability on the allowlist needs a reason.
   */
  readonly defaultCapabilities: string[];
  /** Whether the kind may run on the host network (`hostNetwork: true`). */
  readonly hostNetwork: boolean;
  /** Whether the kind may see the host's processes (`hostPID: true`). */
  readonly hostPID: boolean;
  /** Whether the kind may share the host's IPC namespace (`hostIPC: true`); no kind may. */
  readonly hostIPC: boolean;
  /** Whether a privileged container is part of the kind's normal shape (only with a reason). */
  readonly privilegedAllowed: boolean;
  /** Whether privilege is what upstream ships for the kind (CSI drivers, Calico, kube-proxy): then only advice. */
  readonly privilegedExpected: boolean;
  /** Whether the kind may mount a container runtime socket (runtime-security agents read container metadata). */
  readonly runtimeSocket: boolean;
  /** Whether the kind runs as root by design (root-owned log files, programming the node, loading eBPF). */
  readonly runsAsRoot: boolean;
  /** How the kind treats a memory limit. */
  readonly memoryLimit: MemoryLimitPolicy;
  /** Whether the kind is node-critical (a node is broken or blind without it) and so needs a priority class. */
  readonly critical: boolean;
  /** Whether the kind is node infrastructure that may tolerate every taint. */
  readonly infrastructure: boolean;
}

/** Container runtime sockets: mounting one gives control of every container on the node. */
export const CONTAINER_RUNTIME_SOCKETS: readonly string[] = [
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/var/run/containerd/containerd.sock',
  '/run/containerd/containerd.sock',
  '/var/run/crio/crio.sock',
  '/run/crio/crio.sock',
  '/var/run/cri-dockerd.sock',
  '/run/cri-dockerd.sock',
  '/var/run/dockershim.sock',
];

/** Other runtime sockets seen in the wild (k3s, podman): detected like the others, but on no kind's allowlist. */
const OTHER_RUNTIME_SOCKETS: readonly string[] = [
  '/run/k3s/containerd/containerd.sock',
  '/run/podman/podman.sock',
  '/var/run/podman/podman.sock',
];

/** Host paths whose write access lets a container take over the node. */
export const SENSITIVE_HOST_PATHS: readonly string[] = [
  '/',
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/proc',
  '/root',
  '/sbin',
  '/sys',
  '/usr',
  '/var/lib/kubelet',
  '/var/lib/docker',
  '/var/lib/containerd',
  '/var/lib/etcd',
  '/var/run',
  '/run',
  '/etc/kubernetes',
];

const ro = (path: string): HostPathAllowance => ({ path, writable: false });
const rw = (path: string): HostPathAllowance => ({ path, writable: true });

const RUNTIME_SOCKETS_RO = CONTAINER_RUNTIME_SOCKETS.map(ro);

/** What most kinds share: no host namespace, no privilege, no runtime socket, a recommended memory limit. */
const BASE = {
  defaultCapabilities: [] as string[],
  hostNetwork: false,
  hostPID: false,
  hostIPC: false,
  privilegedAllowed: false,
  privilegedExpected: false,
  runtimeSocket: false,
  runsAsRoot: false,
  memoryLimit: MemoryLimitPolicy.RECOMMENDED,
  critical: false,
  infrastructure: false,
};

/**
 * What the node's own infrastructure shares (CNI, CSI node plugins, kube-proxy): the host network (NFS and SMB CSI
 * drivers use it too), privilege as upstream ships it, root, no memory limit (an OOM kill takes the node's network or
 * storage down), node-critical, tolerating every taint.
 */
const NODE_INFRASTRUCTURE = {
  ...BASE,
  hostNetwork: true,
  privilegedAllowed: true,
  privilegedExpected: true,
  runsAsRoot: true,
  memoryLimit: MemoryLimitPolicy.OPTIONAL,
  critical: true,
  infrastructure: true,
};

/**
 * The kind table. Sources: research/node-agent-manifests.md (what upstream ships per kind) and
 * research/field-findings.md (what real manifests need), checked against test/fixtures/real-world.
 */
const PROFILES: Record<NodeServiceKind, KindProfile> = {
  [NodeServiceKind.GENERIC]: {
    ...BASE,
    kind: NodeServiceKind.GENERIC,
    // The generic construct takes the host network when asked; host processes stay a finding.
    hostNetwork: true,
    privilegedAllowed: true,
  },
  [NodeServiceKind.LOG_AGENT]: {
    ...BASE,
    kind: NodeServiceKind.LOG_AGENT,
    hostPaths: [ro('/var/log'), ro('/var/lib/docker/containers'), ro('/run/log/journal'), ro('/etc/machine-id'), rw('/var/lib/*')],
    capabilities: ['DAC_READ_SEARCH'],
    runsAsRoot: true,
    memoryLimit: MemoryLimitPolicy.REQUIRED,
  },
  [NodeServiceKind.MONITORING_AGENT]: {
    ...BASE,
    kind: NodeServiceKind.MONITORING_AGENT,
    hostPaths: [ro('/')],
    capabilities: ['SYS_TIME'],
    hostNetwork: true,
    hostPID: true,
    memoryLimit: MemoryLimitPolicy.REQUIRED,
    infrastructure: true,
  },
  [NodeServiceKind.GPU_MONITOR]: {
    ...BASE,
    kind: NodeServiceKind.GPU_MONITOR,
    hostPaths: [ro('/var/lib/kubelet/pod-resources')],
    capabilities: ['SYS_ADMIN'],
    runsAsRoot: true,
    critical: true,
  },
  [NodeServiceKind.CNI_PLUGIN]: {
    ...NODE_INFRASTRUCTURE,
    kind: NodeServiceKind.CNI_PLUGIN,
    hostPaths: [
      rw('/opt/cni/bin'),
      rw('/etc/cni/net.d'),
      rw('/run/xtables.lock'),
      ro('/lib/modules'),
      rw('/sys/fs/bpf'),
      rw('/proc/sys/net'),
      rw('/proc/sys/kernel'),
      rw('/proc'),
      rw('/var/lib/cni'),
      rw('/run/*'),
      rw('/var/run/*'),
    ],
    // Flannel needs NET_ADMIN and NET_RAW; an unprivileged Cilium agent adds the rest, each needing a reason here.
    capabilities: [
      'NET_ADMIN',
      'NET_RAW',
      'NET_BIND_SERVICE',
      'BPF',
      'PERFMON',
      'SYS_ADMIN',
      'SYS_RESOURCE',
      'SYS_MODULE',
      'IPC_LOCK',
      'CHOWN',
      'KILL',
      'DAC_OVERRIDE',
      'FOWNER',
      'SETGID',
      'SETUID',
    ],
    defaultCapabilities: ['NET_ADMIN', 'NET_RAW'],
  },
  [NodeServiceKind.CSI_NODE]: {
    ...NODE_INFRASTRUCTURE,
    kind: NodeServiceKind.CSI_NODE,
    hostPaths: [rw('/var/lib/kubelet'), rw('/dev'), ro('/sys'), ro('/run/udev'), ro('/etc/selinux'), ro('/lib/modules')],
    capabilities: ['SYS_ADMIN'],
  },
  [NodeServiceKind.SECURITY_AGENT]: {
    ...BASE,
    kind: NodeServiceKind.SECURITY_AGENT,
    hostPaths: [
      ro('/proc'),
      ro('/etc'),
      ro('/sys/kernel'),
      ro('/sys/fs/cgroup'),
      rw('/sys/fs/bpf'),
      ro('/boot'),
      ro('/lib/modules'),
      ro('/usr/src'),
      ro('/usr/bin'),
      ro('/usr/lib/systemd'),
      ro('/lib/systemd'),
      ro('/var/lib/kubelet'),
      ro('/var/lib/etcd'),
      ro('/opt/cni/bin'),
      ro('/srv/kubernetes'),
      ...RUNTIME_SOCKETS_RO,
    ],
    capabilities: ['BPF', 'PERFMON', 'SYS_RESOURCE', 'SYS_PTRACE', 'SYS_ADMIN', 'DAC_READ_SEARCH', 'IPC_LOCK', 'NET_ADMIN'],
    defaultCapabilities: ['BPF', 'PERFMON', 'SYS_RESOURCE', 'SYS_PTRACE'],
    hostNetwork: true,
    hostPID: true,
    privilegedAllowed: true,
    runtimeSocket: true,
    runsAsRoot: true,
    infrastructure: true,
  },
  [NodeServiceKind.KUBE_PROXY]: {
    ...NODE_INFRASTRUCTURE,
    kind: NodeServiceKind.KUBE_PROXY,
    hostPaths: [rw('/run/xtables.lock'), ro('/lib/modules'), rw('/var/lib/kube-proxy'), ro('/etc/kubernetes')],
    capabilities: ['NET_ADMIN', 'NET_RAW', 'SYS_MODULE', 'SYS_RESOURCE'],
    defaultCapabilities: ['NET_ADMIN', 'NET_RAW'],
  },
  [NodeServiceKind.DEVICE_PLUGIN]: {
    ...BASE,
    kind: NodeServiceKind.DEVICE_PLUGIN,
    hostPaths: [rw('/var/lib/kubelet/device-plugins'), ro('/dev'), ro('/sys'), ro('/proc/driver'), ro('/run/nvidia'), ro('/var/run/cdi')],
    capabilities: ['SYS_ADMIN'],
    privilegedAllowed: true,
    runsAsRoot: true,
    memoryLimit: MemoryLimitPolicy.OPTIONAL,
    critical: true,
  },
};

// The table is shared by every caller (constructs, rules, the CLI): frozen, so that no caller can widen it for another.
for (const profile of Object.values(PROFILES)) {
  for (const allowance of profile.hostPaths ?? []) Object.freeze(allowance);
  for (const list of [profile.hostPaths, profile.capabilities, profile.defaultCapabilities]) if (list) Object.freeze(list);
  Object.freeze(profile);
}

/**
 * The profile of a kind; unknown kind strings get the generic profile.
 * A TypeScript convenience, kept: the same as `NodeServiceKinds.profile`, the form for every jsii language.
 */
export function kindProfile(kind: string | undefined): KindProfile {
  return PROFILES[(kind ?? '') as NodeServiceKind] ?? PROFILES[NodeServiceKind.GENERIC];
}

/** Every kind's profile, in the order of {@link NodeServiceKind}. */
export function kindProfiles(): KindProfile[] {
  return Object.values(NodeServiceKind).map((k) => PROFILES[k]);
}

/** The kinds whose profile satisfies `test` (for the per-kind severities of the rules). */
export function kindsWhere(test: (profile: KindProfile) => boolean): NodeServiceKind[] {
  return kindProfiles()
    .filter(test)
    .map((p) => p.kind);
}

/** Whether `prefix` (a path a `*` element stood for) names a sensitive host path or holds a runtime socket. */
function isReservedPrefix(prefix: string): boolean {
  return SENSITIVE_HOST_PATHS.includes(prefix) || isContainerRuntimeSocket(prefix);
}

function allowanceMatches(allowance: HostPathAllowance, path: string): boolean {
  const pattern = normalizeHostPath(allowance.path);
  if (!pattern.includes('*')) return isPathWithin(path, pattern);
  const want = pattern.split('/');
  const have = normalizeHostPath(path).split('/');
  if (have.length < want.length) return false;
  if (!want.every((seg, i) => seg === '*' || seg === have[i])) return false;
  // A `*` never stands for a path that only an entry naming it may grant (`/var/lib/kubelet`, `/run/containerd`).
  return want.every((seg, i) => seg !== '*' || !isReservedPrefix(have.slice(0, i + 1).join('/')));
}

/**
 * Whether a host path is allowed for the kind with the requested access. Returns `true` when the kind has no
 * allowlist. A writable request needs a writable entry; a read-only request is satisfied by any entry.
 */
export function isHostPathAllowed(profile: KindProfile, path: string, writable: boolean): boolean {
  if (!profile.hostPaths) return true;
  // Only a frozen allowlist (the kinds' own) is known not to change between questions.
  if (!Object.isFrozen(profile) || !Object.isFrozen(profile.hostPaths)) return allowedBy(profile.hostPaths, path, writable);
  let answers = HOST_PATH_ANSWERS.get(profile);
  if (answers === undefined) HOST_PATH_ANSWERS.set(profile, (answers = new Map()));
  const key = `${writable ? 'w' : 'r'}${path}`;
  const known = answers.get(key);
  if (known !== undefined) return known;
  const allowed = allowedBy(profile.hostPaths, path, writable);
  if (answers.size >= HOST_PATH_ANSWERS_LIMIT) answers.clear();
  answers.set(key, allowed);
  return allowed;
}

/**
 * The answers of {@link isHostPathAllowed} so far, by profile and access + path: a lint or a synthesis asks the same
 * few paths (`/var/log`, `/proc`) of the same profiles for every DaemonSet, and each answer walks the allowlist. A
 * frozen allowlist does not change, so an answer stays true; emptied when full.
 */
const HOST_PATH_ANSWERS = new WeakMap<KindProfile, Map<string, boolean>>();
const HOST_PATH_ANSWERS_LIMIT = 4096;

function allowedBy(allowances: readonly HostPathAllowance[], path: string, writable: boolean): boolean {
  return allowances.some((a) => (!writable || a.writable) && allowanceMatches(a, path));
}

/** Whether the kind has an allowlist entry that grants writing `path` (a write the kind needs). */
export function isWriteAllowed(profile: KindProfile, path: string): boolean {
  return profile.hostPaths !== undefined && isHostPathAllowed(profile, path, true);
}

/** A human-readable list of a kind's allowed host paths, for error messages and docs. */
export function describeHostPathAllowlist(profile: KindProfile): string {
  if (!profile.hostPaths) return '(any path)';
  return profile.hostPaths.map((a) => `${a.path} (${a.writable ? 'read-write' : 'read-only'})`).join(', ');
}

/** Whether `path` is a container runtime socket or a directory that contains one (`/run`, `/var/run/containerd`; not `/`). */
export function isContainerRuntimeSocket(path: string): boolean {
  const p = normalizeHostPath(path);
  if (!p.startsWith('/') || p === '/') return false;
  return [...CONTAINER_RUNTIME_SOCKETS, ...OTHER_RUNTIME_SOCKETS].some((s) => s === p || isPathWithin(s, p));
}

/** Whether `path` is one of the sensitive host paths (or an ancestor of one, like `/`). */
export function isSensitiveHostPath(path: string): boolean {
  const p = normalizeHostPath(path);
  return SENSITIVE_HOST_PATHS.some((s) => s === p) || p === '/';
}

/** Where a DaemonSet's kind came from. */
export enum KindSource {
  /** The kind annotation names it. */
  ANNOTATION = 'annotation',
  /** Inferred from the manifest's shape (host paths, images, host network…). */
  INFERRED = 'inferred',
  /** Neither: the generic kind. */
  DEFAULT = 'default',
}

/** A DaemonSet's kind and why. */
export interface KindInference {
  /** The kind. */
  readonly kind: NodeServiceKind;
  /** Where it came from. */
  readonly source: KindSource;
  /** What in the manifest shows it (empty for the annotation and the default). */
  readonly evidence: string;
  /**
   * Whether an inferred kind comes from a container image or command (a `node-driver-registrar` sidecar, a known CNI
   * agent image), not from host paths: only such a kind softens an error it would be allowed to a warning, so that
   * adding a mount never makes a DaemonSet look safer.
   *
   * @default false
   */
  readonly byImage?: boolean;
}

/**
 * Kinds that must never surge, with the sentence that says why: a surge runs a second pod of the service on a node before the first stops,
 * and two of these on one node fight over what only one may own. Checked by the constructs when they are built.
 */
export const NEVER_SURGE: { readonly [kind: string]: string } = {
  [NodeServiceKind.CNI_PLUGIN]:
    'a CNI agent must never surge: two agents on one node would fight over its host ports and CNI configuration',
  [NodeServiceKind.CSI_NODE]:
    'a CSI node plugin must never surge: two drivers on one node would fight over the driver socket and its mounts',
};

/**
 * The kinds' profiles as static members, for every language (jsii carries classes, not free functions): the same
 * as {@link kindProfile} and {@link KIND_ANNOTATION}.
 */
export class NodeServiceKinds {
  /** The annotation that names a DaemonSet's kind (`KIND_ANNOTATION`). */
  public static readonly ANNOTATION: string = KIND_ANNOTATION;

  /** The profile (allowlists, defaults) of `kind`; the generic profile for an unknown kind (`kindProfile`). */
  public static profile(kind?: string): KindProfile {
    return kindProfile(kind);
  }

  /** Every kind's profile: the whole kind table (`kindProfiles`). */
  public static all(): KindProfile[] {
    return kindProfiles();
  }

  private constructor() {}
}
