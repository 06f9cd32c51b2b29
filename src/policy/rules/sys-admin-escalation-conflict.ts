import { addedCapabilities, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Adding the literal `CAP_SYS_ADMIN` together with `allowPrivilegeEscalation: false` is rejected. */
export const sysAdminEscalationConflict = defineRule({
  id: 'sys-admin-escalation-conflict',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'CAP_SYS_ADMIN cannot be added with allowPrivilegeEscalation: false',
  rationale:
    'The API server rejects "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN". It compares the literal string `CAP_SYS_ADMIN`; the spelling `SYS_ADMIN` is accepted by the API and is what container runtimes expect.',
  fix: 'Spell the capability `SYS_ADMIN` (without the CAP_ prefix), or allow privilege escalation if the workload truly needs it.',
  example: 'securityContext:\n  allowPrivilegeEscalation: false\n  capabilities:\n    drop: [ALL]\n    add: [SYS_ADMIN]',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      if (c.securityContext.allowPrivilegeEscalation !== false) continue;
      addedCapabilities(c.securityContext).forEach((cap, i) => {
        if (cap === 'CAP_SYS_ADMIN') {
          out.push({
            path: jsonPath(c.path, 'securityContext', 'capabilities', 'add', i),
            message: `container '${c.name}' adds 'CAP_SYS_ADMIN' while allowPrivilegeEscalation is false`,
          });
        }
      });
    }
    return out;
  },
});
