import { imagePullPolicyError, isExtendedResourceName, isHugePagesResourceName, resourceRequirementsProblems } from '../../k8s';
import { asObject, jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** The resource problems this rule reports (quantity syntax and request > limit have their own rules). */
function isCountedResourceProblem(field: string, message: string): boolean {
  const name = /^(?:requests|limits)\['(.+)'\]$/.exec(field)?.[1];
  if (name === undefined) return field === 'requests' && message.includes('huge pages');
  if (!isExtendedResourceName(name) && !isHugePagesResourceName(name)) return false;
  return /whole number|needs a limit|must equal its limit/.test(message);
}

/** Container fields the API server validates that other rules do not cover: imagePullPolicy, extended resources and huge pages. */
export const containerFieldsInvalid = defineRule({
  id: 'container-fields-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'imagePullPolicy, extended resources and huge pages as the API server validates them',
  rationale:
    'Kubernetes 1.28 rejects an imagePullPolicy other than Always, IfNotPresent or Never; an extended resource (nvidia.com/gpu, any name with a domain outside kubernetes.io) requested without a limit, with a request different from its limit, or with a fraction (they are counted in whole units and cannot be overcommitted); huge pages (hugepages-2Mi…) requested without a limit equal to the request, or without a cpu or memory request or limit.',
  fix: 'Use one of Always, IfNotPresent, Never; give extended resources and huge pages a whole-number limit equal to the request (a limit alone is enough: the request defaults to it); request cpu or memory next to huge pages.',
  example: 'resources:\n  requests: {cpu: 100m, memory: 128Mi}\n  limits: {memory: 256Mi, nvidia.com/gpu: 1}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      const policy = c.container.imagePullPolicy;
      // an empty imagePullPolicy is defaulted (Always for :latest, else IfNotPresent) before validation (SetDefaults_Container)
      if (policy !== undefined && policy !== null && policy !== '') {
        const err = imagePullPolicyError(policy);
        if (err)
          out.push({ path: jsonPath(c.path, 'imagePullPolicy'), message: `container '${c.name}' imagePullPolicy ${show(policy)} ${err}` });
      }
      const resources = asObject(c.container.resources);
      const problems = resourceRequirementsProblems(asObject(resources.requests), asObject(resources.limits));
      for (const p of problems) {
        if (!isCountedResourceProblem(p.field, p.message)) continue;
        const m = /^(requests|limits)\['(.+)'\]$/.exec(p.field);
        const path = m ? jsonPath(c.path, 'resources', m[1], m[2]) : jsonPath(c.path, 'resources', p.field);
        const value = m ? asObject(resources[m[1]])[m[2]] : undefined;
        out.push({ path, message: `container '${c.name}' ${p.field}${value === undefined ? '' : ` ${show(value)}`}: ${p.message}` });
      }
    }
    return out;
  },
});
