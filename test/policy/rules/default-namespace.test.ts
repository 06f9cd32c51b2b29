/**
 * Rule `default-namespace`: DaemonSet in the default namespace (or without a namespace).
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule } from './support';

describeRule('default-namespace', {
  nonCompliant: [
    {
      name: 'namespace default',
      mutate: (ds) => (ds.metadata.namespace = 'default'),
      path: 'metadata.namespace',
      message: /'default'/,
    },
    {
      name: 'no namespace',
      mutate: (ds) => delete ds.metadata.namespace,
      path: 'metadata.namespace',
      message: /no namespace/,
    },
  ],
  compliant: [
    { name: 'platform namespace', mutate: () => undefined },
    { name: 'kube-system', mutate: (ds) => (ds.metadata.namespace = 'kube-system') },
    { name: 'a namespace that only starts with default', mutate: (ds) => (ds.metadata.namespace = 'default-agents') },
  ],
});
