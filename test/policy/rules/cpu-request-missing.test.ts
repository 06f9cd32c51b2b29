/**
 * Rule `cpu-request-missing`: No CPU request.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('cpu-request-missing', {
  nonCompliant: [
    {
      name: 'no cpu request',
      mutate: (ds) => delete mainContainer(ds).resources.requests.cpu,
      path: `${C0}.resources.requests.cpu`,
    },
    {
      name: 'zero cpu request',
      mutate: (ds) => (mainContainer(ds).resources.requests.cpu = '0'),
      path: `${C0}.resources.requests.cpu`,
    },
  ],
  compliant: [{ name: 'request set', mutate: () => undefined }],
});
