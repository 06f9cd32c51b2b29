/**
 * Host-access facts the rules need beyond the kind table in `kinds.ts`: the host-namespace finding, which host
 * paths are sensitive when written (including their ancestors), and which capabilities are dangerous.
 */

import { isPathWithin, normalizeHostPath } from '../k8s/paths';
import { ON_DELETE_REASON_ANNOTATION } from '../k8s/vocabulary';
import { jsonPath } from './helpers';
import { KIND_ANNOTATION, KindSource, SENSITIVE_HOST_PATHS } from './kinds';
import type { PodView, RuleFinding } from './types';

/**
 * The finding of a host namespace the pod joins (`hostNetwork`, `hostPID`, `hostIPC` is true): allowed when the
 * kind needs it, which the engine honours only for a declared kind. The message names the kind and where it came
 * from, so that an undeclared need reads as one.
 */
export function hostNamespaceFinding(view: PodView, field: 'hostNetwork' | 'hostPID' | 'hostIPC'): RuleFinding {
  const needed = view.kindProfile[field];
  let why: string;
  if (view.kindSource === KindSource.DEFAULT) why = `, and no node-service kind that needs it is declared (${KIND_ANNOTATION})`;
  else if (needed) why = '';
  else why = `, which kind '${view.kind}'${view.kindSource === KindSource.INFERRED ? ' (inferred)' : ''} does not need`;
  return { path: jsonPath(view.podPath, field), message: `${field} is true${why}`, allowedByKind: needed };
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

export { ON_DELETE_REASON_ANNOTATION };

export { MIN_REASON_LENGTH } from '../k8s/numbers';
