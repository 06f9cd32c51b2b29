/**
 * Host-access facts the rules need beyond the kind profiles in `kinds.ts`: which host namespaces each kind needs,
 * which host paths are sensitive when written (including their ancestors), and which capabilities are dangerous.
 */

import { isPathWithin, normalizeHostPath } from '../k8s/paths';
import { KindProfile, NodeServiceKind, SENSITIVE_HOST_PATHS } from './kinds';

/** The host namespaces a kind of node service needs. */
export interface HostNamespaceNeeds {
  /** Whether the kind needs `hostNetwork: true`. */
  readonly hostNetwork: boolean;
  /** Whether the kind needs `hostPID: true`. */
  readonly hostPID: boolean;
  /** Whether the kind needs `hostIPC: true`. */
  readonly hostIPC: boolean;
}

/**
 * Per kind (upstream practice, research/node-agent-manifests.md §8): node exporters and runtime-security agents
 * read host processes and the host network; CNI agents own the host network; some CSI node drivers (NFS, SMB)
 * use the host network. No node-service kind needs the host IPC namespace. The generic kind has no
 * network/PID allowlist.
 */
const NEEDS: Record<NodeServiceKind, HostNamespaceNeeds> = {
  [NodeServiceKind.GENERIC]: { hostNetwork: true, hostPID: true, hostIPC: false },
  [NodeServiceKind.LOG_AGENT]: { hostNetwork: false, hostPID: false, hostIPC: false },
  [NodeServiceKind.MONITORING_AGENT]: { hostNetwork: true, hostPID: true, hostIPC: false },
  [NodeServiceKind.GPU_MONITOR]: { hostNetwork: false, hostPID: false, hostIPC: false },
  [NodeServiceKind.CNI_PLUGIN]: { hostNetwork: true, hostPID: false, hostIPC: false },
  [NodeServiceKind.CSI_NODE]: { hostNetwork: true, hostPID: false, hostIPC: false },
  [NodeServiceKind.SECURITY_AGENT]: { hostNetwork: true, hostPID: true, hostIPC: false },
};

/** The host namespaces a kind needs. */
export function hostNamespaceNeeds(profile: KindProfile): HostNamespaceNeeds {
  return NEEDS[profile.kind] ?? NEEDS[NodeServiceKind.GENERIC];
}

/**
 * Whether writing to `path` can take over the node: it is one of the sensitive host paths or an ancestor of one
 * (`/var` contains `/var/lib/kubelet`). Paths below a sensitive directory (`/etc/cni/net.d`) are not sensitive by
 * themselves.
 */
export function isSensitiveWritePath(path: string): boolean {
  const p = normalizeHostPath(path);
  return SENSITIVE_HOST_PATHS.some((s) => isPathWithin(s, p));
}

/**
 * Capabilities that give a container control over the node or other workloads (canonical names, without
 * `CAP_`): full admin, kernel modules, raw devices, rebooting, tracing other processes, network administration,
 * BPF, overriding mandatory access control, and `ALL`.
 */
export const DANGEROUS_CAPABILITIES: readonly string[] = [
  'ALL',
  'SYS_ADMIN',
  'SYS_MODULE',
  'SYS_RAWIO',
  'SYS_PTRACE',
  'SYS_BOOT',
  'NET_ADMIN',
  'BPF',
  'MAC_ADMIN',
  'MAC_OVERRIDE',
];

/** The annotation that records why a DaemonSet uses the `OnDelete` update strategy (at least 10 characters). */
export const ON_DELETE_REASON_ANNOTATION = 'node-services.cdk8s.io/on-delete-reason';

export { MIN_REASON_LENGTH } from '../k8s/numbers';
