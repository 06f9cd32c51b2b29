import { defineRule, RuleCategory, Severity } from '../types';

/** Node services belong in a system or platform namespace, not `default`. */
export const defaultNamespace = defineRule({
  id: 'default-namespace',
  severity: Severity.WARNING,
  category: RuleCategory.FIT,
  title: 'DaemonSet in the default namespace (or without a namespace)',
  rationale:
    'Node services need their own namespace so that Pod Security labels, RBAC and quotas can be set for privileged agents without loosening them for applications (PRACTICES P8, P9). Without metadata.namespace the object lands in whatever namespace the applying context uses, usually default.',
  fix: 'Set `metadata.namespace` to a platform namespace such as `logging`, `monitoring` or `kube-system`.',
  example: 'metadata:\n  name: fluent-bit\n  namespace: logging',
  check(_object, { view }) {
    const ns = view.metadata.namespace;
    if (ns === undefined || ns === null || ns === '') {
      return [
        { path: 'metadata.namespace', message: 'the DaemonSet has no namespace, so it lands in the current namespace (usually default)' },
      ];
    }
    if (ns === 'default') return [{ path: 'metadata.namespace', message: "the DaemonSet is in namespace 'default'" }];
    return [];
  },
});
