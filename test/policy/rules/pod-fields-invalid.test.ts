/**
 * Rule `pod-fields-invalid`: dnsPolicy, dnsConfig, priorityClassName, runtimeClassName and sysctl names as the API
 * server validates them.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('pod-fields-invalid', {
  nonCompliant: [
    {
      name: 'dnsPolicy None without dnsConfig',
      mutate: (ds) => (podOf(ds).dnsPolicy = 'None'),
      path: `${POD}.dnsPolicy`,
      message: /needs a dnsConfig/,
    },
    {
      name: 'unknown dnsPolicy',
      mutate: (ds) => (podOf(ds).dnsPolicy = 'ClusterFirstWithHostNetwork'),
      path: `${POD}.dnsPolicy`,
      message: /ClusterFirstWithHostNetwork/,
    },
    {
      name: 'priorityClassName with upper case',
      mutate: (ds) => (podOf(ds).priorityClassName = 'System-Node-Critical'),
      path: `${POD}.priorityClassName`,
      message: /System-Node-Critical/,
    },
    {
      name: 'runtimeClassName with an underscore',
      mutate: (ds) => (podOf(ds).runtimeClassName = 'nvidia_runtime'),
      path: `${POD}.runtimeClassName`,
    },
    {
      name: 'malformed sysctl name',
      mutate: (ds) => (podOf(ds).securityContext.sysctls = [{ name: 'net..ipv4', value: '1' }]),
      path: `${POD}.securityContext.sysctls[0].name`,
      message: /net\.\.ipv4/,
    },
  ],
  compliant: [
    { name: 'an empty dnsPolicy (defaulted to ClusterFirst)', mutate: (ds) => (podOf(ds).dnsPolicy = '') },
    {
      name: 'dnsPolicy None with a nameserver',
      mutate: (ds) =>
        Object.assign(podOf(ds), {
          dnsPolicy: 'None',
          dnsConfig: { nameservers: ['169.254.20.10'] },
          priorityClassName: 'system-node-critical',
        }),
    },
  ],
});
