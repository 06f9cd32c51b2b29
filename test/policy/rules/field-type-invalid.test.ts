/**
 * Rule `field-type-invalid`: Every value must have its field's JSON type.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, mainContainer, POD, podOf } from './support';

describeRule('field-type-invalid', {
  nonCompliant: [
    {
      // the API server cannot decode a number into a label value (map[string]string): reported once, as its type
      name: 'numeric label value on the template',
      mutate: (ds) => (ds.spec.template.metadata.labels.tier = 3),
      path: 'spec.template.metadata.labels.tier',
      message: /is the number 3; a string goes here/,
    },
    {
      name: 'hostNetwork as the string "true"',
      mutate: (ds) => (podOf(ds).hostNetwork = 'true'),
      path: `${POD}.hostNetwork`,
      message: /is the string "true"; a boolean/,
    },
  ],
  compliant: [
    {
      name: 'an octal mode, a percentage, a number as quantity, null as unset',
      mutate: (ds) => {
        podOf(ds).volumes.push({ name: 'conf', configMap: { name: 'conf', defaultMode: 0o644 } });
        ds.spec.updateStrategy.rollingUpdate.maxUnavailable = '10%';
        mainContainer(ds).resources.requests.cpu = 0.1;
        podOf(ds).nodeSelector = null;
      },
    },
  ],
});
