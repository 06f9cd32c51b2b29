/**
 * Rule `capability-not-allowed`: Capability outside the node-service kind's allowlist.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('capability-not-allowed', {
  nonCompliant: [
    {
      name: 'NET_ADMIN for a log agent',
      mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['DAC_READ_SEARCH', 'NET_ADMIN']),
      path: `${C0}.securityContext.capabilities.add[1]`,
      message: /NET_ADMIN.*log-agent/,
    },
  ],
  compliant: [
    {
      name: 'CAP_ prefix of an allowed capability',
      mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['CAP_DAC_READ_SEARCH']),
    },
    {
      name: 'generic kind has no allowlist',
      kind: 'node-service',
      mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['NET_ADMIN']),
    },
  ],
});
