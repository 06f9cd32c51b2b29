import { asObject, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Unprivileged containers should run with a seccomp profile (pod or container level). */
export const seccompProfileMissing = defineRule({
  id: 'seccomp-profile-missing',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'No seccomp profile',
  rationale:
    'Without a seccompProfile the kubelet runs containers Unconfined by default (unless the node enables SeccompDefault). Pod Security restricted requires RuntimeDefault or Localhost at pod level or on every container. Privileged containers are skipped: privilege disables seccomp anyway.',
  fix: 'Set `spec.template.spec.securityContext.seccompProfile.type: RuntimeDefault` (or per container).',
  example: 'spec:\n  template:\n    spec:\n      securityContext:\n        seccompProfile: {type: RuntimeDefault}',
  linuxOnly: true,
  check(_object, { view }) {
    if (asObject(view.podSecurityContext.seccompProfile).type) return [];
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      if (c.fullHostAccess || asObject(c.securityContext.seccompProfile).type) continue;
      out.push({
        path: jsonPath(c.path, 'securityContext', 'seccompProfile'),
        message: `container '${c.name}' has no seccomp profile and the pod sets none`,
      });
    }
    return out;
  },
});
