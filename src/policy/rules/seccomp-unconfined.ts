import { asObject, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** `seccompProfile.type: Unconfined` at pod or container level. */
export const seccompUnconfined = defineRule({
  id: 'seccomp-unconfined',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'Seccomp explicitly Unconfined',
  rationale:
    'Unconfined turns off the syscall filter that blocks kernel interfaces containers never need (keyctl, unshare, bpf for unprivileged callers…); Pod Security baseline forbids it. eBPF agents that need more syscalls should use a Localhost profile.',
  fix: 'Use `seccompProfile: {type: RuntimeDefault}` or a `Localhost` profile.',
  example: 'securityContext:\n  seccompProfile:\n    type: RuntimeDefault',
  linuxOnly: true,
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    if (asObject(view.podSecurityContext.seccompProfile).type === 'Unconfined') {
      out.push({
        path: jsonPath(view.podPath, 'securityContext', 'seccompProfile', 'type'),
        message: 'the pod sets seccompProfile type Unconfined',
      });
    }
    for (const c of view.containers) {
      if (asObject(c.securityContext.seccompProfile).type === 'Unconfined') {
        out.push({
          path: jsonPath(c.path, 'securityContext', 'seccompProfile', 'type'),
          message: `container '${c.name}' sets seccompProfile type Unconfined`,
        });
      }
    }
    return out;
  },
});
