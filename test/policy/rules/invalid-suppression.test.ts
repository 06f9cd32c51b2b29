/**
 * Rule `invalid-suppression`: Suppression annotation is invalid.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule } from './support';

describeRule('invalid-suppression', {
  nonCompliant: [
    {
      name: 'short reason',
      mutate: (ds) => (ds.metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable'] = 'needed'),
      path: "metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable']",
      message: /'needed'/,
    },
    {
      name: 'unknown rule id',
      mutate: (ds) =>
        (ds.metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writeable'] = 'position database for tailed files'),
      path: "metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writeable']",
      message: /host-path-writeable/,
    },
    {
      name: 'API-validity rule',
      mutate: (ds) => (ds.metadata.annotations['ignore-check.node-services.cdk8s.io/label-invalid'] = 'we know the label is odd'),
      path: "metadata.annotations['ignore-check.node-services.cdk8s.io/label-invalid']",
      message: /cannot be suppressed/,
    },
  ],
  compliant: [
    {
      name: 'reasoned suppression of a warning',
      mutate: (ds) =>
        (ds.metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable'] = 'position database for tailed log files'),
    },
  ],
});
