/**
 * Rule `on-delete-without-reason`: OnDelete update strategy without a reason.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { ON_DELETE_REASON_ANNOTATION } from '../../../src/k8s/vocabulary';
import { describeRule } from './support';

describeRule('on-delete-without-reason', {
  nonCompliant: [
    {
      name: 'OnDelete',
      mutate: (ds) => (ds.spec.updateStrategy = { type: 'OnDelete' }),
      path: 'spec.updateStrategy.type',
    },
    {
      name: 'OnDelete with a short reason',
      mutate: (ds) => {
        ds.spec.updateStrategy = { type: 'OnDelete' };
        ds.metadata.annotations[ON_DELETE_REASON_ANNOTATION] = 'gpu';
      },
      path: 'spec.updateStrategy.type',
      message: /'gpu'/,
    },
  ],
  compliant: [
    {
      name: 'OnDelete with a reason annotation',
      mutate: (ds) => {
        ds.spec.updateStrategy = { type: 'OnDelete' };
        ds.metadata.annotations[ON_DELETE_REASON_ANNOTATION] = 'pods are replaced during node maintenance';
      },
    },
  ],
});
