import { jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, Severity } from '../types';

/** A DaemonSet's pod template must use `restartPolicy: Always`. */
export const restartPolicyNotAlways = defineRule({
  id: 'restart-policy-not-always',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Pod restartPolicy must be Always',
  rationale:
    'DaemonSet pods run for as long as the node exists; the API server only accepts `restartPolicy: Always` (the default) in a DaemonSet template.',
  fix: 'Remove `restartPolicy` from the pod template or set it to `Always`.',
  example: 'spec:\n  template:\n    spec:\n      restartPolicy: Always',
  check(_object, { view }) {
    const policy = view.pod.restartPolicy;
    // an empty restartPolicy is defaulted to Always before validation (SetDefaults_PodSpec)
    if (policy === undefined || policy === null || policy === '' || policy === 'Always') return [];
    return [
      {
        path: jsonPath(view.podPath, 'restartPolicy'),
        message: `restartPolicy ${show(policy)} is not allowed in a DaemonSet (only Always)`,
      },
    ];
  },
});
