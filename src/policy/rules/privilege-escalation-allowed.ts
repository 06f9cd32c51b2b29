import { jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Unprivileged containers should set `allowPrivilegeEscalation: false` explicitly. */
export const privilegeEscalationAllowed = defineRule({
  id: 'privilege-escalation-allowed',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'allowPrivilegeEscalation not false',
  rationale:
    'Unless allowPrivilegeEscalation is false, a process can gain more privileges than its parent (setuid binaries, file capabilities). The default is true; Pod Security restricted requires an explicit false. Privileged containers are skipped: they cannot set it to false.',
  fix: 'Set `securityContext.allowPrivilegeEscalation: false` on every unprivileged container.',
  example: 'securityContext:\n  allowPrivilegeEscalation: false',
  linuxOnly: true,
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      if (c.fullHostAccess || c.securityContext.allowPrivilegeEscalation === false) continue;
      out.push({
        path: jsonPath(c.path, 'securityContext', 'allowPrivilegeEscalation'),
        message: `container '${c.name}' allows privilege escalation (allowPrivilegeEscalation is ${show(c.securityContext.allowPrivilegeEscalation)})`,
      });
    }
    return out;
  },
});
