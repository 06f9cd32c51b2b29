/**
 * Rule `unknown-field`: Every field must exist in the target Kubernetes version.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { KubernetesVersion } from '../../../src/k8s/api-fields';
import { describeRule, POD, podOf } from './support';

describeRule('unknown-field', {
  nonCompliant: [
    {
      name: 'a field newer than 1.28',
      mutate: (ds) => (podOf(ds).securityContext.appArmorProfile = { type: 'RuntimeDefault' }),
      path: `${POD}.securityContext.appArmorProfile`,
      message: /exists from Kubernetes 1\.30; the target is 1\.28/,
    },
  ],
  compliant: [
    {
      name: 'a field newer than 1.28 with target 1.30',
      mutate: (ds) => (podOf(ds).securityContext.appArmorProfile = { type: 'RuntimeDefault' }),
      config: { kubernetesVersion: KubernetesVersion.V1_30 },
    },
  ],
});
