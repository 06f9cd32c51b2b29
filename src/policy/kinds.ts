/**
 * Node-service kinds and their host-access profiles. This table is the single source of truth for what each kind
 * may touch on the host: the presets enforce it when constructed, and the policy rules re-check synthesized (or any)
 * manifests against it. It is plain data so that the CLI can use it without loading cdk8s.
 */

import { isPathWithin, normalizeHostPath } from '../k8s/paths';

/** apiVersions of OpenKruise Advanced DaemonSets (`kind: DaemonSet` served by the OpenKruise CRDs). */
export const KRUISE_API_VERSIONS: readonly string[] = ['apps.kruise.io/v1alpha1', 'apps.kruise.io/v1beta1'];

/** Whether a manifest is an OpenKruise Advanced DaemonSet. */
export function isKruiseDaemonSet(object: any): boolean {
  return typeof object?.apiVersion === 'string' && KRUISE_API_VERSIONS.includes(object.apiVersion);
}

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
  /** kube-proxy (or a replacement that programs Service routing on the node). */
  KUBE_PROXY = 'kube-proxy',
  /** A kubelet device plugin (NVIDIA, RDMA, SR-IOV…) that advertises node devices as extended resources. */
  DEVICE_PLUGIN = 'device-plugin',
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
      rw('/proc/sys/net'),
      rw('/proc/sys/kernel'),
      rw('/proc'),
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
  [NodeServiceKind.KUBE_PROXY]: {
    kind: NodeServiceKind.KUBE_PROXY,
    hostPaths: [rw('/run/xtables.lock'), ro('/lib/modules'), rw('/var/lib/kube-proxy'), ro('/etc/kubernetes')],
    capabilities: ['NET_ADMIN', 'NET_RAW', 'SYS_MODULE', 'SYS_RESOURCE'],
    critical: true,
    infrastructure: true,
    privilegedAllowed: true,
  },
  [NodeServiceKind.DEVICE_PLUGIN]: {
    kind: NodeServiceKind.DEVICE_PLUGIN,
    hostPaths: [rw('/var/lib/kubelet/device-plugins'), ro('/dev'), ro('/sys'), ro('/proc/driver'), ro('/run/nvidia'), ro('/var/run/cdi')],
    capabilities: ['SYS_ADMIN'],
    critical: true,
    infrastructure: false,
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
}

function asRecord(value: unknown): Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, any>) : {};
}

