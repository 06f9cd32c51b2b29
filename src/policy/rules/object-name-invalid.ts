import { dns1123SubdomainError } from '../../k8s/names';
import { dns1123LabelErrorOf, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** `metadata.name` must be a DNS-1123 subdomain and `metadata.namespace` a DNS-1123 label. */
export const objectNameInvalid = defineRule({
  id: 'object-name-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Object name and namespace must be valid DNS names',
  rationale:
    'A DaemonSet name must be a DNS-1123 subdomain (lower-case alphanumerics, "-" and ".", at most 253 characters) and its namespace a DNS-1123 label (at most 63 characters); the API server rejects anything else.',
  fix: 'Use a lower-case name such as `fluent-bit` and a namespace such as `logging`.',
  example: 'metadata:\n  name: fluent-bit\n  namespace: logging',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    const { name, namespace, generateName } = view.metadata;
    if (name === undefined || name === null || name === '') {
      if (typeof generateName !== 'string' || generateName === '') {
        out.push({ path: 'metadata.name', message: 'metadata.name is missing' });
      }
    } else {
      const err = typeof name === 'string' ? dns1123SubdomainError(name) : 'must be a string';
      if (err) out.push({ path: 'metadata.name', message: `name ${show(name)} ${err}` });
    }
    if (namespace !== undefined && namespace !== null && namespace !== '') {
      const err = typeof namespace === 'string' ? dns1123LabelErrorOf(namespace) : 'must be a string';
      if (err) out.push({ path: 'metadata.namespace', message: `namespace ${show(namespace)} ${err}` });
    }
    return out;
  },
});
