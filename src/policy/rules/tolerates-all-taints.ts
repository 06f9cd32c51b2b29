import { KIND_ANNOTATION } from '../kinds';
import { asArray, asObject, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** A blanket `{operator: Exists}` toleration on a kind that is not node infrastructure. */
export const toleratesAllTaints = defineRule({
  id: 'tolerates-all-taints',
  severity: Severity.WARNING,
  category: RuleCategory.FIT,
  title: 'Blanket toleration on a kind that is not node infrastructure',
  rationale: `A toleration with no key and operator Exists matches every taint: the pod lands on control-plane nodes, GPU nodes, nodes being drained for NoExecute maintenance and nodes tainted precisely to keep workloads off. CNI, CSI, node metrics and security agents are node infrastructure and must run everywhere, and a kind declared by the ${KIND_ANNOTATION} annotation as one of them is not reported (an inferred one gets the warning with the way to declare it); other kinds should tolerate the taints of the pools they target (PRACTICES P3).`,
  fix: 'List the taints to tolerate (e.g. `{key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}`).',
  example: 'tolerations:\n  - {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    asArray(view.pod.tolerations).forEach((raw, i) => {
      const t = asObject(raw);
      if ((t.key ?? '') !== '' || t.operator !== 'Exists') return;
      out.push({
        path: jsonPath(view.podPath, 'tolerations', i),
        message: `toleration {operator: Exists${t.effect ? `, effect: ${t.effect}` : ''}} tolerates every ${t.effect ? `${t.effect} ` : ''}taint${view.kindProfile.infrastructure ? '' : `, but kind '${view.kindProfile.kind}' is not node infrastructure`}`,
        allowedByKind: view.kindProfile.infrastructure,
      });
    });
    return out;
  },
});
