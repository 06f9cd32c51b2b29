import { show } from '../helpers';
import { KRUISE_API_VERSIONS } from '../kinds';
import { defineRule, RuleCategory, Severity } from '../types';

/** `apiVersion` must be `apps/v1` (or an OpenKruise Advanced DaemonSet): the beta DaemonSet APIs are not served by Kubernetes 1.28. */
export const daemonsetApiVersion = defineRule({
  id: 'daemonset-api-version',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'DaemonSet apiVersion must be apps/v1 (or an OpenKruise Advanced DaemonSet)',
  rationale: `extensions/v1beta1 and apps/v1beta2 DaemonSets were removed in Kubernetes 1.16; a 1.28 API server rejects them ("no matches for kind DaemonSet"). OpenKruise Advanced DaemonSets (${KRUISE_API_VERSIONS.join(', ')}) are served by the OpenKruise CRDs and are checked as DaemonSets, with their own update strategy fields.`,
  fix: 'Set `apiVersion: apps/v1` (and add the `spec.selector` that apps/v1 requires).',
  example: 'apiVersion: apps/v1\nkind: DaemonSet',
  check(object) {
    if (object.apiVersion === 'apps/v1' || KRUISE_API_VERSIONS.includes(object.apiVersion)) return [];
    return [
      {
        path: 'apiVersion',
        message: `apiVersion ${show(object.apiVersion)} is not served for DaemonSets by Kubernetes 1.28 (only apps/v1, or ${KRUISE_API_VERSIONS.join(' / ')} with OpenKruise)`,
      },
    ];
  },
});
