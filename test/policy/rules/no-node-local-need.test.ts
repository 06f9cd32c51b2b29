/**
 * Rule `no-node-local-need`: DaemonSet with no node-local need (probably a Deployment).
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, mainContainer, podOf } from './support';

describeRule('no-node-local-need', {
  nonCompliant: [
    {
      name: 'a web server as a DaemonSet',
      kind: 'node-service',
      mutate: (ds) => {
        delete podOf(ds).volumes;
        delete mainContainer(ds).volumeMounts;
        delete mainContainer(ds).env;
      },
      path: 'kind',
    },
  ],
  compliant: [
    { name: 'hostPath', mutate: () => undefined },
    {
      name: 'only the node name from the downward API',
      kind: 'node-service',
      mutate: (ds) => {
        delete podOf(ds).volumes;
        delete mainContainer(ds).volumeMounts;
      },
    },
  ],
});
