import { KIND_ANNOTATION } from '../kinds';
import { jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Privileged containers in a kind whose normal shape is unprivileged. */
export const privilegedNotAllowed = defineRule({
  id: 'privileged-not-allowed',
  severity: Severity.ERROR,
  category: RuleCategory.HOST_ACCESS,
  title: 'Privileged container in a kind that does not need privilege',
  rationale: `Log agents, node metrics exporters and GPU monitors (per the ${KIND_ANNOTATION} annotation) work without privilege; a privileged container there is a mistake or an unreviewed escalation. CNI, CSI and security agents may be privileged (the privileged-container warning still applies).`,
  fix: 'Remove `privileged: true` and add the named capabilities the kind allows, or suppress with the reason privilege is required.',
  example: 'securityContext:\n  allowPrivilegeEscalation: false\n  capabilities:\n    drop: [ALL]\n    add: [DAC_READ_SEARCH]',
  check(_object, { view }) {
    if (view.profile.privilegedAllowed) return [];
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      if (c.privileged) {
        out.push({
          path: jsonPath(c.path, 'securityContext', 'privileged'),
          message: `container '${c.name}' is privileged, which kind '${view.profile.kind}' does not allow`,
        });
      }
    }
    return out;
  },
});
