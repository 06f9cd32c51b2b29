import { asObject, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** `mountPropagation: Bidirectional` is only allowed in a privileged container. */
export const bidirectionalPropagationUnprivileged = defineRule({
  id: 'bidirectional-propagation-unprivileged',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Bidirectional mount propagation requires a privileged container',
  rationale:
    'The API server rejects Bidirectional propagation unless the same container has `securityContext.privileged: true` ("Bidirectional mount propagation is available only to privileged containers"). CSI node plugins need it for /var/lib/kubelet.',
  fix: 'Make the container that mounts with Bidirectional privileged (with allowPrivilegeEscalation: true), or use HostToContainer if it only needs to see host mounts.',
  example:
    'containers:\n  - name: csi-driver\n    securityContext: {privileged: true, allowPrivilegeEscalation: true}\n    volumeMounts:\n      - {name: kubelet-dir, mountPath: /var/lib/kubelet, mountPropagation: Bidirectional}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      if (c.privileged) continue;
      c.volumeMounts.forEach((m, i) => {
        if (asObject(m).mountPropagation === 'Bidirectional') {
          out.push({
            path: jsonPath(c.path, 'volumeMounts', i, 'mountPropagation'),
            message: `container '${c.name}' mounts '${asObject(m).mountPath}' with Bidirectional propagation but is not privileged`,
          });
        }
      });
    }
    return out;
  },
});
