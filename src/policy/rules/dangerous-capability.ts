import { DANGEROUS_CAPABILITIES } from '../host-access';
import { addedCapabilities, canonicalCapability, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Added capabilities that give control over the node. */
export const dangerousCapability = defineRule({
  id: 'dangerous-capability',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'Dangerous capability added',
  rationale: `${DANGEROUS_CAPABILITIES.join(', ')} each give a container power over the node or other workloads (SYS_ADMIN is close to root, SYS_MODULE loads kernel code, SYS_PTRACE reads other processes, NET_ADMIN rewrites node networking). A node service should add one only when its job needs it, with a written reason. Not reported for the capabilities a declared node-service kind needs by default (NET_ADMIN and NET_RAW for a CNI, BPF and SYS_PTRACE for a runtime-security sensor); the other capabilities on a kind's allowlist need a written reason (a suppression). For an inferred kind nothing is silenced: the warning says how to declare the kind. Not reported on privileged or HostProcess containers, which have every capability anyway (the privileged finding covers them).`,
  fix: 'Remove the capability, or replace it with a narrower one (PERFMON + BPF instead of SYS_ADMIN for eBPF on kernels >= 5.8), or suppress with the reason.',
  example: 'securityContext:\n  capabilities:\n    drop: [ALL]\n    add: [SYS_TIME]',
  linuxOnly: true,
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    const needed = view.kindProfile.defaultCapabilities;
    for (const c of view.containers) {
      if (c.fullHostAccess) continue;
      addedCapabilities(c.securityContext).forEach((cap, i) => {
        const name = canonicalCapability(cap);
        if (DANGEROUS_CAPABILITIES.includes(name)) {
          out.push({
            path: jsonPath(c.path, 'securityContext', 'capabilities', 'add', i),
            message: `container '${c.name}' adds dangerous capability '${String(cap)}'`,
            allowedByKind: needed.includes(name),
          });
        }
      });
    }
    return out;
  },
});
