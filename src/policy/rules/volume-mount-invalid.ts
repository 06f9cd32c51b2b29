import { MOUNT_PROPAGATIONS } from '../../k8s';
import { asObject, jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Checks `subPath` or `subPathExpr` (already defaulted to `''`) of mount `index` of a container. */
function checkSubPath(field: 'subPath' | 'subPathExpr', value: unknown, containerPath: string, index: number, out: RuleFinding[]): void {
  if (typeof value !== 'string') {
    out.push({ path: jsonPath(containerPath, 'volumeMounts', index, field), message: `${field} must be a string (has ${show(value)})` });
  } else if (value !== '' && (value.startsWith('/') || value.split('/').includes('..'))) {
    out.push({
      path: jsonPath(containerPath, 'volumeMounts', index, field),
      message: `${field} ${show(value)} must be a relative path without '..'`,
    });
  }
}

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
        if (typeof m.mountPath !== 'string' || m.mountPath === '') {
          out.push({
            path: jsonPath(c.path, 'volumeMounts', i, 'mountPath'),
            message: `container '${c.name}' mount of ${show(m.name)} has no mountPath`,
          });
        } else if (paths.has(m.mountPath)) {
          out.push({
            path: jsonPath(c.path, 'volumeMounts', i, 'mountPath'),
            message: `container '${c.name}' mounts two volumes at '${m.mountPath}'`,
          });
        } else {
          paths.add(m.mountPath);
        }
        const subPath = m.subPath ?? '';
        const subPathExpr = m.subPathExpr ?? '';
        if (subPath !== '' && subPathExpr !== '') {
          out.push({ path: jsonPath(c.path, 'volumeMounts', i, 'subPathExpr'), message: 'subPath and subPathExpr are mutually exclusive' });
        }
        checkSubPath('subPath', subPath, c.path, i, out);
        checkSubPath('subPathExpr', subPathExpr, c.path, i, out);
        const propagation = m.mountPropagation;
        if (propagation !== undefined && propagation !== null && !MOUNT_PROPAGATIONS.includes(propagation)) {
          out.push({
            path: jsonPath(c.path, 'volumeMounts', i, 'mountPropagation'),
            message: `mountPropagation ${show(propagation)} is not one of None, HostToContainer, Bidirectional`,
          });
        }
      });
    }
    return out;
  },
});
