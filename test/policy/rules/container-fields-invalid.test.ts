/**
 * Rule `container-fields-invalid`: imagePullPolicy, extended resources and huge pages as the API server validates them.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('container-fields-invalid', {
  nonCompliant: [
    {
      name: 'imagePullPolicy in lower case',
      mutate: (ds) => (mainContainer(ds).imagePullPolicy = 'always'),
      path: `${C0}.imagePullPolicy`,
      message: /'always'/,
    },
    {
      name: 'a GPU requested without a limit',
      mutate: (ds) => (mainContainer(ds).resources.requests['nvidia.com/gpu'] = 1),
      path: `${C0}.resources.requests['nvidia.com/gpu']`,
      message: /needs a limit/,
    },
    {
      name: 'a GPU request different from its limit',
      mutate: (ds) =>
        Object.assign(mainContainer(ds).resources, {
          requests: { cpu: '1', memory: '1Gi', 'nvidia.com/gpu': 1 },
          limits: { memory: '1Gi', 'nvidia.com/gpu': 2 },
        }),
      path: `${C0}.resources.requests['nvidia.com/gpu']`,
      message: /must equal its limit/,
    },
    {
      name: 'huge pages without cpu or memory',
      mutate: (ds) => (mainContainer(ds).resources = { limits: { 'hugepages-2Mi': '64Mi' } }),
      path: `${C0}.resources.requests`,
      message: /huge pages need a cpu or memory/,
    },
  ],
  compliant: [
    {
      name: 'an empty imagePullPolicy (defaulted)',
      mutate: (ds) => (mainContainer(ds).imagePullPolicy = ''),
    },
    {
      name: 'IfNotPresent and a GPU limit alone',
      mutate: (ds) =>
        Object.assign(mainContainer(ds), {
          imagePullPolicy: 'IfNotPresent',
          resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { memory: '1Gi', 'nvidia.com/gpu': 1 } },
        }),
    },
  ],
});
