/**
 * Rule `container-runtime-socket`: Container runtime socket mounted.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, mainContainer, POD, podOf } from './support';

describeRule('container-runtime-socket', {
  nonCompliant: [
    {
      name: 'containerd socket',
      kind: 'security-agent',
      mutate: (ds) => (podOf(ds).volumes[0].hostPath = { path: '/run/containerd/containerd.sock', type: 'Socket' }),
      path: `${POD}.volumes[0].hostPath.path`,
      message: /containerd\.sock/,
      severity: 'info',
    },
    {
      name: 'a read-only mount still gives control of the node',
      kind: 'node-service',
      mutate: (ds) => (podOf(ds).volumes[0].hostPath = { path: '/run/containerd/containerd.sock', type: 'Socket' }),
      path: `${POD}.volumes[0].hostPath.path`,
      message: /read-only or not/,
    },
    {
      name: 'directory holding the docker socket',
      kind: 'node-service',
      mutate: (ds) => (podOf(ds).volumes[0].hostPath = { path: '/var/run', type: 'Directory' }),
      path: `${POD}.volumes[0].hostPath.path`,
      message: /\/var\/run/,
    },
  ],
  compliant: [
    { name: 'log directories only', mutate: () => undefined },
    {
      name: 'mounted only by a privileged container (the privileged finding covers it)',
      kind: 'node-service',
      mutate: (ds) => {
        podOf(ds).volumes[0].hostPath = { path: '/run/containerd/containerd.sock', type: 'Socket' };
        Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true });
      },
    },
  ],
});
