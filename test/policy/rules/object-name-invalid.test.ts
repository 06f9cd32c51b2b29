/**
 * Rule `object-name-invalid`: Object name and namespace must be valid DNS names.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule } from './support';

describeRule('object-name-invalid', {
  nonCompliant: [
    {
      name: 'upper case and underscore',
      mutate: (ds) => (ds.metadata.name = 'Fluent_Bit'),
      path: 'metadata.name',
      message: /Fluent_Bit/,
    },
    {
      name: 'namespace with a dot',
      mutate: (ds) => (ds.metadata.namespace = 'team.logging'),
      path: 'metadata.namespace',
      message: /team\.logging/,
    },
  ],
  compliant: [{ name: 'dotted name', mutate: (ds) => (ds.metadata.name = 'fluent-bit.logs') }],
});
