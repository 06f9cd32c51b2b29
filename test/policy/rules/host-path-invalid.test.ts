/**
 * Rule `host-path-invalid`: hostPath needs a path without '..' and a known type.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('host-path-invalid', {
  nonCompliant: [
    {
      name: "'..' element",
      mutate: (ds) => (podOf(ds).volumes[0].hostPath.path = '/var/log/../../etc'),
      path: `${POD}.volumes[0].hostPath.path`,
      message: /\/var\/log\/\.\.\/\.\.\/etc/,
    },
    {
      name: 'unknown type',
      mutate: (ds) => (podOf(ds).volumes[0].hostPath.type = 'Dir'),
      path: `${POD}.volumes[0].hostPath.type`,
      message: /'Dir'/,
    },
  ],
  compliant: [
    {
      name: 'relative path (accepted by the API)',
      kind: 'node-service',
      mutate: (ds) => (podOf(ds).volumes[0].hostPath.path = 'var/log'),
    },
  ],
});
