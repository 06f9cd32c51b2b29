import { MOUNT_PROPAGATIONS } from '../grammar';
import { asObject, jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Mount paths, sub-paths and propagation modes as the API server validates them. */
export const volumeMountInvalid = defineRule({
  id: 'volume-mount-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Volume mounts need a unique mountPath, a relative subPath and a known propagation',
  rationale:
    'mountPath is required and unique within a container; subPath and subPathExpr are mutually exclusive, relative and without ".."; mountPropagation is None, HostToContainer or Bidirectional.',
  fix: 'Give every mount its own absolute mountPath, use one relative subPath, and a known propagation mode.',
  example: 'volumeMounts:\n  - {name: varlog, mountPath: /var/log, readOnly: true, mountPropagation: HostToContainer}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      const paths = new Set<string>();
      c.volumeMounts.forEach((raw, i) => {
        const m = asObject(raw);
        const base = jsonPath(c.path, 'volumeMounts', i);
        if (typeof m.mountPath !== 'string' || m.mountPath === '') {
          out.push({ path: jsonPath(base, 'mountPath'), message: `container '${c.name}' mount of ${show(m.name)} has no mountPath` });
        } else if (paths.has(m.mountPath)) {
          out.push({ path: jsonPath(base, 'mountPath'), message: `container '${c.name}' mounts two volumes at '${m.mountPath}'` });
        } else {
          paths.add(m.mountPath);
        }
        const subPath = m.subPath ?? '';
        const subPathExpr = m.subPathExpr ?? '';
        if (subPath !== '' && subPathExpr !== '') {
          out.push({ path: jsonPath(base, 'subPathExpr'), message: 'subPath and subPathExpr are mutually exclusive' });
        }
        for (const [field, value] of [['subPath', subPath], ['subPathExpr', subPathExpr]] as const) {
          if (typeof value !== 'string') {
            out.push({ path: jsonPath(base, field), message: `${field} must be a string (has ${show(value)})` });
          } else if (value.startsWith('/') || value.split('/').includes('..')) {
            out.push({ path: jsonPath(base, field), message: `${field} ${show(value)} must be a relative path without '..'` });
          }
        }
        const propagation = m.mountPropagation;
        if (propagation !== undefined && propagation !== null && !MOUNT_PROPAGATIONS.includes(propagation)) {
          out.push({ path: jsonPath(base, 'mountPropagation'), message: `mountPropagation ${show(propagation)} is not one of None, HostToContainer, Bidirectional` });
        }
      });
    }
    return out;
  },
});
