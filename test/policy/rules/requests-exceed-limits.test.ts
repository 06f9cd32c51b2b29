/**
 * Rule `requests-exceed-limits`: Requests must not exceed limits.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('requests-exceed-limits', {
  nonCompliant: [
    {
      name: 'memory request above limit',
      mutate: (ds) => (mainContainer(ds).resources.requests.memory = '512Mi'),
      path: `${C0}.resources.requests.memory`,
      message: /512Mi.*256Mi/,
    },
  ],
  compliant: [
    { name: 'request equals limit', mutate: (ds) => (mainContainer(ds).resources.requests.memory = '256Mi') },
    {
      name: 'units differ',
      mutate: (ds) =>
        Object.assign(mainContainer(ds).resources, { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '0.5', memory: '1Gi' } }),
    },
  ],
});
