import { jsonPath } from '../helpers';
import { boundRules, hasServiceAccount, isBindingSubject, serviceAccountOf } from '../rbac';
import { defineRule, RuleCategory, Severity } from '../types';

/** The pods' ServiceAccount is not in the input. */
export const serviceAccountMissing = defineRule({
  id: 'service-account-missing',
  severity: Severity.WARNING,
  category: RuleCategory.FIT,
  title: 'ServiceAccount not in the input',
  rationale:
    'The DaemonSet controller cannot create a pod whose ServiceAccount does not exist ("serviceaccount not found"), so every node stays without its agent until someone creates it. When the input binds roles to it (a chart render, a bundle) but does not create it, that is a warning; otherwise the account is probably managed elsewhere (info). The default ServiceAccount always exists.',
  fix: 'Add the ServiceAccount to the manifests (or fix the name in serviceAccountName).',
  example: 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: fluent-bit, namespace: logging}',
  check(_object, { view, objects }) {
    const sa = serviceAccountOf(view);
    if (sa.name === 'default' || hasServiceAccount(objects, sa.name, sa.namespace)) return [];
    const bound = boundRules(objects, sa.name, sa.namespace).length > 0 || isBindingSubject(objects, sa.name, sa.namespace);
    return [
      {
        path: jsonPath(view.podPath, sa.field),
        message: `ServiceAccount '${sa.name}'${sa.namespace ? ` in '${sa.namespace}'` : ''} is not in the input${bound ? ', although the input binds roles to it' : ''}`,
        severity: bound ? undefined : Severity.INFO,
      },
    ];
  },
});
