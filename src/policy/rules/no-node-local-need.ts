import { asArray, asObject } from '../helpers';
import { defineRule, RuleCategory, Severity } from '../types';

const NODE_FIELDS = ['spec.nodeName', 'status.hostIP'];

/** A DaemonSet that touches nothing node-local is probably a Deployment. */
export const noNodeLocalNeed = defineRule({
  id: 'no-node-local-need',
  severity: Severity.WARNING,
  category: RuleCategory.FIT,
  title: 'DaemonSet with no node-local need (probably a Deployment)',
  rationale:
    'A DaemonSet is for services tied one-to-one to nodes (PRACTICES P1, P2). A pod with no hostPath, no host network/PID/IPC, no hostPort and no node name or host IP from the downward API does nothing node-specific: it scales with nodes instead of load, and a Deployment would serve it better.',
  fix: 'Use a Deployment (with a HorizontalPodAutoscaler), or suppress with the node-local reason that this check cannot see.',
  example:
    'env:\n  - name: NODE_NAME\n    valueFrom:\n      fieldRef: {fieldPath: spec.nodeName}\nvolumes:\n  - {name: varlog, hostPath: {path: /var/log, type: Directory}}',
  check(_object, { view }) {
    if (view.hostPaths.length > 0) return [];
    if (view.pod.hostNetwork === true || view.pod.hostPID === true || view.pod.hostIPC === true) return [];
    for (const c of view.containers) {
      if (c.ports.some((p) => typeof asObject(p).hostPort === 'number' && asObject(p).hostPort > 0)) return [];
      const env = asArray(c.container.env);
      if (env.some((e) => NODE_FIELDS.includes(asObject(asObject(asObject(e).valueFrom).fieldRef).fieldPath))) return [];
    }
    return [
      {
        path: 'kind',
        message: 'the DaemonSet uses no hostPath, host namespace, hostPort or node name/IP from the downward API',
      },
    ];
  },
});
