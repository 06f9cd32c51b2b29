/**
 * Rule `daemonset-api-version`: DaemonSet apiVersion must be apps/v1 (or an OpenKruise Advanced DaemonSet).
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule } from './support';

describeRule('daemonset-api-version', {
  nonCompliant: [
    {
      name: 'extensions/v1beta1',
      mutate: (ds) => (ds.apiVersion = 'extensions/v1beta1'),
      path: 'apiVersion',
      message: /extensions\/v1beta1/,
    },
  ],
  compliant: [
    { name: 'an OpenKruise Advanced DaemonSet', mutate: (ds) => (ds.apiVersion = 'apps.kruise.io/v1alpha1') },
    { name: 'apps/v1', mutate: () => undefined },
  ],
});
