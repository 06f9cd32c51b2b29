import { App, Chart, Testing } from 'cdk8s';
import {
  LogAgent,
  NodeServiceNamespace,
  NodeServiceNamespaceProps,
  NodeServicesNamespace,
  NodeServicesNamespaceProps,
  NodeServicesValidation,
  NodeServiceValidation,
} from '../src';
import { errorOf } from './support/synth';

/** The YAML of a chart with one namespace construct, built by `make`. */
function namespaceYaml(make: (chart: Chart, props: NodeServiceNamespaceProps) => unknown): unknown[] {
  const chart = new Chart(Testing.app(), 'guardrails');
  const logs = new LogAgent(new Chart(chart, 'agents'), 'logs', { image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9' });
  make(chart, { services: [logs], labels: { team: 'platform' } });
  return Testing.synth(chart);
}

describe('deprecated names (kept for one release)', () => {
  test('GIVEN NodeServicesNamespace WHEN synthesized THEN it renders exactly what NodeServiceNamespace renders', () => {
    const props: NodeServicesNamespaceProps = {};
    const old = namespaceYaml((chart, p) => new NodeServicesNamespace(chart, 'ns', { ...props, ...p }));
    const current = namespaceYaml((chart, p) => new NodeServiceNamespace(chart, 'ns', p));
    expect(old).toEqual(current);
    expect(old.length).toBeGreaterThan(0);
    expect(new NodeServicesNamespace(new Chart(new App(), 'c'), 'ns')).toBeInstanceOf(NodeServiceNamespace);
  });

  test('GIVEN NodeServicesNamespace WHEN given bad props THEN it refuses them as NodeServiceNamespace does', () => {
    const old = errorOf((scope) => new NodeServicesNamespace(scope, 'ns', { name: 'Bad_Name' }));
    const current = errorOf((scope) => new NodeServiceNamespace(scope, 'ns', { name: 'Bad_Name' }));
    expect(old).toBe(current);
    expect(old).toContain('name = "Bad_Name"');
  });

  test('GIVEN NodeServicesValidation THEN it is the validation plugin under its old name, with the same configuration checks', () => {
    expect(new NodeServicesValidation({ imageRegistries: ['registry.example.com'] })).toBeInstanceOf(NodeServiceValidation);
    expect(() => new NodeServicesValidation({ rules: { 'no-such-rule': 'off' as any } })).toThrow(/no-such-rule/);
  });
});
