import { hostNamespaceFinding } from '../host-access';
import { defineRule, RuleCategory, Severity } from '../types';

/** `hostIPC: true`: no node-service kind needs the host IPC namespace. */
export const hostIpcWithoutNeed = defineRule({
  id: 'host-ipc-without-need',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'hostIPC without need',
  rationale:
    'The host IPC namespace exposes shared memory and message queues of every process on the node. None of the node-service kinds (log, metrics, GPU, CNI, CSI, security) needs it, so it is reported for every kind.',
  fix: 'Remove `hostIPC: true`, or suppress with the reason the agent must share the host IPC namespace.',
  example: 'spec:\n  template:\n    spec:\n      hostIPC: false',
  check(_object, { view }) {
    if (view.pod.hostIPC !== true) return [];
    return [hostNamespaceFinding(view, 'hostIPC')];
  },
});
