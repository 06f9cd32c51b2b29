import { envFieldPathError } from '../../k8s';
import { minor } from '../../k8s/api-fields/versions';
import { envVarNameError, relaxedEnvVarNameError } from '../../k8s/names';
import { asObject, isObject, jsonPath, memoizeByString, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

const VALUE_SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'];
/** {@link envVarNameError}, memoized: variable names repeat across containers and objects. */
const nameErrorOf = memoizeByString(envVarNameError);
/** {@link relaxedEnvVarNameError}, memoized. */
const relaxedNameErrorOf = memoizeByString(relaxedEnvVarNameError);
/** The first version whose API server validates env names the relaxed way by default (RelaxedEnvironmentVariableValidation beta, KEP-4369). */
const RELAXED_FROM = 32;

/** Environment variable names and sources as the API server validates them. */
export const envVarInvalid = defineRule({
  id: 'env-var-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Environment variables need a valid name, at most one source and a supported fieldRef path',
  rationale:
    'Kubernetes 1.28 to 1.31 require env names matching [-._a-zA-Z][-._a-zA-Z0-9]* (from 1.32, RelaxedEnvironmentVariableValidation is on by default and any printable ASCII character but "=" is accepted), rejects `value` together with `valueFrom`, requires exactly one of fieldRef, resourceFieldRef, configMapKeyRef, secretKeyRef in valueFrom, and accepts only the downward-API field paths it supports for env (metadata.name, metadata.namespace, metadata.uid, spec.nodeName, spec.serviceAccountName, status.hostIP(s), status.podIP(s), metadata.labels[<key>], metadata.annotations[<key>]).',
  fix: 'Rename the variable (no leading digit, no spaces), and use either `value` or a `valueFrom` with exactly one source.',
  example: 'env:\n  - name: NODE_NAME\n    valueFrom:\n      fieldRef: {fieldPath: spec.nodeName}',
  check(_object, { view, config }) {
    const out: RuleFinding[] = [];
    const nameError = minor(config.kubernetesVersion) >= RELAXED_FROM ? relaxedNameErrorOf : nameErrorOf;
    for (const c of view.containers) {
      const env = c.container.env;
      if (!Array.isArray(env)) continue;
      env.forEach((raw, i) => {
        const e = asObject(raw);
        const err = typeof e.name === 'string' ? nameError(e.name) : 'is missing';
        if (err) out.push({ path: jsonPath(c.path, 'env', i, 'name'), message: `container '${c.name}' env name ${show(e.name)} ${err}` });
        if (e.valueFrom === undefined || e.valueFrom === null) return;
        if (e.value !== undefined && e.value !== null && e.value !== '') {
          out.push({ path: jsonPath(c.path, 'env', i, 'valueFrom'), message: `env ${show(e.name)} sets both value and valueFrom` });
        }
        const from = isObject(e.valueFrom) ? e.valueFrom : {};
        const sources = VALUE_SOURCES.filter((s) => from[s] !== undefined && from[s] !== null);
        if (sources.length !== 1) {
          out.push({
            path: jsonPath(c.path, 'env', i, 'valueFrom'),
            message: `env ${show(e.name)} valueFrom must set exactly one of ${VALUE_SOURCES.join(', ')} (has ${sources.length === 0 ? 'none' : sources.join(', ')})`,
          });
        }
        if (sources.length === 1 && sources[0] === 'fieldRef') {
          const fieldPath = asObject(from.fieldRef).fieldPath;
          const pathErr = envFieldPathError(fieldPath);
          if (pathErr) {
            out.push({
              path: jsonPath(c.path, 'env', i, 'valueFrom', 'fieldRef', 'fieldPath'),
              message: `env ${show(e.name)} fieldRef.fieldPath ${show(fieldPath)} ${pathErr}`,
            });
          }
        }
      });
    }
    return out;
  },
});
