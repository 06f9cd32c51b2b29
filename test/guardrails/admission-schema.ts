/**
 * Structural validators for ValidatingAdmissionPolicy / ValidatingAdmissionPolicyBinding
 * (`admissionregistration.k8s.io/v1beta1` as of Kubernetes 1.28, and `v1` from 1.30 — same field set), after
 * k8s.io/api `admissionregistration/v1beta1/types.go` and the server rules of
 * `pkg/apis/admissionregistration/validation/validation.go` (research/policy-anchors.md §6.2–6.4).
 * kubernetes-models has no classes for these objects, so this is the schema check they get.
 */

import { dns1123SubdomainError, qualifiedNameError } from '../../src/k8s';
import { arr, Check, labelSelector, metadata, obj, oneOf, opt, req, str, validate } from './schema-dsl';

const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

const namedRule = (requireAll: boolean) =>
  obj(
    {
      apiGroups: opt(arr(str())),
      apiVersions: opt(arr(str())),
      resources: opt(arr(str({ minLength: 1 }))),
      operations: opt(arr(oneOf('CREATE', 'UPDATE', 'DELETE', 'CONNECT', '*'))),
      scope: opt(oneOf('Cluster', 'Namespaced', '*')),
      resourceNames: opt(arr(str())),
    },
    (r, path, errors) => {
      if (!requireAll) return;
      for (const f of ['apiGroups', 'apiVersions', 'resources', 'operations']) {
        if (!Array.isArray(r[f]) || r[f].length === 0) errors.push(`${path}.${f}: required (at least one entry)`);
      }
      for (const res of r.resources ?? []) {
        const parts = String(res).split('/');
        if (parts.length > 2 || parts.some((p: string) => p === ''))
          errors.push(`${path}.resources: ${JSON.stringify(res)} must be resource or resource/subresource`);
      }
    },
  );

const matchResources = (inPolicy: boolean) =>
  obj(
    {
      namespaceSelector: opt(labelSelector),
      objectSelector: opt(labelSelector),
      resourceRules: opt(arr(namedRule(true))),
      excludeResourceRules: opt(arr(namedRule(true))),
      matchPolicy: opt(oneOf('Exact', 'Equivalent')),
    },
    (m, path, errors) => {
      if (inPolicy && (!Array.isArray(m.resourceRules) || m.resourceRules.length === 0)) {
        errors.push(`${path}.resourceRules: a policy's matchConstraints need at least one resource rule`);
      }
    },
  );

const validation = obj({
  expression: req(str({ minLength: 1 })),
  message: opt(str({ noLineBreaks: true })),
  messageExpression: opt(str({ minLength: 1 })),
  reason: opt(oneOf('Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge')),
});

const policySpec = obj(
  {
    paramKind: opt(obj({ apiVersion: opt(str()), kind: opt(str()) })),
    matchConstraints: req(matchResources(true)),
    validations: opt(arr(validation)),
    failurePolicy: opt(oneOf('Fail', 'Ignore')),
    auditAnnotations: opt(
      arr(obj({ key: req(str({ minLength: 1 })), valueExpression: req(str({ minLength: 1 })) }), { maxItems: 20, uniqueBy: (a) => a.key }),
    ),
    matchConditions: opt(
      arr(obj({ name: req(str({ grammar: qualifiedNameError })), expression: req(str({ minLength: 1 })) }), {
        maxItems: 64,
        uniqueBy: (c) => c.name,
      }),
    ),
    variables: opt(
      arr(obj({ name: req(str({ pattern: CEL_IDENTIFIER })), expression: req(str({ minLength: 1 })) }), { uniqueBy: (v) => v.name }),
    ),
  },
  (s, path, errors) => {
    if ((s.validations ?? []).length === 0 && (s.auditAnnotations ?? []).length === 0) {
      errors.push(`${path}: validations and auditAnnotations must not both be empty`);
    }
    for (const [i, v] of (s.validations ?? []).entries()) {
      if (/[\r\n]/.test(v.expression ?? '') && !v.message)
        errors.push(`${path}.validations[${i}].message: required when the expression has line breaks`);
    }
  },
);

const bindingSpec = obj(
  {
    policyName: req(str({ grammar: dns1123SubdomainError })),
    paramRef: opt(
      obj(
        { name: opt(str()), namespace: opt(str()), selector: opt(labelSelector), parameterNotFoundAction: req(oneOf('Allow', 'Deny')) },
        (p, path, errors) => {
          if ((p.name === undefined) === (p.selector === undefined)) errors.push(`${path}: exactly one of name and selector`);
        },
      ),
    ),
    matchResources: opt(matchResources(false)),
    validationActions: req(arr(oneOf('Deny', 'Warn', 'Audit'), { minItems: 1, uniqueBy: (a) => a })),
  },
  (s, path, errors) => {
    const actions: string[] = s.validationActions ?? [];
    if (actions.includes('Deny') && actions.includes('Warn')) errors.push(`${path}.validationActions: Deny and Warn may not be combined`);
  },
);

function topLevel(kind: string, spec: Check, apiVersions: string[]): Check {
  return obj({
    apiVersion: req(oneOf(...apiVersions)),
    kind: req(oneOf(kind)),
    metadata: req(metadata(false)),
    spec: req(spec),
  });
}

/** The admission API versions and which Kubernetes releases serve them. */
export const ADMISSION_API_VERSIONS = ['admissionregistration.k8s.io/v1beta1', 'admissionregistration.k8s.io/v1'];

/** Errors of a ValidatingAdmissionPolicy manifest (empty when valid). */
export function validatePolicy(manifest: unknown): string[] {
  return validate(topLevel('ValidatingAdmissionPolicy', policySpec, ADMISSION_API_VERSIONS), manifest);
}

/** Errors of a ValidatingAdmissionPolicyBinding manifest (empty when valid). */
export function validateBinding(manifest: unknown): string[] {
  return validate(topLevel('ValidatingAdmissionPolicyBinding', bindingSpec, ADMISSION_API_VERSIONS), manifest);
}
