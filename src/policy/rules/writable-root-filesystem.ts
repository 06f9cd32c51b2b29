import { jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Containers should run with a read-only root filesystem. */
export const writableRootFilesystem = defineRule({
  id: 'writable-root-filesystem',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'Root filesystem writable',
  rationale:
    'A read-only root filesystem stops an attacker from dropping tools or changing the agent binary, and makes every place the agent writes explicit (an emptyDir or a declared host path). Not reported for privileged or HostProcess containers (they can remount it; the privileged finding covers them) nor for init containers that run to completion before the agent starts.',
  fix: 'Set `securityContext.readOnlyRootFilesystem: true` and mount an emptyDir where the agent needs scratch space.',
  example: 'securityContext:\n  readOnlyRootFilesystem: true\nvolumeMounts:\n  - {name: tmp, mountPath: /tmp}',
  linuxOnly: true,
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      if (c.securityContext.readOnlyRootFilesystem === true || c.fullHostAccess || (c.init && !c.sidecar)) continue;
      out.push({
        path: jsonPath(c.path, 'securityContext', 'readOnlyRootFilesystem'),
        message: `container '${c.name}' has a writable root filesystem`,
      });
    }
    return out;
  },
});
