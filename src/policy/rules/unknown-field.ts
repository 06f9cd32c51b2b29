import { describeUnknownField, describeUnservedKind, kindServedFrom } from '../../k8s/api-fields';
import { fieldCheckOf } from '../field-check';
import { defineRule, RuleCategory, Severity } from '../types';

/** Every field, at any depth of every object whose kind the field data knows, must exist in the target version. */
export const unknownField = defineRule({
  id: 'unknown-field',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  allKinds: true,
  title: 'Every field must exist in the target Kubernetes version',
  rationale:
    'kubectl sends objects with strict field validation (the default since kubectl 1.25; server-side `fieldValidation=Strict`), and the API server refuses any field its version does not have: ' +
    '`strict decoding error: unknown field "spec.template.spec.securityContext.appArmorProfile"` on 1.28, where that field exists only from 1.30. A typo (`tolerations[0].opertor`, `volumeMounts[0].readonly`) is refused the same way. ' +
    'Clients without strict validation drop the field silently instead, which is worse: a security setting that was written is never applied. ' +
    'Checked at any depth of DaemonSets (apps/v1 and OpenKruise apps.kruise.io/v1alpha1) and of the objects emitted alongside them; label and annotation maps, ConfigMap data and other free-form values are not looked into. ' +
    'The target is Kubernetes 1.28 unless the configuration (`kubernetesVersion`) or `node-services lint --kubernetes-version` says otherwise. ' +
    'A field newer than 1.28 is reported with the first version that has it (the version whose API has the field, even behind an alpha feature gate); where that version is not known, with "not in 1.28 (it exists in 1.33)".',
  fix: 'Correct the field name (the finding names the closest known field), remove fields the target version does not have, or raise the target version when every cluster runs a version that has them.',
  example:
    '# target 1.28: AppArmor through the pod annotation (securityContext.appArmorProfile needs 1.30)\nspec:\n  template:\n    metadata:\n      annotations:\n        container.apparmor.security.beta.kubernetes.io/agent: runtime/default',
  check(object, context) {
    const version = context.config.kubernetesVersion;
    const servedFrom = kindServedFrom(object, version);
    if (servedFrom !== undefined) return [{ path: 'apiVersion', message: describeUnservedKind(object, servedFrom, version) }];
    return fieldCheckOf(object, context).unknownFields.map((f) => ({ path: f.path, message: describeUnknownField(f, version) }));
  },
});
