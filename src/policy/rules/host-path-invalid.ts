import { HOST_PATH_TYPES } from '../../k8s';
import { jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** hostPath volumes need a path without `..` elements and a known type. */
export const hostPathInvalid = defineRule({
  id: 'host-path-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: "hostPath needs a path without '..' and a known type",
  rationale:
    "The API server requires hostPath.path, rejects any '..' element in it, and accepts only the types '', DirectoryOrCreate, Directory, FileOrCreate, File, Socket, CharDevice and BlockDevice.",
  fix: "Write the normalized absolute path (e.g. '/var/log', not '/var/lib/../log') and a known type such as Directory.",
  example: 'hostPath:\n  path: /var/log\n  type: Directory',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const hp of view.hostPaths) {
      const raw = hp.volume.hostPath;
      const path = raw !== null && typeof raw === 'object' ? raw.path : undefined;
      if (typeof path !== 'string' || path === '') {
        out.push({ path: jsonPath(hp.path, 'hostPath', 'path'), message: `hostPath volume ${show(hp.name)} has no path` });
      } else if (path.includes('..') && path.split('/').includes('..')) {
        out.push({ path: jsonPath(hp.path, 'hostPath', 'path'), message: `host path ${show(path)} contains a '..' element` });
      }
      const type = raw !== null && typeof raw === 'object' ? raw.type : undefined;
      if (type !== undefined && type !== null && !HOST_PATH_TYPES.includes(type)) {
        out.push({
          path: jsonPath(hp.path, 'hostPath', 'type'),
          message: `hostPath type ${show(type)} is not one of ${HOST_PATH_TYPES.filter((t) => t).join(', ')}`,
        });
      }
    }
    return out;
  },
});
