import { jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, Severity } from '../types';

/** The deprecated `serviceAccount` pod field. */
export const deprecatedServiceAccountField = defineRule({
  id: 'deprecated-service-account-field',
  severity: Severity.WARNING,
  category: RuleCategory.FIT,
  title: 'Deprecated serviceAccount field',
  rationale:
    '`spec.serviceAccount` is a deprecated alias of `serviceAccountName`. When both are set and differ, serviceAccountName wins and the other is misleading; tools that read only one of them see a different identity than the pod gets.',
  fix: 'Remove `serviceAccount` and set `serviceAccountName` only.',
  example: 'spec:\n  template:\n    spec:\n      serviceAccountName: fluent-bit',
  check(_object, { view }) {
    const sa = view.pod.serviceAccount;
    if (sa === undefined || sa === null || sa === '') return [];
    const name = view.pod.serviceAccountName;
    const differs = typeof name === 'string' && name !== '' && name !== sa;
    return [
      {
        path: jsonPath(view.podPath, 'serviceAccount'),
        message: differs
          ? `serviceAccount ${show(sa)} differs from serviceAccountName ${show(name)}, which is the one that applies`
          : `serviceAccount ${show(sa)} is the deprecated alias of serviceAccountName`,
      },
    ];
  },
});
