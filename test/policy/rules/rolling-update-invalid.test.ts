/**
 * Rule `rolling-update-invalid`: Update strategy must be RollingUpdate or OnDelete with exactly one of
 * maxUnavailable/maxSurge non-zero.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule } from './support';

describeRule('rolling-update-invalid', {
  nonCompliant: [
    {
      name: 'maxSurge alone (maxUnavailable defaults to 1)',
      mutate: (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxSurge: 1 }),
      path: 'spec.updateStrategy.rollingUpdate.maxSurge',
      message: /defaults to 1/,
    },
    {
      name: 'both zero',
      mutate: (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: '0%' }),
      path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
      message: /both zero/,
    },
    {
      name: 'percentage without %',
      mutate: (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: '10' }),
      path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
      message: /'10'/,
    },
    {
      name: 'unknown type',
      mutate: (ds) => (ds.spec.updateStrategy = { type: 'Recreate' }),
      path: 'spec.updateStrategy.type',
      message: /Recreate/,
    },
    {
      name: 'Kruise rollingUpdateType not Standard, Surging or InPlaceIfPossible',
      mutate: (ds) => {
        ds.apiVersion = 'apps.kruise.io/v1alpha1';
        ds.spec.updateStrategy.rollingUpdate = { rollingUpdateType: 'Fast', partition: -1 };
      },
      path: 'spec.updateStrategy.rollingUpdate.rollingUpdateType',
      message: /'Fast'/,
    },
    {
      name: 'Kruise partition below zero',
      mutate: (ds) => {
        ds.apiVersion = 'apps.kruise.io/v1alpha1';
        ds.spec.updateStrategy.rollingUpdate = { partition: -1 };
      },
      path: 'spec.updateStrategy.rollingUpdate.partition',
    },
  ],
  compliant: [
    {
      name: 'an empty type defaults to RollingUpdate before validation',
      mutate: (ds) => (ds.spec.updateStrategy.type = ''),
    },
    {
      name: 'a Kruise Advanced DaemonSet with partition, selector and surge next to unavailability',
      mutate: (ds) => {
        ds.apiVersion = 'apps.kruise.io/v1alpha1';
        ds.spec.updateStrategy.rollingUpdate = {
          rollingUpdateType: 'Surging',
          partition: 5,
          maxSurge: 1,
          maxUnavailable: 1,
          paused: false,
          selector: { matchLabels: { canary: 'true' } },
        };
      },
    },
    {
      name: 'surge with explicit maxUnavailable 0',
      mutate: (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: 1 }),
    },
    {
      name: 'percentage',
      mutate: (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: '10%' }),
    },
    { name: 'no strategy (defaults)', mutate: (ds) => delete ds.spec.updateStrategy },
    {
      name: 'OnDelete ignores rollingUpdate',
      mutate: (ds) => (ds.spec.updateStrategy = { type: 'OnDelete', rollingUpdate: { maxSurge: 5 } }),
    },
  ],
});
