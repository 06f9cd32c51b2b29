import { hostNamespaceNeeds } from '../host-access';
import { jsonPath } from '../helpers';
import { defineRule, RuleCategory, Severity } from '../types';

/** `hostPID: true` on a kind that does not need to see host processes. */
export const hostPidWithoutNeed = defineRule({
  id: 'host-pid-without-need',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'hostPID on a kind that does not need it',
  rationale:
    'The host PID namespace shows every process on the node, with its environment and command line, and lets the container signal them. Node exporters and runtime-security agents read host processes; log agents, GPU monitors, CNI and CSI node plugins do not.',
  fix: 'Remove `hostPID: true`, or suppress with the reason the agent must see host processes.',
  example: 'spec:\n  template:\n    spec:\n      hostPID: false',
  check(_object, { view }) {
    if (view.pod.hostPID !== true || hostNamespaceNeeds(view.profile).hostPID) return [];
    return [{ path: jsonPath(view.podPath, 'hostPID'), message: `hostPID is true, which kind '${view.profile.kind}' does not need` }];
  },
});
