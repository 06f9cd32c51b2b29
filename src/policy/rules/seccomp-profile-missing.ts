import { asObject, jsonPath } from '../helpers';
import { defineRule, RuleCategory, Severity } from '../types';

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
    const missing = view.containers.filter((c) => !c.fullHostAccess && !asObject(c.securityContext.seccompProfile).type);
    if (missing.length === 0) return [];
    if (missing.length === 1) {
      const c = missing[0];
      return [
        {
          path: jsonPath(c.path, 'securityContext', 'seccompProfile'),
          message: `container '${c.name}' has no seccomp profile and the pod sets none`,
        },
      ];
    }
    // one cause, one finding: the pod-level profile is the one fix for every container
    return [
      {
        path: jsonPath(view.podPath, 'securityContext', 'seccompProfile'),
        message: `the pod sets no seccomp profile and neither do its containers ${missing.map((c) => `'${c.name}'`).join(', ')}`,
      },
    ];
  },
});
