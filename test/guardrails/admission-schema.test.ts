/**
 * The structural validators reject what the API server rejects; each case breaks one rule of a valid object.
 */

import { validateBinding, validatePolicy } from './admission-schema';
import { synthGuardrails } from './fixtures';

type Json = any;

const manifests = synthGuardrails();
// The host-access pair has every part the cases below break (variables, match conditions, a namespace selector).
const policy: Json = manifests.find((m) => m.kind === 'ValidatingAdmissionPolicy' && m.metadata.name === 'node-services-host-access');
const binding: Json = manifests.find(
  (m) => m.kind === 'ValidatingAdmissionPolicyBinding' && m.metadata.name === 'node-services-host-access',
);

function withSpec(base: Json, patch: (spec: Json) => void): Json {
  const copy = JSON.parse(JSON.stringify(base));
  patch(copy.spec);
  return copy;
}

describe('ValidatingAdmissionPolicy schema', () => {
  test('GIVEN an emitted policy THEN it is valid (baseline for the cases below)', () => {
    expect(validatePolicy(policy)).toEqual([]);
  });

  test.each<[string, (s: Json) => void, string]>([
    ['no matchConstraints', (s) => delete s.matchConstraints, 'spec.matchConstraints: required'],
    ['no resource rules', (s) => (s.matchConstraints.resourceRules = []), 'at least one resource rule'],
    ['unknown operation', (s) => (s.matchConstraints.resourceRules[0].operations = ['PATCH']), 'not one of CREATE'],
    ['rule without resources', (s) => delete s.matchConstraints.resourceRules[0].resources, 'resources: required'],
    ['bad failure policy', (s) => (s.failurePolicy = 'Retry'), 'failurePolicy'],
    ['validation without expression', (s) => delete s.validations[0].expression, 'expression: required'],
    ['message with a line break', (s) => (s.validations[0].message = 'a\nb'), 'line breaks'],
    ['unknown reason', (s) => (s.validations[0].reason = 'Denied'), 'reason'],
    ['variable name not an identifier', (s) => (s.variables[0].name = 'pod-spec'), 'variables[0].name'],
    ['duplicate variable', (s) => s.variables.push({ ...s.variables[0] }), 'duplicate'],
    ['match condition name not qualified', (s) => (s.matchConditions[0].name = 'bad name'), 'matchConditions[0].name'],
    ['no validations nor audit annotations', (s) => (s.validations = []), 'must not both be empty'],
    ['typo in a field name', (s) => (s.validation = s.validations), 'spec.validation: unknown field'],
  ])('GIVEN %s THEN the policy is rejected', (_t, patch, fragment) => {
    expect(validatePolicy(withSpec(policy, patch)).join('\n')).toContain(fragment);
  });

  test('GIVEN a namespace on the cluster-scoped policy THEN it is rejected', () => {
    expect(validatePolicy({ ...policy, metadata: { ...policy.metadata, namespace: 'x' } }).join('\n')).toContain('cluster-scoped');
  });

  test('GIVEN an unknown apiVersion THEN it is rejected', () => {
    expect(validatePolicy({ ...policy, apiVersion: 'admissionregistration.k8s.io/v1alpha1' }).join('\n')).toContain('apiVersion');
  });
});

describe('ValidatingAdmissionPolicyBinding schema', () => {
  test('GIVEN an emitted binding THEN it is valid', () => {
    expect(validateBinding(binding)).toEqual([]);
  });

  test.each<[string, (s: Json) => void, string]>([
    ['Deny with Warn', (s) => (s.validationActions = ['Deny', 'Warn']), 'may not be combined'],
    ['no actions', (s) => (s.validationActions = []), 'at least 1'],
    ['missing actions', (s) => delete s.validationActions, 'validationActions: required'],
    ['unknown action', (s) => (s.validationActions = ['Block']), 'not one of Deny'],
    ['duplicate action', (s) => (s.validationActions = ['Audit', 'Audit']), 'duplicate'],
    ['missing policy name', (s) => delete s.policyName, 'policyName: required'],
    ['selector In without values', (s) => (s.matchResources.namespaceSelector.matchExpressions[0].values = []), 'must be non-empty'],
    ['selector operator typo', (s) => (s.matchResources.namespaceSelector.matchExpressions[0].operator = 'NotEquals'), 'operator'],
    ['paramRef without parameterNotFoundAction', (s) => (s.paramRef = { name: 'p' }), 'parameterNotFoundAction: required'],
  ])('GIVEN %s THEN the binding is rejected', (_t, patch, fragment) => {
    expect(validateBinding(withSpec(binding, patch)).join('\n')).toContain(fragment);
  });
});
