import { lintOutput } from '../../src/adopt/lint';
import { KIND_ANNOTATION } from '../../src/policy/kinds';
import { SUPPRESSION_ANNOTATION_PREFIX } from '../../src/policy/suppression';

/** A log agent that adds SYS_ADMIN (outside the log-agent allowlist: an error), optionally suppressed. */
function agent(suppression?: string): Record<string, unknown> {
  const annotations: Record<string, string> = { [KIND_ANNOTATION]: 'log-agent' };
  if (suppression !== undefined) annotations[`${SUPPRESSION_ANNOTATION_PREFIX}capability-not-allowed`] = suppression;
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'logging', annotations },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          containers: [
            {
              name: 'agent',
              image: 'example.com/agent:1.0',
              resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '64Mi' } },
              securityContext: { capabilities: { drop: ['ALL'], add: ['SYS_ADMIN'] } },
            },
          ],
        },
      },
    },
  };
}

const REASON = 'carried from input.yaml: the input adds SYS_ADMIN';

describe('lint of the synthesized app at error level', () => {
  test('GIVEN an input with an error WHEN the output suppresses it with a reason THEN it is listed as carried with that reason', () => {
    const result = lintOutput([agent()], [agent(REASON)]);
    expect(result.errors).toEqual([]);
    expect(result.carried.map((c) => [c.ruleId, c.object, c.reason])).toEqual([
      ['capability-not-allowed', 'DaemonSet logging/agent', REASON],
    ]);
  });

  test('GIVEN an input without the error WHEN the output suppresses it THEN it is an error, not carried', () => {
    const clean = agent();
    const pod = ((clean.spec as any).template.spec.containers as any[])[0];
    pod.securityContext = { capabilities: { drop: ['ALL'] } };
    const result = lintOutput([clean], [agent(REASON)]);
    expect(result.carried).toEqual([]);
    expect(result.errors.map((e) => e.ruleId)).toEqual(['capability-not-allowed']);
  });

  test('GIVEN an input with an error WHEN the output has it unsuppressed THEN it is an error', () => {
    const result = lintOutput([agent()], [agent()]);
    expect(result.carried).toEqual([]);
    expect(result.errors.map((e) => [e.ruleId, e.path])).toEqual([
      ['capability-not-allowed', 'spec.template.spec.containers[0].securityContext.capabilities.add[0]'],
    ]);
  });
});
