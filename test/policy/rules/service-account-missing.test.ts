/**
 * Rule `service-account-missing`: ServiceAccount not in the input.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('service-account-missing', {
  nonCompliant: [
    {
      name: 'bound by a RoleBinding but never created',
      mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
      others: [
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'fluent-bit' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'fluent-bit' },
          subjects: [{ kind: 'ServiceAccount', name: 'fluent-bit', namespace: 'logging' }],
        },
      ],
      path: `${POD}.serviceAccountName`,
      message: /binds roles to it/,
    },
    {
      name: 'not in the input and not bound: advice',
      mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
      path: `${POD}.serviceAccountName`,
      severity: 'info',
    },
  ],
  compliant: [
    { name: 'the default ServiceAccount', mutate: () => undefined },
    {
      name: 'shipped with the DaemonSet',
      mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
      others: [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'fluent-bit', namespace: 'logging' } }],
    },
  ],
});
