import { describeWrongType, kindServedFrom } from '../../k8s/api-fields';
import { fieldCheckOf } from '../field-check';
import { quantityInvalid } from './quantity-invalid';
import { defineRule, RuleCategory, Severity } from '../types';

/** Every value, at any depth of every object whose kind the field data knows, must decode into its field's type. */
export const fieldTypeInvalid = defineRule({
  id: 'field-type-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  allKinds: true,
  title: "Every value must have its field's JSON type",
  rationale:
    'The API server decodes the JSON that kubectl sends into typed fields and refuses the whole object when a value does not fit: ' +
    '`json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.hostNetwork of type bool` for `hostNetwork: "true"`, ' +
    'and the same for `terminationGracePeriodSeconds: "10"`, `containerPort: 3000000000` (past the int32 range), `minReadySeconds: 1.5`, a number or boolean where a string goes (a label or nodeSelector value `true`, an `args` entry `8080`), a map where a list goes and the reverse. ' +
    'The check runs on the values as kubectl sends them, after YAML 1.1 has read the file: `yes`, `on` and `true` unquoted are booleans, `0644` is the number 420, `"10"` is a string. ' +
    'Int-or-string fields (`maxUnavailable`, probe ports) take a string or an int32, quantities a number or a string the quantity grammar reads (`overhead`, a `resourceFieldRef` divisor, a ResourceQuota; requests, limits and emptyDir sizes are `quantity-invalid`\'s), timestamps an RFC 3339 string, `null` means "unset" everywhere; ' +
    'free-form values (`status`, RawExtension) and kinds the field data does not know (custom resources) are not looked into. ' +
    'Types come from the OpenAPI documents of the target version (`type`/`format`: int32, int64, number, string, byte, boolean), like `unknown-field`.',
  fix: 'Write the value with the type the field has: booleans and numbers unquoted (`hostNetwork: true`, `terminationGracePeriodSeconds: 10`), strings quoted where YAML would read a number or boolean (`"true"`, `"1.0"`), integers within the field\'s range, a list as a list.',
  example:
    'spec:\n  template:\n    spec:\n      hostNetwork: true\n      terminationGracePeriodSeconds: 10\n      nodeSelector:\n        example.com/gpu: "true"',
  check(object, context) {
    // an object of a kind the target version does not serve is reported by unknown-field; its fields are not checked
    if (kindServedFrom(object, context.config.kubernetesVersion) !== undefined) return [];
    const wrong = fieldCheckOf(object, context).wrongTypes;
    if (wrong.length === 0) return [];
    // A DaemonSet's request, limit or emptyDir size that is no quantity is quantity-invalid's finding (that rule checks
    // DaemonSets only): one finding per cause.
    const isDaemonSet = (object as { kind?: unknown }).kind === 'DaemonSet';
    const quantities = new Set(isDaemonSet ? quantityInvalid.check(object, context).map((f) => f.path) : []);
    return wrong.filter((f) => !quantities.has(f.path)).map((f) => ({ path: f.path, message: describeWrongType(f) }));
  },
});
