/**
 * Rule `windows-fields-invalid`: Windows pods: no Linux-only fields, HostProcess on the host network and for every
 * container.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, POD, podOf } from './support';

describeRule('windows-fields-invalid', {
  nonCompliant: [
    {
      name: 'seccomp and capabilities on a Windows pod',
      kind: 'node-service',
      mutate: (ds) => (podOf(ds).os = { name: 'windows' }),
      path: `${POD}.securityContext.seccompProfile`,
      message: /Linux-only/,
    },
    {
      name: 'container capabilities on a Windows pod',
      kind: 'node-service',
      mutate: (ds) => (podOf(ds).os = { name: 'windows' }),
      path: `${C0}.securityContext.capabilities`,
    },
    {
      name: 'HostProcess without hostNetwork',
      kind: 'node-service',
      mutate: (ds) => {
        podOf(ds).securityContext = { windowsOptions: { hostProcess: true } };
        mainContainer(ds).securityContext = {};
      },
      path: `${POD}.hostNetwork`,
      message: /need hostNetwork: true/,
    },
    {
      name: 'one HostProcess container and one plain',
      kind: 'node-service',
      mutate: (ds) => {
        podOf(ds).hostNetwork = true;
        mainContainer(ds).securityContext = { windowsOptions: { hostProcess: true } };
        podOf(ds).containers.push({ name: 'sidecar', image: 'example/sidecar:1.0' });
      },
      path: `${POD}.containers[1].securityContext.windowsOptions.hostProcess`,
      message: /all containers of a pod must be/,
    },
  ],
  compliant: [
    { name: 'a Linux pod may set Linux fields', mutate: () => undefined },
    {
      name: 'a HostProcess pod on the host network without Linux fields',
      kind: 'node-service',
      mutate: (ds) => {
        podOf(ds).os = { name: 'windows' };
        podOf(ds).hostNetwork = true;
        podOf(ds).securityContext = { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } };
        mainContainer(ds).securityContext = {};
      },
    },
  ],
});
