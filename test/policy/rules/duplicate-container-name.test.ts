/**
 * Rule `duplicate-container-name`: Container names must be unique across containers and init containers.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, sidecarInit } from './support';

describeRule('duplicate-container-name', {
  nonCompliant: [
    {
      name: 'init container with the main name',
      mutate: (ds) => sidecarInit(ds, { name: 'fluent-bit' }),
      path: 'spec.template.spec.initContainers[0].name',
      message: /fluent-bit/,
    },
  ],
  compliant: [{ name: 'distinct init name', mutate: (ds) => sidecarInit(ds) }],
});