function asList(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

/** The host paths, images and commands of a pod template, for {@link inferKind}. */
function shapeOf(object: any): {
  hostPaths: string[];
  bidirectional: string[];
  images: string[];
  words: string[];
  hostNetwork: boolean;
  hostPID: boolean;
} {
  const pod = asRecord(asRecord(asRecord(object?.spec).template).spec);
  const hostPaths = asList(pod.volumes)
    .map((v) => asRecord(asRecord(v).hostPath).path)
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .map((p) => normalizeHostPath(p));
  const containers = [...asList(pod.containers), ...asList(pod.initContainers)].map(asRecord);
  const images = containers.map((c) => (typeof c.image === 'string' ? c.image.toLowerCase() : ''));
  const words: string[] = [];
  for (const c of containers) {
    if (typeof c.name === 'string') words.push(c.name.toLowerCase());
    for (const w of [...asList(c.command), ...asList(c.args)]) if (typeof w === 'string') words.push(w.toLowerCase());
  }
  const hostPathOf = new Map<string, string>();
  for (const v of asList(pod.volumes).map(asRecord)) {
    const p = asRecord(v.hostPath).path;
    if (typeof v.name === 'string' && typeof p === 'string') hostPathOf.set(v.name, normalizeHostPath(p));
  }
  const bidirectional: string[] = [];
  for (const c of containers) {
    for (const m of asList(c.volumeMounts).map(asRecord)) {
      const p = hostPathOf.get(m.name);
      if (p !== undefined && m.mountPropagation === 'Bidirectional') bidirectional.push(p);
    }
  }
  return { hostPaths, bidirectional, images, words, hostNetwork: pod.hostNetwork === true, hostPID: pod.hostPID === true };
}

/** Image names of CNI agents that mount no CNI directory of their own in some variants (Windows HostProcess). */
const KNOWN_CNI_IMAGES = [
  'antrea-agent',
  'antrea-agent-ubuntu',
  'antrea-windows',
  'cilium',
  'flannel',
  'kube-router',
  'amazon-k8s-cni',
  'multus-cni',
  'weave-kube',
];

/** Image names of runtime-security and compliance agents. */
const KNOWN_SECURITY_IMAGES = ['falco', 'tetragon', 'tracee', 'kube-bench', 'node-collector', 'sysdig', 'neuvector-enforcer'];

/** The repository name of an image reference, without registry, tag and digest (`quay.io/cilium/cilium:v1` → `cilium`). */
function imageName(image: string): string {
  const noDigest = image.split('@')[0];
  const last = noDigest.split('/').pop() ?? '';
  return last.split(':')[0];
}

/**
 * Infers a DaemonSet's node-service kind from its shape, the way an operator reads a vendor manifest: a CSI node
 * plugin registers with the kubelet (`node-driver-registrar`, `/var/lib/kubelet/plugins`), a device plugin uses
 * `/var/lib/kubelet/device-plugins`, kube-proxy is its image or command, a CNI agent is on the host network and
 * writes `/opt/cni/bin` or `/etc/cni/net.d`, a GPU monitor reads `/var/lib/kubelet/pod-resources`, a security agent
 * reads kernel tracing or control-plane state, a log agent reads `/var/log`, a metrics agent reads `/proc` and `/sys`.
 * Returns `undefined` when nothing identifies a kind.
 */
export function inferKind(object: any): { kind: NodeServiceKind; evidence: string } | undefined {
  const s = shapeOf(object);
  const has = (p: string) => s.hostPaths.some((h) => h === p || isPathWithin(h, p));
  const under = (p: string) => s.hostPaths.find((h) => isPathWithin(h, p));
  const names = s.images.map(imageName);
  const registrar = names.find((n) => n.includes('node-driver-registrar'));
  if (registrar) return { kind: NodeServiceKind.CSI_NODE, evidence: `the ${registrar} sidecar` };
  const plugins = under('/var/lib/kubelet/plugins') ?? under('/var/lib/kubelet/plugins_registry');
  if (plugins) return { kind: NodeServiceKind.CSI_NODE, evidence: `host path ${plugins}` };
  const devicePlugins = under('/var/lib/kubelet/device-plugins');
  if (devicePlugins) return { kind: NodeServiceKind.DEVICE_PLUGIN, evidence: `host path ${devicePlugins}` };
  if (
    names.some((n) => n === 'kube-proxy') ||
    s.words.some((w) => w === 'kube-proxy' || w.endsWith('/kube-proxy') || w.startsWith('kube-proxy.exe'))
  ) {
    return { kind: NodeServiceKind.KUBE_PROXY, evidence: 'the kube-proxy image or command' };
  }
  const cniPath = under('/opt/cni/bin') ?? under('/etc/cni/net.d') ?? s.hostPaths.find((h) => h === '/opt/cni' || h === '/etc/cni');
  if (cniPath && s.hostNetwork) return { kind: NodeServiceKind.CNI_PLUGIN, evidence: `hostNetwork and host path ${cniPath}` };
  const cniImage = names.find((n) => KNOWN_CNI_IMAGES.includes(n));
  if (cniImage && s.hostNetwork) return { kind: NodeServiceKind.CNI_PLUGIN, evidence: `hostNetwork and the ${cniImage} image` };
  const podResources = under('/var/lib/kubelet/pod-resources');
  if (podResources) return { kind: NodeServiceKind.GPU_MONITOR, evidence: `host path ${podResources}` };
  if (names.some((n) => n.includes('dcgm-exporter'))) return { kind: NodeServiceKind.GPU_MONITOR, evidence: 'the dcgm-exporter image' };
  const tracing = under('/sys/kernel/debug') ?? under('/sys/kernel/tracing') ?? under('/sys/kernel/security') ?? under('/sys/module');
  if (tracing) return { kind: NodeServiceKind.SECURITY_AGENT, evidence: `host path ${tracing}` };
  const securityImage = names.find((n) => KNOWN_SECURITY_IMAGES.some((k) => n === k || n.startsWith(`${k}-`)));
  if (securityImage) return { kind: NodeServiceKind.SECURITY_AGENT, evidence: `the ${securityImage} image` };
  if (has('/var/lib/etcd') || (has('/etc/kubernetes') && has('/var/lib/kubelet') && s.hostPID)) {
    return { kind: NodeServiceKind.SECURITY_AGENT, evidence: 'host paths of control-plane and kubelet state' };
  }
  const bidirectional = s.bidirectional.find((h) => h !== '');
  if (bidirectional && has('/dev')) {
    return { kind: NodeServiceKind.CSI_NODE, evidence: `Bidirectional propagation of ${bidirectional} with /dev (a storage agent)` };
  }
  const logs = under('/var/log');
  if (logs) return { kind: NodeServiceKind.LOG_AGENT, evidence: `host path ${logs}` };
  const proc = s.hostPaths.find((h) => h === '/proc' || h === '/');
  if (proc && (has('/sys') || proc === '/')) return { kind: NodeServiceKind.MONITORING_AGENT, evidence: `host path ${proc} with /sys` };
  return undefined;
}

/** The kind of a DaemonSet: from the annotation when it names a kind, else inferred, else generic. */
export function resolveKind(object: any): KindInference {
  const annotation = asRecord(asRecord(object?.metadata).annotations)[KIND_ANNOTATION];
  if (typeof annotation === 'string' && (Object.values(NodeServiceKind) as string[]).includes(annotation)) {
    return { kind: annotation as NodeServiceKind, source: KindSource.ANNOTATION, evidence: '' };
  }
  const inferred = inferKind(object);
  if (inferred) return { kind: inferred.kind, source: KindSource.INFERRED, evidence: inferred.evidence };
  return { kind: NodeServiceKind.GENERIC, source: KindSource.DEFAULT, evidence: '' };
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

  private constructor() {}
}
