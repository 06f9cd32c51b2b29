/**
 * Rule `host-pid-without-need`: hostPID on a kind that does not need it.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('host-pid-without-need', {
  nonCompliant: [
    {
      name: 'log agent with hostPID',
      mutate: (ds) => (podOf(ds).hostPID = true),
      path: `${POD}.hostPID`,
      message: /log-agent/,
    },
  ],
  compliant: [
    {
      name: 'node exporter with hostPID',
      kind: 'monitoring-agent',
      mutate: (ds) => (podOf(ds).hostPID = true),
    },
  ],
});
