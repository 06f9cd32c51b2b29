/**
 * Rule `unsafe-sysctl`: Unsafe sysctl.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('unsafe-sysctl', {
  nonCompliant: [
    {
      name: 'net.core.somaxconn',
      mutate: (ds) => (podOf(ds).securityContext.sysctls = [{ name: 'net.core.somaxconn', value: '1024' }]),
      path: `${POD}.securityContext.sysctls[0].name`,
      message: /somaxconn/,
    },
  ],
  compliant: [
    {
      name: 'a safe sysctl',
      mutate: (ds) => (podOf(ds).securityContext.sysctls = [{ name: 'net.ipv4.ip_local_port_range', value: '32768 60999' }]),
    },
  ],
});
