import { parseQuantity } from '../../k8s/quantity';
import { asObject, jsonPath, parseQuantityOf, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** {@link parseQuantity}, memoized for strings. */
function quantityOf(v: unknown): number | undefined {
  return typeof v === 'string' ? parseQuantityOf(v) : parseQuantity(v as number);
}

/** A request may not be larger than the limit for the same resource. */
export const requestsExceedLimits = defineRule({
  id: 'requests-exceed-limits',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Requests must not exceed limits',
  rationale:
    'The API server rejects a container whose request for a resource is greater than its limit ("must be less than or equal to … limit").',
  fix: 'Lower the request or raise the limit so that request <= limit for every resource.',
  example: 'resources:\n  requests: {cpu: 100m, memory: 128Mi}\n  limits: {cpu: 500m, memory: 256Mi}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      const resources = asObject(c.container.resources);
      const requests = asObject(resources.requests);
      const limits = asObject(resources.limits);
      for (const name of Object.keys(requests)) {
        if (!(name in limits)) continue;
        const req = requests[name];
        const r = quantityOf(req);
        const l = quantityOf(limits[name]);
        if (r === undefined || l === undefined) continue;
        if (r > l) {
          out.push({
            path: jsonPath(c.path, 'resources', 'requests', name),
            message: `container '${c.name}' requests ${name} ${show(req)}, more than its limit ${show(limits[name])}`,
          });
        }
      }
    }
    return out;
  },
});
