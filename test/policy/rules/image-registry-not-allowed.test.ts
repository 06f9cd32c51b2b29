/**
 * Rule `image-registry-not-allowed`: Image registry not on the configured allowlist.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('image-registry-not-allowed', {
  nonCompliant: [
    {
      name: 'registry outside the allowlist',
      config: { imageRegistries: ['registry.example.com/'] },
      mutate: () => undefined,
      path: `${C0}.image`,
      message: /cr\.fluentbit\.io/,
    },
    {
      name: 'look-alike registry host',
      config: { imageRegistries: ['registry.example.com'] },
      mutate: (ds) => (mainContainer(ds).image = 'registry.example.com.evil.io/fluent-bit:3.0.7'),
      path: `${C0}.image`,
    },
  ],
  compliant: [
    { name: 'no allowlist configured', mutate: () => undefined },
    {
      name: 'allowed registry (prefix without a slash)',
      config: { imageRegistries: ['registry.example.com'] },
      mutate: (ds) => (mainContainer(ds).image = 'registry.example.com/fluent/fluent-bit:3.0.7'),
    },
    {
      name: 'Docker Hub image allowed as docker.io/',
      config: { imageRegistries: ['docker.io/fluent/'] },
      mutate: (ds) => (mainContainer(ds).image = 'fluent/fluent-bit:3.0.7'),
    },
  ],
});
