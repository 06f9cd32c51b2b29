import { jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Privileged containers. */
export const privilegedContainer = defineRule({
  id: 'privileged-container',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'Privileged container',
  rationale:
    'A privileged container has every capability, all host devices and no seccomp or AppArmor confinement: it is root on the node. Only some CSI drivers and CNIs need it; most agents work with a few named capabilities.',
  fix: 'Remove `privileged: true` and add only the capabilities the agent needs, or suppress with the reason privilege is required.',
  example: 'securityContext:\n  privileged: false\n  capabilities:\n    drop: [ALL]\n    add: [NET_ADMIN]',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      if (c.privileged) {
        out.push({ path: jsonPath(c.path, 'securityContext', 'privileged'), message: `container '${c.name}' is privileged` });
      }
    }
    return out;
  },
});
