/**
 * Rule `memory-limit-missing`: No memory limit.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, sidecarInit } from './support';

describeRule('memory-limit-missing', {
  nonCompliant: [
    {
      name: 'no limits',
      mutate: (ds) => delete mainContainer(ds).resources.limits,
      path: `${C0}.resources.limits.memory`,
      severity: 'error',
    },
    {
      name: 'a CNI without a limit is advice only',
      kind: 'cni-plugin',
      mutate: (ds) => delete mainContainer(ds).resources.limits,
      path: `${C0}.resources.limits.memory`,
      severity: 'info',
    },
    {
      name: 'a generic node service without a limit is a warning',
      kind: 'node-service',
      mutate: (ds) => delete mainContainer(ds).resources.limits,
      path: `${C0}.resources.limits.memory`,
    },
    {
      name: 'restartable sidecar without a limit',
      mutate: (ds) => sidecarInit(ds, { restartPolicy: 'Always', resources: { requests: { cpu: '10m', memory: '16Mi' } } }),
      path: 'spec.template.spec.initContainers[0].resources.limits.memory',
      severity: 'error',
    },
  ],
  compliant: [
    {
      name: 'the configuration overrides the kind severity',
      kind: 'cni-plugin',
      config: { rules: { 'memory-limit-missing': 'off' as any } },
      mutate: (ds) => delete mainContainer(ds).resources.limits,
    },
    { name: 'plain init containers need no limit', mutate: (ds) => sidecarInit(ds) },
  ],
});
