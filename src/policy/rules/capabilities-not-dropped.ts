import { canonicalCapability, droppedCapabilities, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Unprivileged containers should drop ALL capabilities and add back named ones. */
export const capabilitiesNotDropped = defineRule({
  id: 'capabilities-not-dropped',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'Capabilities not dropped (no drop ALL)',
  rationale:
    'Container runtimes grant a default set of capabilities (CHOWN, DAC_OVERRIDE, NET_RAW, SETUID…) that most agents never use; NET_RAW alone allows ARP and DNS spoofing on the node network. Dropping ALL and adding back named capabilities makes every grant visible.',
  fix: 'Set `securityContext.capabilities.drop: [ALL]` and list the needed capabilities under `add`.',
  example: 'securityContext:\n  capabilities:\n    drop: [ALL]\n    add: [DAC_READ_SEARCH]',
  linuxOnly: true,
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      if (c.fullHostAccess) continue;
      const drop = droppedCapabilities(c.securityContext);
      if (drop.some((d) => canonicalCapability(d) === 'ALL')) continue;
      out.push({
        path: jsonPath(c.path, 'securityContext', 'capabilities', 'drop'),
        message: `container '${c.name}' does not drop ALL capabilities (drops ${drop.length === 0 ? 'none' : drop.join(', ')})`,
      });
    }
    return out;
  },
});
