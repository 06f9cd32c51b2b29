/**
 * Rule `probe-invalid`: Probes must be well-formed.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, sidecarInit } from './support';

describeRule('probe-invalid', {
  nonCompliant: [
    {
      name: 'two handlers',
      mutate: (ds) => (mainContainer(ds).readinessProbe.tcpSocket = { port: 2020 }),
      path: `${C0}.readinessProbe`,
      message: /httpGet and tcpSocket/,
    },
    {
      name: 'liveness successThreshold 2',
      mutate: (ds) => (mainContainer(ds).livenessProbe.successThreshold = 2),
      path: `${C0}.livenessProbe.successThreshold`,
      message: /2/,
    },
    {
      name: 'numeric string port',
      mutate: (ds) => (mainContainer(ds).readinessProbe.httpGet.port = '2020'),
      path: `${C0}.readinessProbe.httpGet.port`,
      message: /2020/,
    },
    {
      name: 'probe on an init container',
      mutate: (ds) => sidecarInit(ds, { readinessProbe: { exec: { command: ['true'] } } }),
      path: 'spec.template.spec.initContainers[0].readinessProbe',
    },
  ],
  compliant: [
    {
      name: 'an empty httpGet scheme (defaulted to HTTP)',
      mutate: (ds) => (mainContainer(ds).readinessProbe.httpGet.scheme = ''),
    },
    {
      name: 'probe on a restartable sidecar',
      mutate: (ds) => sidecarInit(ds, { restartPolicy: 'Always', readinessProbe: { grpc: { port: 9090 } } }),
    },
  ],
});
