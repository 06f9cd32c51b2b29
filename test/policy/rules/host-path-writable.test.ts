/**
 * Rule `host-path-writable`: hostPath mounted writable.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, podOf, writableStateDir } from './support';

describeRule('host-path-writable', {
  nonCompliant: [
    {
      name: 'mount without readOnly',
      mutate: (ds) => (mainContainer(ds).volumeMounts[0].readOnly = false),
      path: `${C0}.volumeMounts[0].readOnly`,
      message: /\/var\/log/,
    },
    {
      name: 'a write no declared kind needs (a generic node service)',
      kind: 'node-service',
      mutate: writableStateDir,
      path: `${C0}.volumeMounts[1].readOnly`,
      message: /\/var\/lib\/fluent-bit/,
    },
  ],
  compliant: [
    { name: 'readOnly mount', mutate: () => undefined },
    {
      name: "a write the declared kind needs (the log agent's position database)",
      mutate: writableStateDir,
    },
    {
      name: 'a writable sensitive path (sensitive-host-path-writable reports it)',
      mutate: (ds) => {
        podOf(ds).volumes.push({ name: 'etc', hostPath: { path: '/etc', type: 'Directory' } });
        mainContainer(ds).volumeMounts.push({ name: 'etc', mountPath: '/host/etc' });
      },
    },
  ],
});
