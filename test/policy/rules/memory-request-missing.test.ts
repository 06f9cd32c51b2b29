/**
 * Rule `memory-request-missing`: No memory request.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, POD, sidecarInit } from './support';

describeRule('memory-request-missing', {
  nonCompliant: [
    {
      name: 'no memory request',
      mutate: (ds) => delete mainContainer(ds).resources.requests.memory,
      path: `${C0}.resources.requests.memory`,
    },
    {
      name: 'a sidecar (restartable init container) without requests',
      mutate: (ds) => sidecarInit(ds, { restartPolicy: 'Always' }),
      path: `${POD}.initContainers[0].resources.requests.memory`,
    },
  ],
  compliant: [
    { name: 'request set', mutate: () => undefined },
    { name: 'an init container without requests (it has exited before the pod runs)', mutate: (ds) => sidecarInit(ds) },
  ],
});
