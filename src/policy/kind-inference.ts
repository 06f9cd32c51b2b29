/**
 * Infers a DaemonSet's node-service kind from its shape, for manifests that do not declare one (vendor YAML, Helm
 * output). An inferred kind only names what a manifest looks like: the rules never silence a finding for it (see
 * `docs/kinds.md`). The kinds whose allowances include sensitive writes (CNI, CSI, device plugins) are inferred only
 * from write access or an image, never from a read-only mount, so that adding one never makes a DaemonSet look safer.
 */

import { isPathWithin, normalizeHostPath } from '../k8s/paths';
import { KIND_ANNOTATION, KindInference, KindSource, NodeServiceKind } from './kinds';

function asRecord(value: unknown): Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, any>) : {};
}

function asList(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

/** What {@link inferKind} reads of a pod template. */
interface Shape {
  /** Every host path (normalized). */
  readonly hostPaths: string[];
  /** The host paths some container mounts writable. */
  readonly writable: string[];
  /** The host paths some container mounts writable with Bidirectional propagation. */
  readonly bidirectional: string[];
  /** Container images, lower case. */
  readonly images: string[];
  /** Container names, commands and arguments, lower case. */
  readonly words: string[];
  readonly hostNetwork: boolean;
  readonly hostPID: boolean;
}

/** The containers of a pod spec, with the host path each of their mounts names (or `undefined`). */
function mountsOf(pod: Record<string, any>, containers: Record<string, any>[]): { path: string; mount: Record<string, any> }[] {
  const hostPathOf = new Map<string, string>();
  for (const v of asList(pod.volumes).map(asRecord)) {
    const p = asRecord(v.hostPath).path;
    if (typeof v.name === 'string' && typeof p === 'string' && p !== '' && !hostPathOf.has(v.name)) {
      hostPathOf.set(v.name, normalizeHostPath(p));
    }
  }
  const out: { path: string; mount: Record<string, any> }[] = [];
  for (const c of containers) {
    for (const m of asList(c.volumeMounts).map(asRecord)) {
      const p = typeof m.name === 'string' ? hostPathOf.get(m.name) : undefined;
      if (p !== undefined) out.push({ path: p, mount: m });
    }
  }
  return out;
}

/** The host paths, images and commands of a pod template, for {@link inferKind}. */
function shapeOf(object: any): Shape {
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
  const writableMounts = mountsOf(pod, containers).filter((m) => m.mount.readOnly !== true);
  return {
    hostPaths,
    writable: writableMounts.map((m) => m.path),
    bidirectional: writableMounts.filter((m) => m.mount.mountPropagation === 'Bidirectional').map((m) => m.path),
    images,
    words,
    hostNetwork: pod.hostNetwork === true,
    hostPID: pod.hostPID === true,
  };
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

type Inferred = { kind: NodeServiceKind; evidence: string; byImage?: boolean } | undefined;

/** The first path of `paths` at or below one of `prefixes`. */
function firstUnder(paths: readonly string[], ...prefixes: string[]): string | undefined {
  for (const prefix of prefixes) {
    const found = paths.find((h) => isPathWithin(h, prefix));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Kinds shown by an image or a command: a CSI registrar sidecar, kube-proxy, a known CNI agent on the host network. */
function inferByImage(s: Shape, names: string[]): Inferred {
  const registrar = names.find((n) => n.includes('node-driver-registrar'));
  if (registrar) return { kind: NodeServiceKind.CSI_NODE, evidence: `the ${registrar} sidecar` };
  if (
    names.some((n) => n === 'kube-proxy') ||
    s.words.some((w) => w === 'kube-proxy' || w.endsWith('/kube-proxy') || w.startsWith('kube-proxy.exe'))
  ) {
    return { kind: NodeServiceKind.KUBE_PROXY, evidence: 'the kube-proxy image or command' };
  }
  const cniImage = names.find((n) => KNOWN_CNI_IMAGES.includes(n));
  if (cniImage && s.hostNetwork) return { kind: NodeServiceKind.CNI_PLUGIN, evidence: `hostNetwork and the ${cniImage} image` };
  return undefined;
}

/** The node plugins of the kubelet (CSI, device plugins) and CNI agents, by what they write. */
function inferWriter(s: Shape): Inferred {
  const plugins = firstUnder(s.writable, '/var/lib/kubelet/plugins', '/var/lib/kubelet/plugins_registry');
  if (plugins) return { kind: NodeServiceKind.CSI_NODE, evidence: `writable host path ${plugins}` };
  const devicePlugins = firstUnder(s.writable, '/var/lib/kubelet/device-plugins');
  if (devicePlugins) return { kind: NodeServiceKind.DEVICE_PLUGIN, evidence: `writable host path ${devicePlugins}` };
  if (!s.hostNetwork) return undefined;
  const cniPath = firstUnder(s.writable, '/opt/cni/bin', '/etc/cni/net.d') ?? s.writable.find((h) => h === '/opt/cni' || h === '/etc/cni');
  if (cniPath) return { kind: NodeServiceKind.CNI_PLUGIN, evidence: `hostNetwork and writable host path ${cniPath}` };
  return undefined;
}

/** Monitors, security agents and collectors: what they read. */
function inferReader(s: Shape, names: string[]): Inferred {
  const has = (p: string) => s.hostPaths.some((h) => h === p || isPathWithin(h, p));
  const podResources = firstUnder(s.hostPaths, '/var/lib/kubelet/pod-resources');
  if (podResources) return { kind: NodeServiceKind.GPU_MONITOR, evidence: `host path ${podResources}` };
  if (names.some((n) => n.includes('dcgm-exporter')))
    return { kind: NodeServiceKind.GPU_MONITOR, evidence: 'the dcgm-exporter image', byImage: true };
  const tracing = firstUnder(s.hostPaths, '/sys/kernel/debug', '/sys/kernel/tracing', '/sys/kernel/security', '/sys/module');
  if (tracing) return { kind: NodeServiceKind.SECURITY_AGENT, evidence: `host path ${tracing}` };
  const securityImage = names.find((n) => KNOWN_SECURITY_IMAGES.some((k) => n === k || n.startsWith(`${k}-`)));
  if (securityImage) return { kind: NodeServiceKind.SECURITY_AGENT, evidence: `the ${securityImage} image`, byImage: true };
  if (has('/var/lib/etcd') || (has('/etc/kubernetes') && has('/var/lib/kubelet') && s.hostPID)) {
    return { kind: NodeServiceKind.SECURITY_AGENT, evidence: 'host paths of control-plane and kubelet state' };
  }
  const bidirectional = s.bidirectional.find((h) => h !== '');
  if (bidirectional && has('/dev')) {
    return { kind: NodeServiceKind.CSI_NODE, evidence: `Bidirectional propagation of ${bidirectional} with /dev (a storage agent)` };
  }
  const logs = firstUnder(s.hostPaths, '/var/log');
  if (logs) return { kind: NodeServiceKind.LOG_AGENT, evidence: `host path ${logs}` };
  const proc = s.hostPaths.find((h) => h === '/proc' || h === '/');
  if (proc && (has('/sys') || proc === '/')) return { kind: NodeServiceKind.MONITORING_AGENT, evidence: `host path ${proc} with /sys` };
  return undefined;
}

/**
 * Infers a DaemonSet's node-service kind from its shape, the way an operator reads a vendor manifest. First by image
 * or command (`byImage`): a CSI node plugin's `node-driver-registrar` sidecar, kube-proxy, a known CNI agent image on
 * the host network. Then by what it writes: a CSI node plugin `/var/lib/kubelet/plugins(_registry)`, a device plugin
 * `/var/lib/kubelet/device-plugins`, a CNI agent on the host network `/opt/cni/bin` or `/etc/cni/net.d`. Then by
 * what it reads (or its image): a GPU monitor `/var/lib/kubelet/pod-resources` (or the DCGM exporter image), a
 * security agent kernel tracing or control-plane state (or a known runtime-security image), a log agent `/var/log`,
 * a metrics agent `/proc` and `/sys`. Returns `undefined` when nothing identifies a kind.
 */
export function inferKind(object: any): { kind: NodeServiceKind; evidence: string; byImage: boolean } | undefined {
  const s = shapeOf(object);
  const names = s.images.map(imageName);
  const byImage = inferByImage(s, names);
  if (byImage) return { ...byImage, byImage: true };
  const byShape = inferWriter(s) ?? inferReader(s, names);
  return byShape && { ...byShape, byImage: byShape.byImage ?? false };
}

/** The kind of a DaemonSet: from the annotation when it names a kind, else inferred, else generic. */
export function resolveKind(object: any): KindInference {
  const annotation = asRecord(asRecord(object?.metadata).annotations)[KIND_ANNOTATION];
  if (typeof annotation === 'string' && (Object.values(NodeServiceKind) as string[]).includes(annotation)) {
    return { kind: annotation as NodeServiceKind, source: KindSource.ANNOTATION, evidence: '', byImage: false };
  }
  const inferred = inferKind(object);
  if (inferred) return { kind: inferred.kind, source: KindSource.INFERRED, evidence: inferred.evidence, byImage: inferred.byImage };
  return { kind: NodeServiceKind.GENERIC, source: KindSource.DEFAULT, evidence: '', byImage: false };
}
