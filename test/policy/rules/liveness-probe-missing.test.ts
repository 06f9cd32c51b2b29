/**
 * Rule `liveness-probe-missing`: No liveness probe.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, POD, podOf, sidecarInit } from './support';

describeRule('liveness-probe-missing', {
  nonCompliant: [
    {
      name: 'no liveness probe',
      mutate: (ds) => delete mainContainer(ds).livenessProbe,
      path: `${C0}.livenessProbe`,
    },
    {
      name: 'a sidecar (restartable init container) without a probe',
      mutate: (ds) => sidecarInit(ds, { restartPolicy: 'Always' }),
      path: `${POD}.initContainers[0].livenessProbe`,
    },
  ],
  compliant: [
    { name: 'probe set', mutate: () => undefined },
    { name: 'an init container without a probe', mutate: (ds) => sidecarInit(ds) },
    {
      name: 'the CSI livenessprobe sidecar without a probe (it is the probe)',
      kind: 'csi-node',
      mutate: (ds) =>
        podOf(ds).containers.push({
          name: 'liveness-probe',
          image: 'registry.k8s.io/sig-storage/livenessprobe:v2.15.0',
          args: ['--csi-address=/csi/csi.sock', '--health-port=9808'],
        }),
    },
  ],
});
