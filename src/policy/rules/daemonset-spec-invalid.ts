import { asObject, isNonNegativeInteger, jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** The DaemonSet spec's own fields: a template with containers, non-negative counters, no deadline. */
export const daemonsetSpecInvalid = defineRule({
  id: 'daemonset-spec-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'DaemonSet spec fields must be valid',
  rationale:
    'The API server requires a pod template with at least one container, non-negative minReadySeconds and revisionHistoryLimit, no activeDeadlineSeconds (a DaemonSet pod runs forever) and no ephemeral containers in a template.',
  fix: 'Give the template at least one container, use non-negative integers, and remove activeDeadlineSeconds and ephemeralContainers from the template.',
  example:
    'spec:\n  minReadySeconds: 10\n  revisionHistoryLimit: 10\n  template:\n    spec:\n      containers:\n        - name: agent\n          image: registry.example.com/agent:1.2.3',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    if (view.object.spec === undefined || view.object.spec === null) {
      return [{ path: 'spec', message: 'spec is missing; a DaemonSet needs spec.selector and spec.template' }];
    }
    if (view.spec.template === undefined || view.spec.template === null) {
      out.push({ path: 'spec.template', message: 'spec.template is missing' });
    } else if (!Array.isArray(view.pod.containers) || view.pod.containers.length === 0) {
      out.push({
        path: jsonPath(view.podPath, 'containers'),
        message: `the pod template needs at least one container (containers is ${show(view.pod.containers)})`,
      });
    }
    for (const field of ['minReadySeconds', 'revisionHistoryLimit'] as const) {
      const v = view.spec[field];
      if (v !== undefined && v !== null && !isNonNegativeInteger(v)) {
        out.push({ path: jsonPath('spec', field), message: `${field} must be a non-negative integer (has ${show(v)})` });
      }
    }
    if (view.pod.activeDeadlineSeconds !== undefined && view.pod.activeDeadlineSeconds !== null) {
      out.push({
        path: jsonPath(view.podPath, 'activeDeadlineSeconds'),
        message: `activeDeadlineSeconds must not be set on a DaemonSet template (has ${show(view.pod.activeDeadlineSeconds)})`,
      });
    }
    const ephemeral = asObject(view.pod).ephemeralContainers;
    if (Array.isArray(ephemeral) && ephemeral.length > 0) {
      out.push({
        path: jsonPath(view.podPath, 'ephemeralContainers'),
        message: `ephemeral containers are not allowed in a pod template (has ${ephemeral.length})`,
      });
    }
    return out;
  },
});
