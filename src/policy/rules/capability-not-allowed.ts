import { KIND_ANNOTATION } from '../kinds';
import { addedCapabilities, canonicalCapability, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Added capabilities must be on the kind's capability allowlist. */
export const capabilityNotAllowed = defineRule({
  id: 'capability-not-allowed',
  severity: Severity.ERROR,
  category: RuleCategory.HOST_ACCESS,
  title: "Capability outside the node-service kind's allowlist",
  rationale: `Each kind of node service (from the ${KIND_ANNOTATION} annotation) has a short list of capabilities its job needs: a log agent DAC_READ_SEARCH, a node exporter SYS_TIME, a CNI the NET_* family. Anything else is an unreviewed grant on every node. The generic profile has no capability allowlist.`,
  fix: 'Remove the capability, or suppress with a written reason if the agent truly needs it.',
  example: `metadata:\n  annotations:\n    ${KIND_ANNOTATION}: monitoring-agent\n...\nsecurityContext:\n  capabilities:\n    drop: [ALL]\n    add: [SYS_TIME]`,
  linuxOnly: true,
  check(_object, { view }) {
    const allowed = view.profile.capabilities;
    if (!allowed) return [];
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      addedCapabilities(c.securityContext).forEach((cap, i) => {
        if (allowed.includes(canonicalCapability(cap))) return;
        out.push({
          path: jsonPath(c.path, 'securityContext', 'capabilities', 'add', i),
          message: `container '${c.name}' adds '${String(cap)}', which kind '${view.profile.kind}' does not allow (allowed: ${allowed.join(', ') || 'none'})`,
        });
      });
    }
    return out;
  },
});
