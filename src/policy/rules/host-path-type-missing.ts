import { jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** hostPath volumes should state what they expect to find (`type`). */
export const hostPathTypeMissing = defineRule({
  id: 'host-path-type-missing',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'hostPath without type',
  rationale:
    'Without a type the kubelet performs no check: a missing path is silently created as an empty root-owned directory, and a socket or file path may turn out to be a directory. Directory, File or Socket make a wrong node fail fast; DirectoryOrCreate states that creating it is intended. Read-only host trees (/proc, /sys, /var/log) commonly omit the type upstream and only read what is there: info for those, a warning for writable mounts.',
  fix: 'Set `hostPath.type` (Directory, DirectoryOrCreate, File, FileOrCreate, Socket, CharDevice or BlockDevice).',
  example: 'hostPath:\n  path: /var/log\n  type: Directory',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const hp of view.hostPaths) {
      if (hp.type !== '') continue;
      out.push({
        path: jsonPath(hp.path, 'hostPath', 'type'),
        message: `hostPath volume '${hp.name}' ('${hp.hostPath}') has no type${hp.writable ? '' : ' (mounted read-only)'}`,
        severity: hp.writable ? undefined : Severity.INFO,
      });
    }
    return out;
  },
});
