import { isSensitiveWritePath } from '../host-access';
import { isWriteAllowed, SENSITIVE_HOST_PATHS } from '../kinds';
import { jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Writable mounts of node-critical host paths (or their ancestors), unless the kind's allowlist grants them. */
export const sensitiveHostPathWritable = defineRule({
  id: 'sensitive-host-path-writable',
  severity: Severity.ERROR,
  category: RuleCategory.HOST_ACCESS,
  title: 'Sensitive host path mounted writable',
  rationale: `Writing to ${SENSITIVE_HOST_PATHS.join(', ')} (or a parent such as /var) lets a container replace binaries, kubelet credentials or runtime state and take over the node. This is a hard line: an error unless the node-service kind declared by the annotation needs that write (a CSI node plugin writes /var/lib/kubelet and /dev, a CNI /proc for its sysctls). For a kind only inferred from the manifest's shape the write is still reported, as a warning that says how to declare the kind (so a real vendor CSI plugin does not fail CI on the write it needs). A privileged or HostProcess container is not reported: it is root on the node anyway, and the privileged finding is the one to act on.`,
  fix: 'Mount the path read-only, or mount only the narrow sub-directory the service writes (e.g. /var/lib/fluent-bit instead of /var/lib).',
  example: 'volumeMounts:\n  - {name: etc, mountPath: /host/etc, readOnly: true}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const hp of view.hostPaths) {
      if (!hp.writable || hp.matchPath === '' || !isSensitiveWritePath(hp.matchPath)) continue;
      const allowedByKind = isWriteAllowed(view.kindProfile, hp.matchPath);
      for (const m of hp.mounts) {
        if (!m.writable || m.container.fullHostAccess) continue;
        out.push({
          path: jsonPath(m.path, 'readOnly'),
          message: `container '${m.container.name}' mounts sensitive host path '${hp.hostPath}' writable`,
          allowedByKind,
        });
      }
    }
    return out;
  },
});
