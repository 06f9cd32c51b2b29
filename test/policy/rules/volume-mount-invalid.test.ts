/**
 * Rule `volume-mount-invalid`: Volume mounts need a unique mountPath, a relative subPath and a known propagation.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, podOf } from './support';

describeRule('volume-mount-invalid', {
  nonCompliant: [
    {
      name: 'two mounts at one path',
      mutate: (ds) => {
        podOf(ds).volumes.push({ name: 'tmp', emptyDir: {} });
        mainContainer(ds).volumeMounts.push({ name: 'tmp', mountPath: '/var/log' });
      },
      path: `${C0}.volumeMounts[1].mountPath`,
      message: /\/var\/log/,
    },
    {
      name: "subPath with '..'",
      mutate: (ds) => (mainContainer(ds).volumeMounts[0].subPath = '../etc'),
      path: `${C0}.volumeMounts[0].subPath`,
      message: /\.\.\/etc/,
    },
    {
      name: 'unknown propagation',
      mutate: (ds) => (mainContainer(ds).volumeMounts[0].mountPropagation = 'Shared'),
      path: `${C0}.volumeMounts[0].mountPropagation`,
      message: /Shared/,
    },
  ],
  compliant: [{ name: 'relative subPath', mutate: (ds) => (mainContainer(ds).volumeMounts[0].subPath = 'pods') }],
});
