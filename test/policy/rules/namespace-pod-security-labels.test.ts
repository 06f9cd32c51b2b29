/**
 * Rule `namespace-pod-security-labels`: The DaemonSet's Namespace lacks Pod Security labels.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, namespaceObject } from './support';

describeRule('namespace-pod-security-labels', {
  nonCompliant: [
    {
      name: 'Namespace without labels',
      mutate: () => undefined,
      others: [namespaceObject('logging')],
      path: 'metadata.namespace',
      message: /logging/,
    },
    {
      name: 'unknown enforce level',
      mutate: () => undefined,
      others: [namespaceObject('logging', { 'pod-security.kubernetes.io/enforce': 'strict' })],
      path: 'metadata.namespace',
      message: /strict/,
    },
  ],
  compliant: [
    {
      name: 'labelled Namespace',
      mutate: () => undefined,
      others: [
        namespaceObject('logging', {
          'pod-security.kubernetes.io/enforce': 'privileged',
          'pod-security.kubernetes.io/enforce-version': 'v1.28',
        }),
      ],
    },
    {
      name: 'Namespace not in the checked set',
      mutate: () => undefined,
      others: [namespaceObject('monitoring')],
    },
  ],
});
