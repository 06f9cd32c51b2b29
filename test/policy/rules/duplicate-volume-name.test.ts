/**
 * Rule `duplicate-volume-name`: Volume names must be unique.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('duplicate-volume-name', {
  nonCompliant: [
    {
      name: 'two volumes named varlog',
      mutate: (ds) => podOf(ds).volumes.push({ name: 'varlog', emptyDir: {} }),
      path: `${POD}.volumes[1].name`,
      message: /varlog/,
    },
  ],
  compliant: [{ name: 'distinct names', mutate: (ds) => podOf(ds).volumes.push({ name: 'tmp', emptyDir: {} }) }],
});
