/**
 * Independent structural validation of synthesized objects against the Kubernetes OpenAPI schemas shipped by the
 * `kubernetes-models` package (types, enums, required fields, apiVersion/kind). Kinds it does not model can be given
 * a validator with {@link registerSchemaValidator}; an object of a kind with no validator at all fails, so nothing
 * goes unchecked silently.
 */

import { KubernetesVersion, versionProblems } from '../../src/k8s/api-fields';
import { validateBinding, validatePolicy } from '../guardrails/admission-schema';
import { validatePodMonitor, validatePrometheusRule } from '../observability/monitoring-schema';
import { CRD_KINDS, crdSchemaErrors } from './crd-schema';

type Validator = (object: any) => void;

const custom = new Map<string, Validator>();

function fromErrors(check: (manifest: unknown) => string[]): Validator {
  return (object) => {
    const errors = check(object);
    if (errors.length > 0) {
      throw new Error(`${object.kind} ${object.metadata?.name} is not valid for its published schema: ${errors.join('; ')}`);
    }
  };
}

/** Registers a validator for `apiVersion` + `kind` (for CRDs and API versions the schema package lacks). */
export function registerSchemaValidator(apiVersion: string, kind: string, validator: Validator): void {
  custom.set(`${apiVersion}/${kind}`, validator);
}

function modelPath(apiVersion: string, kind: string): string {
  return apiVersion.includes('/') ? `kubernetes-models/${apiVersion}/${kind}` : `kubernetes-models/${apiVersion}/${kind}`;
}

/**
 * Throws with the object's identity and the schema errors when `object` is not valid (or has a field `version` lacks,
 * 1.28 unless given).
 */
export function validateSchema(object: any, version: KubernetesVersion = KubernetesVersion.V1_28): void {
  const id = `${object?.kind} ${object?.metadata?.namespace ?? ''}/${object?.metadata?.name}`;
  const unknown = versionProblems(object, version);
  if (unknown.length > 0) throw new Error(`${id} is not accepted by Kubernetes ${version}: ${unknown.join('; ')}`);
  const key = `${object?.apiVersion}/${object?.kind}`;
  const validator = custom.get(key);
  if (validator) {
    validator(object);
    return;
  }
  let Model: any;
  try {
    Model = require(modelPath(object.apiVersion, object.kind))[object.kind];
  } catch {
    throw new Error(`${id}: no schema available for ${key}; register a validator for it`);
  }
  try {
    new Model(object).validate();
  } catch (e) {
    throw new Error(`${id} is not valid for the Kubernetes API schema: ${(e as Error).message}`);
  }
}

/** Validates every object (for Kubernetes `version`, 1.28 unless given). */
export function validateAll(objects: any[], version: KubernetesVersion = KubernetesVersion.V1_28): void {
  for (const o of objects) validateSchema(o, version);
}

// Kinds the schema package does not model at the 1.28 API versions this library emits: validated against their
// published schemas by focused structural validators.
registerSchemaValidator('admissionregistration.k8s.io/v1beta1', 'ValidatingAdmissionPolicy', fromErrors(validatePolicy));
registerSchemaValidator('admissionregistration.k8s.io/v1beta1', 'ValidatingAdmissionPolicyBinding', fromErrors(validateBinding));
registerSchemaValidator('monitoring.coreos.com/v1', 'PrometheusRule', fromErrors(validatePrometheusRule));
registerSchemaValidator('monitoring.coreos.com/v1', 'PodMonitor', fromErrors(validatePodMonitor));

// GitOps custom resources of a fleet, validated against the CRD schemas published by @kubernetes-models (ES modules,
// loaded in a child Node.js process; see crd-schema.ts).
for (const [apiVersion, kind] of CRD_KINDS) {
  registerSchemaValidator(apiVersion, kind, (object) => {
    const errors = crdSchemaErrors([object]);
    if (errors.length > 0) throw new Error(errors.join('; '));
  });
}
