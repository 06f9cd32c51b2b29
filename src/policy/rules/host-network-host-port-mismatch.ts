import { asObject, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** With `hostNetwork: true`, a hostPort must be 0 or equal to the containerPort. */
export const hostNetworkHostPortMismatch = defineRule({
  id: 'host-network-host-port-mismatch',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'With hostNetwork, hostPort must equal containerPort',
  rationale:
    'A host-network pod listens directly on the node, so the API server rejects a hostPort that differs from its containerPort ("must match containerPort when hostNetwork is true").',
  fix: 'Remove hostPort (it is implied on the host network) or set it to the containerPort.',
  example:
    'hostNetwork: true\ncontainers:\n  - name: node-exporter\n    ports:\n      - {name: metrics, containerPort: 9100, hostPort: 9100}',
  check(_object, { view }) {
    if (view.pod.hostNetwork !== true) return [];
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      c.ports.forEach((raw, i) => {
        const p = asObject(raw);
        if (typeof p.hostPort === 'number' && p.hostPort !== 0 && p.hostPort !== p.containerPort) {
          out.push({
            path: jsonPath(c.path, 'ports', i, 'hostPort'),
            message: `container '${c.name}' hostPort ${p.hostPort} differs from containerPort ${p.containerPort} on the host network`,
          });
        }
      });
    }
    return out;
  },
});
