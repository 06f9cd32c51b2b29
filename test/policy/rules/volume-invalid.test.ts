/**
 * Rule `volume-invalid`: Volumes need a valid name and exactly one source.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('volume-invalid', {
  nonCompliant: [
    {
      name: 'two sources',
      mutate: (ds) => (podOf(ds).volumes[0].emptyDir = {}),
      path: `${POD}.volumes[0]`,
      message: /hostPath, emptyDir/,
    },
    {
      // SetDefaults_Volume makes a volume without a source an emptyDir: accepted, a warning that a source may be missing
      name: 'no source (defaulted to emptyDir: a warning)',
      mutate: (ds) => podOf(ds).volumes.push({ name: 'empty' }),
      path: `${POD}.volumes[1]`,
      message: /no source, so the API server makes it an emptyDir/,
      severity: 'warning',
    },
    {
      name: 'name with upper case',
      mutate: (ds) => podOf(ds).volumes.push({ name: 'Tmp', emptyDir: {} }),
      path: `${POD}.volumes[1].name`,
      message: /Tmp/,
    },
  ],
  compliant: [
    {
      name: 'configMap volume',
      mutate: (ds) => podOf(ds).volumes.push({ name: 'config', configMap: { name: 'fluent-bit' } }),
    },
  ],
});
