/**
 * Rule `env-var-invalid`: Environment variables need a valid name, at most one source and a supported fieldRef path.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { KubernetesVersion } from '../../../src/k8s/api-fields';
import { C0, describeRule, mainContainer } from './support';

describeRule('env-var-invalid', {
  nonCompliant: [
    {
      name: 'a name with a space on 1.31 (relaxed names need 1.32)',
      mutate: (ds) => mainContainer(ds).env.push({ name: 'MY VAR', value: 'x' }),
      config: { kubernetesVersion: KubernetesVersion.V1_31 },
      path: `${C0}.env[1].name`,
      message: /MY VAR/,
    },
    {
      name: 'a name with "=" on 1.33',
      mutate: (ds) => mainContainer(ds).env.push({ name: 'A=B', value: 'x' }),
      config: { kubernetesVersion: KubernetesVersion.V1_33 },
      path: `${C0}.env[1].name`,
      message: /other than '='/,
    },
    {
      name: 'name starting with a digit',
      mutate: (ds) => mainContainer(ds).env.push({ name: '1LEVEL', value: 'info' }),
      path: `${C0}.env[1].name`,
      message: /1LEVEL/,
    },
    {
      name: 'value and valueFrom',
      mutate: (ds) => (mainContainer(ds).env[0].value = 'node-1'),
      path: `${C0}.env[0].valueFrom`,
      message: /NODE_NAME/,
    },
    {
      name: 'unsupported fieldRef path',
      mutate: (ds) => (mainContainer(ds).env[0].valueFrom.fieldRef.fieldPath = 'spec.nodename'),
      path: `${C0}.env[0].valueFrom.fieldRef.fieldPath`,
      message: /did you mean 'spec\.nodeName'/,
    },
  ],
  compliant: [
    {
      name: 'a name with a space and a leading digit on 1.32 (RelaxedEnvironmentVariableValidation)',
      mutate: (ds) => mainContainer(ds).env.push({ name: '1 MY-VAR', value: 'x' }),
      config: { kubernetesVersion: KubernetesVersion.V1_32 },
    },
    {
      name: 'dotted name and a literal value',
      mutate: (ds) => mainContainer(ds).env.push({ name: 'fluent.log_level', value: 'info' }),
    },
  ],
});
