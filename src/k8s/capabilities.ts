/**
 * Linux capability names as a container's `securityContext.capabilities` lists them: the capability set of Linux
 * (`include/uapi/linux/capability.h`), written without the `CAP_` prefix, as Kubernetes and its runtimes expect.
 */

/** Every Linux capability, without the `CAP_` prefix. */
export const LINUX_CAPABILITIES: readonly string[] = [
  'CHOWN',
  'DAC_OVERRIDE',
  'DAC_READ_SEARCH',
  'FOWNER',
  'FSETID',
  'KILL',
  'SETGID',
  'SETUID',
  'SETPCAP',
  'LINUX_IMMUTABLE',
  'NET_BIND_SERVICE',
  'NET_BROADCAST',
  'NET_ADMIN',
  'NET_RAW',
  'IPC_LOCK',
  'IPC_OWNER',
  'SYS_MODULE',
  'SYS_RAWIO',
  'SYS_CHROOT',
  'SYS_PTRACE',
  'SYS_PACCT',
  'SYS_ADMIN',
  'SYS_BOOT',
  'SYS_NICE',
  'SYS_RESOURCE',
  'SYS_TIME',
  'SYS_TTY_CONFIG',
  'MKNOD',
  'LEASE',
  'AUDIT_WRITE',
  'AUDIT_CONTROL',
  'SETFCAP',
  'MAC_OVERRIDE',
  'MAC_ADMIN',
  'SYSLOG',
  'WAKE_ALARM',
  'BLOCK_SUSPEND',
  'AUDIT_READ',
  'PERFMON',
  'BPF',
  'CHECKPOINT_RESTORE',
];

/** The Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** The candidate closest to `value` within `maxDistance` edits, or `undefined`. */
export function closestMatch(value: string, candidates: readonly string[], maxDistance = 2): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const c of candidates) {
    const d = editDistance(value, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Why `name` is not a Linux capability as a container adds it (upper case, no `CAP_` prefix, one of
 * {@link LINUX_CAPABILITIES}), or `undefined`. Suggests the nearest capability for a misspelling.
 */
export function capabilityError(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'must be a string';
  if (LINUX_CAPABILITIES.includes(name)) return undefined;
  const upper = name.trim().toUpperCase();
  const bare = upper.startsWith('CAP_') ? upper.slice(4) : upper;
  if (LINUX_CAPABILITIES.includes(bare)) {
    return upper.startsWith('CAP_') ? `must be written without the CAP_ prefix: '${bare}'` : `must be written in upper case: '${bare}'`;
  }
  if (bare === 'ALL') return "'ALL' can only be dropped, never added";
  const near = closestMatch(bare, LINUX_CAPABILITIES);
  return `is not a Linux capability${near ? ` (did you mean '${near}'?)` : ''}`;
}
