/**
 * Rule `quantity-invalid`: Resource quantities must be valid Kubernetes quantities.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer, POD, podOf } from './support';

describeRule('quantity-invalid', {
  nonCompliant: [
    {
      name: '512MB',
      mutate: (ds) => (mainContainer(ds).resources.limits.memory = '512MB'),
      path: `${C0}.resources.limits.memory`,
      message: /512MB/,
    },
    {
      name: 'emptyDir sizeLimit 1h',
      mutate: (ds) => podOf(ds).volumes.push({ name: 'tmp', emptyDir: { sizeLimit: '1h' } }),
      path: `${POD}.volumes[1].emptyDir.sizeLimit`,
      message: /1h/,
    },
  ],
  compliant: [
    {
      name: 'decimal and exponent quantities',
      mutate: (ds) => Object.assign(mainContainer(ds).resources.requests, { cpu: '0.1', memory: '1.28e8' }),
    },
  ],
});
