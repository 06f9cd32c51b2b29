import { isSensitiveWritePath } from '../host-access';
import { jsonPath } from '../helpers';
import { isWriteAllowed } from '../kinds';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Host paths should be mounted read-only unless writing is the point. */
export const hostPathWritable = defineRule({
  id: 'host-path-writable',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'hostPath mounted writable',
  rationale:
    "A writable host mount lets the container change the node itself, and every node runs the pod. Host access should be read-only unless the service must write (a log agent's position database, a CNI installing binaries) and that need is written down. Not reported where a stronger finding covers the mount (a sensitive path: `sensitive-host-path-writable`; a privileged or HostProcess container: `privileged-container`), so one cause gives one finding. The writes a declared node-service kind needs (a CNI's /opt/cni/bin, a CSI plugin's /var/lib/kubelet) are not reported; for an inferred kind they stay warnings that say how to declare it.",
  fix: 'Add `readOnly: true` to the mount, or suppress with the reason the service must write there.',
  example: 'volumeMounts:\n  - {name: varlog, mountPath: /var/log, readOnly: true}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const hp of view.hostPaths) {
      if (hp.matchPath === '') continue;
      if (isSensitiveWritePath(hp.matchPath)) continue;
      const allowedByKind = isWriteAllowed(view.kindProfile, hp.matchPath);
      for (const m of hp.mounts) {
        if (!m.writable || m.container.fullHostAccess) continue;
        out.push({
          path: jsonPath(m.path, 'readOnly'),
          message: `container '${m.container.name}' mounts host path '${hp.hostPath}' writable at '${m.mount.mountPath}'`,
          allowedByKind,
        });
      }
    }
    return out;
  },
});
