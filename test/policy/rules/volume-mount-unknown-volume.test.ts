/**
 * Rule `volume-mount-unknown-volume`: Volume mounts must refer to a volume of the pod.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, podOf } from './support';

describeRule('volume-mount-unknown-volume', {
  nonCompliant: [
    {
      name: 'mount of an undefined volume',
      mutate: (ds) => mainContainer(ds).volumeMounts.push({ name: 'config', mountPath: '/fluent-bit/etc' }),
      path: `${C0}.volumeMounts[1].name`,
      message: /config/,
    },
  ],
  compliant: [
    {
      name: 'mount of a defined volume',
      mutate: (ds) => {
        podOf(ds).volumes.push({ name: 'config', configMap: { name: 'fluent-bit' } });
        mainContainer(ds).volumeMounts.push({ name: 'config', mountPath: '/fluent-bit/etc', readOnly: true });
      },
    },
  ],
});
