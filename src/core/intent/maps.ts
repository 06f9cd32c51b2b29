/**
 * Label and annotation maps as the user gives them, checked: keys, values, and keys cdk8s cannot render.
 */

import { labelValueError, qualifiedNameError } from '../../k8s';
import { ProblemCollector } from '../../k8s/problems';

/**
 * Refuses a map key cdk8s cannot write out: its renderer reads `constructor` of every object to tell plain objects
 * from others, so an object with an own `constructor` key fails synthesis with an unrelated message. Kubernetes
 * allows such a key; a node service cannot emit it.
 */
function checkRenderableKey(field: string, key: string, problems: ProblemCollector): void {
  if (key === 'constructor')
    problems.add(field, key, 'is a key cdk8s cannot render (it takes an object with this key for a class instance)', 'use another key');
}

/** Checks a key/value map of labels (or node-selector entries). */
export function checkLabels(field: string, labels: { [key: string]: string } | undefined, problems: ProblemCollector): void {
  for (const [key, value] of Object.entries(labels ?? {})) {
    checkRenderableKey(`${field}["${key}"]`, key, problems);
    problems.check(`${field}["${key}"]`, key, qualifiedNameError(key), 'use a label key such as "example.com/team" or "team"');
    problems.check(
      `${field}["${key}"]`,
      value,
      labelValueError(value),
      'use at most 63 characters of [A-Za-z0-9-_.], starting and ending alphanumeric',
    );
  }
}

/** Checks a key/value map of annotations. */
export function checkAnnotations(field: string, annotations: { [key: string]: string } | undefined, problems: ProblemCollector): void {
  for (const [key, value] of Object.entries(annotations ?? {})) {
    checkRenderableKey(`${field}["${key}"]`, key, problems);
    problems.check(`${field}["${key}"]`, key, qualifiedNameError(key.toLowerCase()), 'use an annotation key such as "example.com/owner"');
    if (typeof value !== 'string') problems.add(`${field}["${key}"]`, value, 'annotation values must be strings', 'quote the value');
  }
}
