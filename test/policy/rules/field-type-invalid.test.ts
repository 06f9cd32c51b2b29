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
    {
      // the API server's Quantity decoding refuses it (kubectl gets a 400), outside requests and limits too
      name: 'pod overhead that is no quantity',
      mutate: (ds) => (podOf(ds).overhead = { cpu: '1Gb' }),
      path: `${POD}.overhead.cpu`,
      message: /is the string "1Gb", not a quantity/,
    },
    {
      name: 'a downward-API divisor that is no quantity',
      mutate: (ds) =>
        (mainContainer(ds).env = [{ name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: 'one Mi' } } }]),
      path: `${POD}.containers[0].env[0].valueFrom.resourceFieldRef.divisor`,
      message: /is the string "one Mi", not a quantity/,
    },
    {
      name: 'a timestamp that is not RFC 3339',
      mutate: (ds) => (ds.metadata.creationTimestamp = '2024-02-30T10:00:00Z'),
      path: 'metadata.creationTimestamp',
      message: /not an RFC 3339 timestamp/,
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
    {
      name: 'a quantity with spaces around it (the API server trims it), RFC 3339 timestamps with an offset and a fraction',
      mutate: (ds) => {
        podOf(ds).overhead = { cpu: ' 250m ', memory: 1e9 };
        ds.metadata.creationTimestamp = '2024-02-29T23:59:59.123+05:30';
        ds.spec.template.metadata.creationTimestamp = null;
      },
    },
    {
      // quantity-invalid's finding, not a second one of this rule (one finding per cause)
      name: 'a request that is no quantity',
      mutate: (ds) => (mainContainer(ds).resources.requests.cpu = '1Gb'),
    },
  ],
});
