/**
 * Rule `probe-port-undeclared`: Probe names a port the container does not declare.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('probe-port-undeclared', {
  nonCompliant: [
    {
      name: 'readiness on an undeclared port name',
      mutate: (ds) => (mainContainer(ds).readinessProbe.httpGet.port = 'metrics'),
      path: `${C0}.readinessProbe.httpGet.port`,
      message: /'metrics'.*declares 'http'/,
    },
  ],
  compliant: [
    {
      name: 'a declared name and a number',
      mutate: (ds) => (mainContainer(ds).livenessProbe.httpGet.port = 2020),
    },
  ],
});
