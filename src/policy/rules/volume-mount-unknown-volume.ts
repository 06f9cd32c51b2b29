import { asObject, jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Every volume mount must name a volume of the pod. */
export const volumeMountUnknownVolume = defineRule({
  id: 'volume-mount-unknown-volume',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Volume mounts must refer to a volume of the pod',
  rationale:
    'The API server rejects a volumeMount whose name matches no entry of spec.template.spec.volumes ("volumeMounts[…].name: Not found").',
  fix: "Add the volume to `spec.template.spec.volumes`, or correct the mount's `name`.",
  example:
    'volumes:\n  - {name: varlog, hostPath: {path: /var/log, type: Directory}}\ncontainers:\n  - name: agent\n    volumeMounts:\n      - {name: varlog, mountPath: /var/log, readOnly: true}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      c.volumeMounts.forEach((raw, i) => {
        const name = asObject(raw).name;
        if (typeof name !== 'string' || !view.volumesByName.has(name)) {
          out.push({
            path: jsonPath(c.path, 'volumeMounts', i, 'name'),
            message: `container '${c.name}' mounts volume ${show(name)}, which the pod does not define`,
          });
        }
      });
    }
    return out;
  },
});
