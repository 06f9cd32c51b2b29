/**
 * Rule `bidirectional-propagation-unprivileged`: Bidirectional mount propagation requires a privileged container.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('bidirectional-propagation-unprivileged', {
  nonCompliant: [
    {
      name: 'Bidirectional in an unprivileged container',
      mutate: (ds) => (mainContainer(ds).volumeMounts[0].mountPropagation = 'Bidirectional'),
      path: `${C0}.volumeMounts[0].mountPropagation`,
      message: /\/var\/log/,
    },
  ],
  compliant: [
    {
      name: 'Bidirectional in a privileged container',
      kind: 'csi-node',
      mutate: (ds) => {
        Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true });
        mainContainer(ds).volumeMounts[0].mountPropagation = 'Bidirectional';
      },
    },
    {
      name: 'HostToContainer',
      mutate: (ds) => (mainContainer(ds).volumeMounts[0].mountPropagation = 'HostToContainer'),
    },
  ],
});
