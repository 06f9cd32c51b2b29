import { jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** `privileged: true` together with `allowPrivilegeEscalation: false` is rejected by the API server. */
export const privilegedEscalationConflict = defineRule({
  id: 'privileged-escalation-conflict',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'A privileged container cannot set allowPrivilegeEscalation: false',
  rationale:
    'The API server rejects "cannot set `allowPrivilegeEscalation` to false and `privileged` to true". cdk8s-plus emits exactly this pair when only privileged is set, because allowPrivilegeEscalation defaults to false there.',
  fix: 'For a container that must be privileged, set `allowPrivilegeEscalation: true` (or leave it unset); otherwise remove `privileged: true`.',
  example: 'securityContext:\n  privileged: true\n  allowPrivilegeEscalation: true',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      if (c.privileged && c.securityContext.allowPrivilegeEscalation === false) {
        out.push({
          path: jsonPath(c.path, 'securityContext', 'allowPrivilegeEscalation'),
          message: `container '${c.name}' sets privileged: true and allowPrivilegeEscalation: false`,
        });
      }
    }
    return out;
  },
});
