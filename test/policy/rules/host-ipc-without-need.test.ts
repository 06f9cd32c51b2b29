/**
 * Rule `host-ipc-without-need`: hostIPC without need.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('host-ipc-without-need', {
  nonCompliant: [
    {
      name: 'generic service with hostIPC',
      kind: 'node-service',
      mutate: (ds) => (podOf(ds).hostIPC = true),
      path: `${POD}.hostIPC`,
    },
  ],
  compliant: [{ name: 'hostIPC false', mutate: (ds) => (podOf(ds).hostIPC = false) }],
});
