/**
 * Rule `daemonset-spec-invalid`: DaemonSet spec fields must be valid.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('daemonset-spec-invalid', {
  nonCompliant: [
    { name: 'no containers', mutate: (ds) => (podOf(ds).containers = []), path: `${POD}.containers` },
    {
      name: 'activeDeadlineSeconds',
      mutate: (ds) => (podOf(ds).activeDeadlineSeconds = 60),
      path: `${POD}.activeDeadlineSeconds`,
      message: /60/,
    },
    {
      name: 'negative minReadySeconds',
      mutate: (ds) => (ds.spec.minReadySeconds = -1),
      path: 'spec.minReadySeconds',
      message: /-1/,
    },
  ],
  compliant: [
    {
      name: 'counters set to valid values',
      mutate: (ds) => Object.assign(ds.spec, { minReadySeconds: 10, revisionHistoryLimit: 0 }),
    },
  ],
});
