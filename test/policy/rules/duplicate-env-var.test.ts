/**
 * Rule `duplicate-env-var`: Environment variable defined twice.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { C0, describeRule, mainContainer } from './support';

describeRule('duplicate-env-var', {
  nonCompliant: [
    {
      name: 'NODE_NAME twice',
      mutate: (ds) => mainContainer(ds).env.push({ name: 'NODE_NAME', value: 'x' }),
      path: `${C0}.env[1].name`,
      message: /first at env\[0\]/,
    },
  ],
  compliant: [{ name: 'distinct names', mutate: (ds) => mainContainer(ds).env.push({ name: 'LOG_LEVEL', value: 'info' }) }],
});
