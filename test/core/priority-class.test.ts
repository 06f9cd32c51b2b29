import { App, Chart } from 'cdk8s';
import { LogAgent, NodeServiceChecks, PreemptionPolicy, PriorityClassSpec } from '../../src';
import { validateAll } from '../support/schema';
import { errorOf, only, synth } from '../support/synth';

const image = 'fluent/fluent-bit:3.1.9';

describe('priorityClass', () => {
  test('creates a cluster-scoped PriorityClass the pods run under, without the unknown-class warning', () => {
    const app = new App({ outdir: require('os').tmpdir() + '/cdk8s-node-services-test' });
    const warnings: string[] = [];
    NodeServiceChecks.of(app, { logger: { log: (m: string) => void warnings.push(m) } });
    const chart = new Chart(app, 'c', { namespace: 'node-services' });
    new LogAgent(chart, 'logs', {
      image,
      priorityClass: PriorityClassSpec.create({ name: 'node-agents-high', value: 1000000, preemptionPolicy: PreemptionPolicy.NEVER }),
    });
    app.synth();
    const objects = synth(chart);
    validateAll(objects);
    const pc = only(objects, 'PriorityClass');
    expect(pc.metadata.namespace).toBeUndefined();
    expect(pc).toMatchObject({ metadata: { name: 'node-agents-high' }, value: 1000000, preemptionPolicy: 'Never', globalDefault: false });
    expect(only(objects, 'DaemonSet').spec.template.spec.priorityClassName).toBe('node-agents-high');
    expect(warnings.join('')).not.toContain('priority-class-unknown');
  });

  test('wrong input: type, reserved name, a value in the system range, with priorityClassName', () => {
    expect(errorOf((s) => new LogAgent(s, 'l', { image, priorityClass: { name: 'x', value: 1 } as any }))).toContain('priorityClass');
    const message = errorOf(
      (s) =>
        new LogAgent(s, 'l', {
          image,
          priorityClass: PriorityClassSpec.create({ name: 'system-mine', value: 2000000000 }),
          priorityClassName: 'other',
        }),
    );
    expect(message).toContain('priorityClass.name = "system-mine": the \'system-\' prefix is reserved');
    expect(message).toContain('priorityClass.value = 2000000000: must be a whole number of at most 1000000000');
    expect(message).toContain('priorityClassName = "other": cannot be combined with priorityClass');
    expect(() => PriorityClassSpec.create({ name: 'Bad', value: 1.5 })).toThrow(
      '- PriorityClassSpec.create(options.value) = 1.5: must be a whole number',
    );
  });
});
