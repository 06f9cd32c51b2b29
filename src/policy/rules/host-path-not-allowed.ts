import { describeHostPathAllowlist, isHostPathAllowed, KIND_ANNOTATION } from '../kinds';
import { jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Host paths must be on the allowlist of the DaemonSet's node-service kind. */
export const hostPathNotAllowed = defineRule({
  id: 'host-path-not-allowed',
  severity: Severity.ERROR,
  category: RuleCategory.HOST_ACCESS,
  title: "hostPath must be on the node-service kind's allowlist",
  rationale: `Each kind of node service (from the ${KIND_ANNOTATION} annotation) may mount only the host paths its job needs, read-only unless the allowlist says read-write: a log agent reads /var/log, a CNI writes /opt/cni/bin and /etc/cni/net.d. Anything else widens what a compromised agent can reach on every node. DaemonSets without the annotation use the generic profile, which has no path allowlist.`,
  fix: 'Mount a narrower path that is on the allowlist (or mount it read-only), or suppress with a written reason if the agent truly needs it.',
  example: `metadata:\n  annotations:\n    ${KIND_ANNOTATION}: log-agent\nspec:\n  template:\n    spec:\n      volumes:\n        - {name: varlog, hostPath: {path: /var/log, type: Directory}}`,
  check(_object, { view }) {
    if (!view.profile.hostPaths) return [];
    const out: RuleFinding[] = [];
    for (const hp of view.hostPaths) {
      if (hp.matchPath === '' || isHostPathAllowed(view.profile, hp.matchPath, hp.writable)) continue;
      out.push({
        path: jsonPath(hp.path, 'hostPath', 'path'),
        message: `host path '${hp.hostPath}' (${hp.writable ? 'read-write' : 'read-only'}) is not allowed for kind '${view.profile.kind}'; allowed: ${describeHostPathAllowlist(view.profile)}`,
      });
    }
    return out;
  },
});
