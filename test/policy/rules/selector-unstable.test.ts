/**
 * Rule `selector-unstable`: Version, hash or path-derived value in the selector.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule } from './support';

describeRule('selector-unstable', {
  nonCompliant: [
    {
      name: 'version label in the selector',
      mutate: (ds) => (ds.spec.selector.matchLabels['app.kubernetes.io/version'] = '3.0.7'),
      path: "spec.selector.matchLabels['app.kubernetes.io/version']",
    },
    {
      name: 'value that looks like a version',
      mutate: (ds) => {
        ds.spec.selector.matchLabels.app = 'fluent-bit-0.46.1';
        ds.spec.template.metadata.labels.app = 'fluent-bit-0.46.1';
      },
      path: 'spec.selector.matchLabels.app',
      message: /0\.46\.1/,
    },
    {
      name: 'cdk8s path-derived label',
      mutate: (ds) => {
        ds.spec.selector.matchLabels['cdk8s.io/metadata.addr'] = 'logs-agent-c8170884';
        ds.spec.template.metadata.labels['cdk8s.io/metadata.addr'] = 'logs-agent-c8170884';
      },
      path: "spec.selector.matchLabels['cdk8s.io/metadata.addr']",
    },
    {
      name: 'an expression with a version among its values',
      mutate: (ds) =>
        (ds.spec.selector.matchExpressions = [{ key: 'app.kubernetes.io/component', operator: 'In', values: ['agent', 'v1.2.3'] }]),
      path: 'spec.selector.matchExpressions[0]',
      message: /v1\.2\.3/,
    },
  ],
  compliant: [
    { name: 'name and instance only', mutate: () => undefined },
    {
      name: 'an expression on a stable key with plain values',
      mutate: (ds) =>
        (ds.spec.selector.matchExpressions = [{ key: 'app.kubernetes.io/component', operator: 'In', values: ['agent', 'collector'] }]),
    },
  ],
});
