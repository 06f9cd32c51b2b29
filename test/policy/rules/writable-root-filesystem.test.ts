/**
 * Rule `writable-root-filesystem`: Root filesystem writable.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, sidecarInit } from './support';

describeRule('writable-root-filesystem', {
  nonCompliant: [
    {
      name: 'readOnlyRootFilesystem false',
      mutate: (ds) => (mainContainer(ds).securityContext.readOnlyRootFilesystem = false),
      path: `${C0}.securityContext.readOnlyRootFilesystem`,
    },
    {
      name: 'restartable sidecar without it',
      mutate: (ds) =>
        sidecarInit(ds, { restartPolicy: 'Always', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }),
      path: 'spec.template.spec.initContainers[0].securityContext.readOnlyRootFilesystem',
    },
  ],
  compliant: [
    {
      name: 'a plain init container runs to completion first',
      mutate: (ds) => sidecarInit(ds, { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }),
    },
    { name: 'read-only root', mutate: () => undefined },
  ],
});
