/**
 * Rule `host-path-type-missing`: hostPath without type.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, mainContainer, POD, podOf, writableStateDir } from './support';

describeRule('host-path-type-missing', {
  nonCompliant: [
    {
      name: 'no type on a read-only mount is advice',
      mutate: (ds) => delete podOf(ds).volumes[0].hostPath.type,
      path: `${POD}.volumes[0].hostPath.type`,
      message: /varlog.*read-only/,
      severity: 'info',
    },
    {
      name: 'no type on a writable mount',
      mutate: (ds) => {
        delete podOf(ds).volumes[0].hostPath.type;
        mainContainer(ds).volumeMounts[0].readOnly = false;
      },
      path: `${POD}.volumes[0].hostPath.type`,
      message: /varlog/,
    },
    {
      name: 'empty type',
      mutate: (ds) => (podOf(ds).volumes[0].hostPath.type = ''),
      path: `${POD}.volumes[0].hostPath.type`,
      severity: 'info',
    },
  ],
  compliant: [
    { name: 'type set', mutate: () => undefined },
    {
      name: 'DirectoryOrCreate on a writable state dir',
      mutate: writableStateDir,
    },
    { name: 'a volume that is not a hostPath', mutate: (ds) => podOf(ds).volumes.push({ name: 'tmp', emptyDir: {} }) },
  ],
});
