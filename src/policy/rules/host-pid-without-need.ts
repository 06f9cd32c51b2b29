import { hostNamespaceFinding } from '../host-access';
import { defineRule, RuleCategory, Severity } from '../types';

/** `hostPID: true` on a kind that does not need to see host processes. */
export const hostPidWithoutNeed = defineRule({
  id: 'host-pid-without-need',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'hostPID on a kind that does not need it',
  rationale:
    "The host PID namespace shows every process on the node, with its environment and command line, and lets the container signal them. Node exporters and runtime-security agents read host processes; log agents, GPU monitors, CNI and CSI node plugins do not. Not reported for a kind declared by the kind annotation that needs it; a kind inferred from the manifest's shape gets the warning with the way to declare the kind, and a DaemonSet of no kind always gets it.",
  fix: 'Remove `hostPID: true`, or suppress with the reason the agent must see host processes.',
  example: 'spec:\n  template:\n    spec:\n      hostPID: false',
  check(_object, { view }) {
    if (view.pod.hostPID !== true) return [];
    return [hostNamespaceFinding(view, 'hostPID')];
  },
});
