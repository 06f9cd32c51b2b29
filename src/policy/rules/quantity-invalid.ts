import { quantityError } from '../../k8s/quantity';
import { asObject, isObject, jsonPath, quantityErrorOf, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

const SECTIONS = ['requests', 'limits'] as const;

/**
 * Why a quantity written as a string or number is invalid (strings are memoized), or `undefined`. A value of another
 * JSON type (a boolean, a list) is `field-type-invalid`'s finding: the API server cannot decode it at all.
 */
function errorOf(v: unknown): string | undefined {
  if (typeof v === 'string') return quantityErrorOf(v);
  return typeof v === 'number' ? quantityError(v) : undefined;
}

/** Resource quantities (requests, limits, emptyDir size limits) must parse. */
export const quantityInvalid = defineRule({
  id: 'quantity-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Resource quantities must be valid Kubernetes quantities',
  rationale:
    "The API server parses every request, limit and emptyDir sizeLimit as a quantity: digits with an optional decimal suffix (m, k, M, G…), binary suffix (Ki, Mi, Gi…) or exponent, and never negative. '1h', '512MB' or '-1' are rejected.",
  fix: "Write CPU as cores or millicores ('250m', '0.5') and memory in bytes with a binary suffix ('128Mi', '1Gi').",
  example: 'resources:\n  requests: {cpu: 100m, memory: 128Mi}\n  limits: {memory: 256Mi}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      const resources = asObject(c.container.resources);
      for (const section of SECTIONS) {
        const values = resources[section];
        if (values === undefined || values === null) continue;
        if (!isObject(values)) {
          out.push({
            path: jsonPath(c.path, 'resources', section),
            message: `${section} must be a map of quantities (has ${show(values)})`,
          });
          continue;
        }
        for (const name of Object.keys(values)) {
          const v = values[name];
          const err = errorOf(v);
          if (err)
            out.push({
              path: jsonPath(c.path, 'resources', section, name),
              message: `container '${c.name}' ${section}.${name} ${show(v)} ${err}`,
            });
        }
      }
    }
    view.volumes.forEach((v, i) => {
      const limit = asObject(asObject(v).emptyDir).sizeLimit;
      if (limit === undefined || limit === null) return;
      const err = errorOf(limit);
      if (err)
        out.push({ path: jsonPath(view.podPath, 'volumes', i, 'emptyDir', 'sizeLimit'), message: `sizeLimit ${show(limit)} ${err}` });
    });
    return out;
  },
});
