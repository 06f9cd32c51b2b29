/**
 * Rule `selector-invalid`: DaemonSet selector must be present, non-empty and well-formed.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule } from './support';

describeRule('selector-invalid', {
  nonCompliant: [
    { name: 'missing selector', mutate: (ds) => delete ds.spec.selector, path: 'spec.selector' },
    { name: 'empty selector', mutate: (ds) => (ds.spec.selector = {}), path: 'spec.selector', message: /empty/ },
    {
      name: 'In without values',
      mutate: (ds) => (ds.spec.selector.matchExpressions = [{ key: 'tier', operator: 'In', values: [] }]),
      path: 'spec.selector.matchExpressions[0]',
      message: /In/,
    },
  ],
  compliant: [
    {
      name: 'matchExpressions Exists',
      mutate: (ds) => (ds.spec.selector.matchExpressions = [{ key: 'app.kubernetes.io/name', operator: 'Exists' }]),
    },
  ],
});
