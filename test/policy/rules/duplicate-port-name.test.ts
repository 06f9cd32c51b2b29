/**
 * Rule `duplicate-port-name`: Port names must be unique within a container.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('duplicate-port-name', {
  nonCompliant: [
    {
      name: 'two ports named http',
      mutate: (ds) => mainContainer(ds).ports.push({ name: 'http', containerPort: 2021 }),
      path: `${C0}.ports[1].name`,
      message: /http/,
    },
  ],
  compliant: [
    {
      name: 'distinct names',
      mutate: (ds) => mainContainer(ds).ports.push({ name: 'metrics', containerPort: 2021 }),
    },
  ],
});
