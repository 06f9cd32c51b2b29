import { quantityError } from '../../k8s/quantity';
import { asObject, isObject, jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

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
      for (const section of ['requests', 'limits']) {
        const values = resources[section];
        if (values === undefined || values === null) continue;
        const base = jsonPath(c.path, 'resources', section);
        if (!isObject(values)) {
          out.push({ path: base, message: `${section} must be a map of quantities (has ${show(values)})` });
          continue;
        }
        for (const [name, v] of Object.entries(values)) {
          const err = typeof v === 'string' || typeof v === 'number' ? quantityError(v) : 'must be a quantity';
          if (err) out.push({ path: jsonPath(base, name), message: `container '${c.name}' ${section}.${name} ${show(v)} ${err}` });
        }
      }
    }
    view.volumes.forEach((v, i) => {
      const limit = asObject(asObject(v).emptyDir).sizeLimit;
      if (limit === undefined || limit === null) return;
      const err = typeof limit === 'string' || typeof limit === 'number' ? quantityError(limit) : 'must be a quantity';
      if (err) out.push({ path: jsonPath(view.podPath, 'volumes', i, 'emptyDir', 'sizeLimit'), message: `sizeLimit ${show(limit)} ${err}` });
    });
    return out;
  },
});
