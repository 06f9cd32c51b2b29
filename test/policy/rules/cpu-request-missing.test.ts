/**
 * Rule `cpu-request-missing`: No CPU request.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, POD, sidecarInit } from './support';

describeRule('cpu-request-missing', {
  nonCompliant: [
    {
      name: 'no cpu request',
      mutate: (ds) => delete mainContainer(ds).resources.requests.cpu,
      path: `${C0}.resources.requests.cpu`,
    },
    {
      name: 'zero cpu request',
      mutate: (ds) => (mainContainer(ds).resources.requests.cpu = '0'),
      path: `${C0}.resources.requests.cpu`,
    },
    {
      name: 'a sidecar (restartable init container) without requests',
      mutate: (ds) => sidecarInit(ds, { restartPolicy: 'Always' }),
      path: `${POD}.initContainers[0].resources.requests.cpu`,
    },
  ],
  compliant: [
    { name: 'request set', mutate: () => undefined },
    { name: 'an init container without requests (it has exited before the pod runs)', mutate: (ds) => sidecarInit(ds) },
    {
      name: 'a request that is not a quantity (quantity-invalid reports it)',
      mutate: (ds) => (mainContainer(ds).resources.requests.cpu = 'lots'),
    },
  ],
});
