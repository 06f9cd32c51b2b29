/**
 * Rule `host-path-not-allowed`: hostPath must be on the node-service kind's allowlist.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { KIND_ANNOTATION } from '../../../src/k8s/vocabulary';
import { describeRule, mainContainer, POD, podOf } from './support';

describeRule('host-path-not-allowed', {
  nonCompliant: [
    {
      name: '/etc for a log agent',
      mutate: (ds) => (podOf(ds).volumes[0].hostPath.path = '/etc'),
      path: `${POD}.volumes[0].hostPath.path`,
      message: /'\/etc'.*log-agent/,
    },
    {
      name: '/var/logs is not below /var/log',
      mutate: (ds) => (podOf(ds).volumes[0].hostPath.path = '/var/logs'),
      path: `${POD}.volumes[0].hostPath.path`,
      message: /\/var\/logs/,
    },
    {
      name: 'read-only entry mounted writable',
      mutate: (ds) => delete mainContainer(ds).volumeMounts[0].readOnly,
      path: `${POD}.volumes[0].hostPath.path`,
      message: /read-write/,
    },
  ],
  compliant: [
    {
      name: 'below an allowed directory',
      mutate: (ds) => (podOf(ds).volumes[0].hostPath.path = '/var/log/pods'),
    },
    {
      name: 'generic kind has no allowlist',
      kind: 'node-service',
      mutate: (ds) => (podOf(ds).volumes[0].hostPath.path = '/etc'),
    },
    {
      name: 'no kind annotation means the generic profile',
      mutate: (ds) => {
        delete ds.metadata.annotations[KIND_ANNOTATION];
        podOf(ds).volumes[0].hostPath.path = '/etc';
      },
    },
  ],
});
