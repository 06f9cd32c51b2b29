/**
 * Rule `guardrails-deny`: The manifests' own admission guardrails deny the DaemonSet.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, guardrails } from './support';

describeRule('guardrails-deny', {
  nonCompliant: [
    {
      name: 'image outside the registry allowlist of the guardrails beside it',
      mutate: () => undefined,
      others: guardrails(['docker.io']),
      path: `${C0}.image`,
      message: /node-services-allowlists.*cr\.fluentbit\.io/,
    },
  ],
  compliant: [
    {
      name: 'admitted by the guardrails beside it',
      mutate: () => undefined,
      others: guardrails(['cr.fluentbit.io/fluent']),
    },
  ],
});
