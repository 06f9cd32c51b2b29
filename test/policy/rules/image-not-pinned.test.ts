/**
 * Rule `image-not-pinned`: Image not pinned (untagged or :latest).
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('image-not-pinned', {
  nonCompliant: [
    {
      name: ':latest',
      mutate: (ds) => (mainContainer(ds).image = 'fluent/fluent-bit:latest'),
      path: `${C0}.image`,
      message: /latest/,
    },
    {
      name: 'no tag',
      mutate: (ds) => (mainContainer(ds).image = 'fluent/fluent-bit'),
      path: `${C0}.image`,
      message: /no tag/,
    },
  ],
  compliant: [
    {
      name: 'digest only',
      mutate: (ds) => (mainContainer(ds).image = `fluent/fluent-bit@sha256:${'b'.repeat(64)}`),
    },
    {
      name: 'registry with a port and a tag',
      mutate: (ds) => (mainContainer(ds).image = 'registry.local:5000/fluent-bit:3.0.7'),
    },
  ],
});
