/**
 * Rule `port-invalid`: Container ports must be valid and host ports unique.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, sidecarInit } from './support';

describeRule('port-invalid', {
  nonCompliant: [
    {
      name: 'containerPort out of range',
      mutate: (ds) => (mainContainer(ds).ports[0].containerPort = 70000),
      path: `${C0}.ports[0].containerPort`,
      message: /70000/,
    },
    {
      name: "name with '--'",
      mutate: (ds) => (mainContainer(ds).ports[0].name = 'http--x'),
      path: `${C0}.ports[0].name`,
      message: /http--x/,
    },
    {
      name: 'protocol HTTP',
      mutate: (ds) => (mainContainer(ds).ports[0].protocol = 'HTTP'),
      path: `${C0}.ports[0].protocol`,
      message: /HTTP/,
    },
    {
      name: 'same hostPort twice',
      mutate: (ds) => {
        mainContainer(ds).ports = [
          { name: 'a', containerPort: 9100, hostPort: 9100 },
          { name: 'b', containerPort: 9101, hostPort: 9100 },
        ];
      },
      path: `${C0}.ports[1].hostPort`,
      message: /9100/,
    },
  ],
  compliant: [
    // Defaulting comes before validation: empty values that the API server defaults are accepted.
    { name: 'an empty protocol (defaulted to TCP)', mutate: (ds) => (mainContainer(ds).ports[0].protocol = '') },
    {
      name: 'hostPort and UDP',
      mutate: (ds) => mainContainer(ds).ports.push({ name: 'syslog', containerPort: 5140, hostPort: 514, protocol: 'UDP' }),
    },
    {
      name: 'an init container may reuse a main container hostPort',
      mutate: (ds) => {
        mainContainer(ds).ports[0].hostPort = 2020;
        sidecarInit(ds, { ports: [{ name: 'setup', containerPort: 2020, hostPort: 2020 }] });
      },
    },
  ],
});
