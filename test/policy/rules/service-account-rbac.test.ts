/**
 * Rule `service-account-rbac`: Dangerous RBAC bound to the DaemonSet's ServiceAccount.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf, rbacFor } from './support';

describeRule('service-account-rbac', {
  nonCompliant: [
    {
      name: 'wildcard verbs',
      mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
      others: rbacFor({ apiGroups: [''], resources: ['pods'], verbs: ['*'] }),
      path: `${POD}.serviceAccountName`,
      message: /wildcard/,
    },
    {
      name: 'reading Secrets',
      mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
      others: rbacFor({ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }),
      path: `${POD}.serviceAccountName`,
      message: /reads Secrets/,
    },
    {
      name: 'pods/exec',
      mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
      others: rbacFor({ apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] }),
      path: `${POD}.serviceAccountName`,
      message: /pods\/exec/,
    },
    {
      name: 'impersonate',
      mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
      others: rbacFor({ apiGroups: [''], resources: ['users'], verbs: ['impersonate'] }),
      path: `${POD}.serviceAccountName`,
      message: /impersonate/,
    },
    {
      name: 'nodes/proxy',
      mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
      others: rbacFor({ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }),
      path: `${POD}.serviceAccountName`,
      message: /nodes\/proxy/,
    },
  ],
  compliant: [
    {
      name: 'get/list/watch on pods and namespaces',
      mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
      others: rbacFor({ apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] }),
    },
    {
      name: 'a role bound to another ServiceAccount',
      mutate: (ds) => (podOf(ds).serviceAccountName = 'other'),
      others: rbacFor({ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }),
    },
  ],
});
