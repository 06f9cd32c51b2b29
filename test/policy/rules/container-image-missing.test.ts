/**
 * Rule `container-image-missing`: Every container needs an image.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('container-image-missing', {
  nonCompliant: [
    { name: 'no image', mutate: (ds) => delete mainContainer(ds).image, path: `${C0}.image` },
    {
      // validateContainers refuses only an empty image; a blank one is accepted and can never be pulled
      name: 'a blank image (accepted: a warning)',
      mutate: (ds) => (mainContainer(ds).image = '  '),
      path: `${C0}.image`,
      message: /blank image ' {2}': the API server accepts it/,
      severity: 'warning',
    },
  ],
  compliant: [
    {
      name: 'digest image',
      mutate: (ds) => (mainContainer(ds).image = `fluent/fluent-bit@sha256:${'a'.repeat(64)}`),
    },
  ],
});
