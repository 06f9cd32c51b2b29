import { jsonPath } from '../helpers';
import { boundRules, ruleDangers, serviceAccountOf } from '../rbac';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Dangerous RBAC bound to the DaemonSet's ServiceAccount by roles in the input. */
export const serviceAccountRbac = defineRule({
  id: 'service-account-rbac',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: "Dangerous RBAC bound to the DaemonSet's ServiceAccount",
  rationale:
    "A DaemonSet's token is on every node: whoever takes over one node gets its permissions. Wildcards grant every permission they cover (including future ones), reading Secrets reveals every credential in reach, pods/exec runs commands in other pods, escalate/bind/impersonate grant more than the role has, and nodes/proxy reaches every kubelet's API. Node agents need get/list/watch on pods, namespaces and nodes (research: fluent-bit, Vector, Tetragon), little else.",
  fix: 'Narrow the role: list the resources and verbs the agent uses; read Secrets by resourceNames only; drop pods/exec, escalate, bind, impersonate and nodes/proxy, or suppress with the reason.',
  example:
    'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: fluent-bit}\nrules:\n  - {apiGroups: [""], resources: [pods, namespaces], verbs: [get, list, watch]}',
  check(_object, { view, objects }) {
    const sa = serviceAccountOf(view);
    const out: RuleFinding[] = [];
    for (const r of boundRules(objects, sa.name, sa.namespace)) {
      for (const danger of ruleDangers(r)) {
        out.push({
          path: jsonPath(view.podPath, sa.field),
          message: `ServiceAccount '${sa.name}' is bound by ${r.binding} to ${r.role}, whose rules[${r.index}] ${danger}`,
        });
      }
    }
    return out;
  },
});
