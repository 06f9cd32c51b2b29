/**
 * Rule `readiness-probe-missing`: No readiness probe on any container.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, podOf } from './support';

describeRule('readiness-probe-missing', {
  nonCompliant: [
    {
      name: 'no readiness probe',
      mutate: (ds) => delete mainContainer(ds).readinessProbe,
      path: `${C0}.readinessProbe`,
    },
    {
      name: 'two containers, neither probed',
      mutate: (ds) => {
        delete mainContainer(ds).readinessProbe;
        podOf(ds).containers.push({ name: 'config-reloader', image: 'registry.example.com/config-reloader:1.0.0' });
      },
      path: `${C0}.readinessProbe`,
      message: /no container .*fluent-bit.*config-reloader/,
    },
  ],
  compliant: [
    { name: 'probe set', mutate: () => undefined },
    {
      name: 'a second container without a probe (one probed container gates the pod)',
      mutate: (ds) =>
        podOf(ds).containers.push({
          name: 'config-reloader',
          image: 'registry.example.com/config-reloader:1.0.0',
          resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '32Mi' } },
        }),
    },
  ],
});
