/**
 * Rule `label-invalid`: Labels must have valid keys and values.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule } from './support';

describeRule('label-invalid', {
  nonCompliant: [
    {
      name: 'value with a space',
      mutate: (ds) => (ds.metadata.labels.team = 'log team'),
      path: 'metadata.labels.team',
      message: /log team/,
    },
  ],
  compliant: [{ name: 'prefixed keys and empty value', mutate: (ds) => (ds.metadata.labels['example.com/team'] = '') }],
});
