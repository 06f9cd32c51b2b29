/**
 * Rule `sensitive-host-path-writable`: Sensitive host path mounted writable.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, podOf } from './support';

describeRule('sensitive-host-path-writable', {
  nonCompliant: [
    {
      name: '/etc writable (generic kind)',
      kind: 'node-service',
      mutate: (ds) => {
        podOf(ds).volumes[0].hostPath = { path: '/etc', type: 'Directory' };
        delete mainContainer(ds).volumeMounts[0].readOnly;
      },
      path: `${C0}.volumeMounts[0].readOnly`,
      message: /\/etc/,
    },
    {
      name: '/var writable contains /var/lib/kubelet',
      kind: 'node-service',
      mutate: (ds) => {
        podOf(ds).volumes[0].hostPath = { path: '/var', type: 'Directory' };
        delete mainContainer(ds).volumeMounts[0].readOnly;
      },
      path: `${C0}.volumeMounts[0].readOnly`,
      message: /'\/var'/,
    },
  ],
  compliant: [
    {
      name: 'CSI writes /var/lib/kubelet (allowlisted read-write)',
      kind: 'csi-node',
      mutate: (ds) => {
        podOf(ds).volumes[0].hostPath = { path: '/var/lib/kubelet', type: 'Directory' };
        delete mainContainer(ds).volumeMounts[0].readOnly;
      },
    },
    {
      name: 'below a sensitive directory',
      kind: 'node-service',
      mutate: (ds) => {
        podOf(ds).volumes[0].hostPath = { path: '/etc/cni/net.d', type: 'DirectoryOrCreate' };
        delete mainContainer(ds).volumeMounts[0].readOnly;
      },
    },
  ],
});
