/**
 * Rule `annotation-invalid`: Annotations must have valid keys, string values and fit in 256 KiB.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule } from './support';

describeRule('annotation-invalid', {
  nonCompliant: [
    {
      name: 'key with a space',
      mutate: (ds) => (ds.metadata.annotations['owner team'] = 'x'),
      path: "metadata.annotations['owner team']",
    },
    {
      name: 'oversized annotations',
      mutate: (ds) => (ds.metadata.annotations['example.com/blob'] = 'x'.repeat(262145)),
      path: 'metadata.annotations',
      message: /262144/,
    },
  ],
  compliant: [
    {
      name: 'upper-case key (checked in lower case)',
      mutate: (ds) => (ds.metadata.annotations['example.com/Owner'] = 'platform'),
    },
  ],
});
