/**
 * Rule `container-name-invalid`: Container names must be DNS-1123 labels.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('container-name-invalid', {
  nonCompliant: [
    {
      name: 'upper case',
      mutate: (ds) => (mainContainer(ds).name = 'FluentBit'),
      path: `${C0}.name`,
      message: /FluentBit/,
    },
    { name: 'missing', mutate: (ds) => delete mainContainer(ds).name, path: `${C0}.name` },
  ],
  compliant: [{ name: 'DNS label', mutate: (ds) => (mainContainer(ds).name = 'fluent-bit-2') }],
});
