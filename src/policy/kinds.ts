/**
 * Node-service kinds and their host-access profiles. This table is the single source of truth for what each kind
 * may touch on the host: the presets enforce it when constructed, and the policy rules re-check synthesized (or any)
 * manifests against it. It is plain data so that the CLI can use it without loading cdk8s.
 */

import { isPathWithin, normalizeHostPath } from '../k8s/paths';

/** Annotation that records a DaemonSet's node-service kind, so rules can apply the kind's profile to plain YAML. */
export const KIND_ANNOTATION = 'node-services.cdk8s.io/kind';

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
}

/** One entry of a host-path allowlist. */
export interface HostPathAllowance {
  /**
   * Absolute path; the entry covers the path and everything below it. A `*` element matches exactly one
   * path element (`/var/lib/*` covers `/var/lib/fluent-bit` and below, but not `/var/lib` itself).
   */
  readonly path: string;
  /** Whether the path may be mounted writable (otherwise read-only only). */
  readonly writable: boolean;
}

/** What a kind of node service may do on the host. */
export interface KindProfile {
  /** The kind. */
  readonly kind: NodeServiceKind;
  /** Host paths the kind may mount; `undefined` means no kind-specific allowlist (generic node services). */
  readonly hostPaths?: HostPathAllowance[];
  /** Linux capabilities the kind may add (names without the `CAP_` prefix); `undefined` means no allowlist. */
  readonly capabilities?: string[];
  /** Whether the kind is node-critical (a node is broken or blind without it) and so needs a priority class. */
  readonly critical: boolean;
  /** Whether the kind is node infrastructure that may tolerate every taint. */
  readonly infrastructure: boolean;
  /** Whether a privileged container is part of the kind's normal shape (only with a reason). */
  readonly privilegedAllowed: boolean;
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

const PROFILES: Record<NodeServiceKind, KindProfile> = {
  [NodeServiceKind.GENERIC]: {
    kind: NodeServiceKind.GENERIC,
    critical: false,
    infrastructure: false,
    privilegedAllowed: true,
  },
  [NodeServiceKind.LOG_AGENT]: {
    kind: NodeServiceKind.LOG_AGENT,
    hostPaths: [ro('/var/log'), ro('/var/lib/docker/containers'), ro('/run/log/journal'), ro('/etc/machine-id'), rw('/var/lib/*')],
    capabilities: ['DAC_READ_SEARCH'],
    critical: false,
    infrastructure: false,
    privilegedAllowed: false,
  },
  [NodeServiceKind.MONITORING_AGENT]: {
    kind: NodeServiceKind.MONITORING_AGENT,
    hostPaths: [ro('/')],
    capabilities: ['SYS_TIME'],
    critical: false,
    infrastructure: true,
    privilegedAllowed: false,
  },
  [NodeServiceKind.GPU_MONITOR]: {
    kind: NodeServiceKind.GPU_MONITOR,
    hostPaths: [ro('/var/lib/kubelet/pod-resources')],
    capabilities: ['SYS_ADMIN'],
    critical: true,
    infrastructure: false,
    privilegedAllowed: false,
  },
  [NodeServiceKind.CNI_PLUGIN]: {
    kind: NodeServiceKind.CNI_PLUGIN,
    hostPaths: [
      rw('/opt/cni/bin'),
      rw('/etc/cni/net.d'),
      rw('/run/xtables.lock'),
      ro('/lib/modules'),
      rw('/sys/fs/bpf'),
      ro('/proc/sys/net'),
      rw('/var/lib/cni'),
      rw('/run/*'),
      rw('/var/run/*'),
    ],
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
    critical: true,
    infrastructure: true,
    privilegedAllowed: true,
  },
  [NodeServiceKind.CSI_NODE]: {
    kind: NodeServiceKind.CSI_NODE,
    hostPaths: [rw('/var/lib/kubelet'), rw('/dev'), ro('/sys'), ro('/run/udev'), ro('/etc/selinux'), ro('/lib/modules')],
    capabilities: ['SYS_ADMIN'],
    critical: true,
    infrastructure: true,
    privilegedAllowed: true,
  },
  [NodeServiceKind.SECURITY_AGENT]: {
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
    critical: false,
    infrastructure: true,
    privilegedAllowed: true,
  },
};

/** The profile of a kind; unknown kind strings get the generic profile. */
export function kindProfile(kind: string | undefined): KindProfile {
  return PROFILES[(kind ?? '') as NodeServiceKind] ?? PROFILES[NodeServiceKind.GENERIC];
}

function allowanceMatches(allowance: HostPathAllowance, path: string): boolean {
  const pattern = normalizeHostPath(allowance.path);
  if (!pattern.includes('*')) return isPathWithin(path, pattern);
  const want = pattern.split('/');
  const have = normalizeHostPath(path).split('/');
  if (have.length < want.length) return false;
  return want.every((seg, i) => seg === '*' || seg === have[i]);
}

/**
 * Whether a host path is allowed for the kind with the requested access. Returns `true` when the kind has no
 * allowlist. A writable request needs a writable entry; a read-only request is satisfied by any entry.
 */
export function isHostPathAllowed(profile: KindProfile, path: string, writable: boolean): boolean {
  if (!profile.hostPaths) return true;
  return profile.hostPaths.some((a) => (!writable || a.writable) && allowanceMatches(a, path));
}

/** A human-readable list of a kind's allowed host paths, for error messages and docs. */
export function describeHostPathAllowlist(profile: KindProfile): string {
  if (!profile.hostPaths) return '(any path)';
  return profile.hostPaths.map((a) => `${a.path} (${a.writable ? 'read-write' : 'read-only'})`).join(', ');
}

/** Whether `path` is a container runtime socket (or a directory that contains one). */
export function isContainerRuntimeSocket(path: string): boolean {
  const p = normalizeHostPath(path);
  return CONTAINER_RUNTIME_SOCKETS.some((s) => s === p || (isPathWithin(s, p) && p !== '/' && p.split('/').length >= 3));
}

/** Whether `path` is one of the sensitive host paths (or an ancestor of one, like `/`). */
export function isSensitiveHostPath(path: string): boolean {
  const p = normalizeHostPath(path);
  return SENSITIVE_HOST_PATHS.some((s) => s === p) || p === '/';
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
