/**
 * Rule `node-selector-invalid`: nodeSelector and node affinity requirements must be well-formed.
 *
 * GIVEN the compliant log agent changed as a case says, WHEN it is checked, THEN the rule reports each non-compliant
 * case at its field (naming the bad value) and stays silent on each compliant case.
 */

import { describeRule, POD, podOf } from './support';

describeRule('node-selector-invalid', {
  nonCompliant: [
    {
      name: 'In without values',
      mutate: (ds) =>
        (podOf(ds).affinity = {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In' }] }],
            },
          },
        }),
      path: `${POD}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]`,
      message: /at least one value/,
    },
    {
      name: 'Gt with two values',
      mutate: (ds) =>
        (podOf(ds).affinity = {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'example.com/gpus', operator: 'Gt', values: ['1', '2'] }] }],
            },
          },
        }),
      path: `${POD}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]`,
      message: /exactly one value \(has 2\)/,
    },
    {
      // ValidateNodeSelectorRequirement checks only that Gt/Lt have one value: accepted, but the term never matches
      name: 'Gt on a value that is no integer (a warning: the term never matches)',
      mutate: (ds) =>
        (podOf(ds).affinity = {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'example.com/gpus', operator: 'Gt', values: ['two'] }] }],
            },
          },
        }),
      path: `${POD}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]`,
      message: /the API server accepts this requirement, but its term never matches a node: .*"two": Gt needs a base-10 64-bit integer/,
      severity: 'warning',
    },
    {
      name: 'nodeSelector key with a space',
      mutate: (ds) => (podOf(ds).nodeSelector = { 'node pool': 'gpu' }),
      path: `${POD}.nodeSelector['node pool']`,
      message: /node pool/,
    },
    {
      name: 'preferred weight 0',
      mutate: (ds) =>
        (podOf(ds).affinity = {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 0, preference: { matchExpressions: [{ key: 'a', operator: 'Exists' }] } },
            ],
          },
        }),
      path: `${POD}.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight`,
    },
  ],
  compliant: [
    {
      name: 'nodeSelector and Gt',
      mutate: (ds) =>
        Object.assign(podOf(ds), {
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: 'example.com/gpus', operator: 'Gt', values: ['0'] }] }],
              },
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 100, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] } },
              ],
            },
          },
        }),
    },
  ],
});
