/**
 * One round: the problems of a construct's props and the problems found at synthesis come in one error, sorted by
 * construct path, each once; a construct with invalid props builds no object and its properties never throw a
 * TypeError. Factories refuse arguments of the wrong type at once.
 */

import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import {
  ContainerSpec,
  LogAgent,
  NodePool,
  NodeService,
  NodeServiceAlerts,
  NodeServiceError,
  NodeServiceGuardrails,
  NodeServiceKind,
  NodeServicesNamespace,
  Taint,
  Toleration,
} from '../../src';
import { errorOf, propsErrorIn, testChart } from '../support/synth';

const image = 'registry.example.com/agent:1.2.3';
const container: ContainerSpec = { name: 'main', image };

/** The entries of a cdk8s validation error: each `[path] …` line with the lines that continue it. */
function entries(message: string): string[] {
  const out: string[] = [];
  for (const line of message.split('\n').slice(1)) {
    if (line.startsWith('  [')) out.push(line);
    else out[out.length - 1] += `\n${line}`;
  }
  return out;
}

describe('construction and synthesis problems come in one error', () => {
  test('GIVEN a service with a bad name and another with a host port used twice WHEN synthesized THEN one error lists both', () => {
    const message = errorOf((scope) => {
      new NodeService(scope, 'named', { name: 'Bad_Name', containers: [container] });
      new NodeService(scope, 'ports', {
        name: 'ports',
        containers: [
          {
            ...container,
            ports: [
              { name: 'metrics', containerPort: 9100, hostPort: 9100 },
              { name: 'health', containerPort: 9101, hostPort: 9100 },
            ],
          },
        ],
      });
    });
    expect(message).toContain('[test/named] invalid props (1 problem):\n    - name = "Bad_Name"');
    expect(message).toMatch(/\[test\/ports\] port-invalid: .*9100/);
  });

  test('GIVEN a bad label value and a pool the service does not cover WHEN synthesized THEN one error lists both', () => {
    const gpu = NodePool.of({ name: 'gpu', labels: { 'node.example.com/pool': 'gpu' }, taints: [Taint.noSchedule('nvidia.com/gpu')] });
    const message = errorOf((scope) => {
      new NodeService(scope, 'labelled', { name: 'labelled', containers: [container], labels: { team: 'not a label value!' } });
      new NodeService(scope, 'covering', {
        name: 'covering',
        containers: [container],
        pools: [gpu],
        nodeSelector: { 'node.example.com/pool': 'cpu' },
      });
    });
    expect(message).toContain('[test/labelled] invalid props (1 problem):\n    - labels["team"] = "not a label value!"');
    expect(message).toContain('[test/covering] coverage: DaemonSet covering would not run on node pool "gpu"');
  });

  test('GIVEN alerts with no services and a bad runbook URL THEN one error lists both', () => {
    const message = errorOf((scope) => new NodeServiceAlerts(scope, 'alerts', { services: [], runbookBaseUrl: 'runbooks.example.com' }));
    expect(entries(message)).toEqual([
      [
        '  [test/alerts] invalid props (2 problems):',
        '    - services = []: at least one node service is required. Fix: pass services: [{ name: "fluent-bit", namespace: "node-services", kind: "log-agent" }]',
        '    - runbookBaseUrl = "runbooks.example.com": is not an http(s) URL. Fix: use e.g. "https://runbooks.example.com/node-services"',
      ].join('\n'),
    ]);
  });

  test('GIVEN a memory limit of 1Gb and no requests THEN the missing requests and the bad quantity come in one error', () => {
    const message = errorOf(
      (scope) => new NodeService(scope, 'svc', { name: 'agent', containers: [{ ...container, resources: { memoryLimit: '1Gb' } as any }] }),
    );
    expect(message).toContain('- containers[0].resources.cpuRequest = undefined: is required.');
    expect(message).toContain('- containers[0].resources.memoryRequest = undefined: is required.');
    expect(message).toContain('- containers[0].resources.memoryLimit = "1Gb": must be a quantity');
  });

  test('GIVEN problems in constructs added out of order THEN they are sorted by construct path, each once', () => {
    const message = errorOf((scope) => {
      new NodeService(scope, 'b', { name: 'B', containers: [container] });
      new NodeService(scope, 'a', { name: 'A', containers: [container] });
      new LogAgent(scope, 'c', { image, name: 'same' });
      new LogAgent(scope, 'd', { image, name: 'same' });
    });
    const paths = entries(message).map((e) => /^ {2}\[([^\]]*)\]/.exec(e)![1]);
    expect(paths).toEqual(['test/a', 'test/b', 'test/d']);
    expect(new Set(entries(message)).size).toBe(entries(message).length);
  });
});

describe('a construct with invalid props', () => {
  const constructs: Array<[string, (scope: Construct) => Construct]> = [
    ['NodeService', (s) => new NodeService(s, 'x', { name: 'Bad_Name', containers: [container] })],
    ['LogAgent', (s) => new LogAgent(s, 'x', { image: 'not an image' })],
    ['NodeServiceAlerts', (s) => new NodeServiceAlerts(s, 'x', { services: [] })],
    ['NodeServiceGuardrails', (s) => new NodeServiceGuardrails(s, 'x', { contact: '' })],
    ['NodeServicesNamespace', (s) => new NodeServicesNamespace(s, 'x', { name: 'Bad_Name' })],
  ];

  test.each(constructs)('GIVEN a %s with invalid props THEN it builds no object and synthesis reports its problems', (_what, build) => {
    const chart = testChart();
    const construct = build(chart);
    expect(construct.node.findAll().filter(ApiObject.isApiObject)).toEqual([]);
    expect(propsErrorIn(chart)).toBeInstanceOf(NodeServiceError);
  });

  test.each(constructs)('GIVEN a %s with invalid props THEN reading any public property never throws a TypeError', (_what, build) => {
    const construct = build(testChart()) as any;
    const names = new Set<string>();
    for (let o = construct; o && o !== Construct.prototype; o = Object.getPrototypeOf(o)) {
      for (const n of Object.getOwnPropertyNames(o)) if (!n.startsWith('_') && n !== 'constructor') names.add(n);
    }
    for (const name of names) {
      let value: unknown;
      try {
        value = construct[name];
      } catch (e) {
        // An object the construct did not build: reading it throws the props' error, never a TypeError.
        expect({ name, error: e instanceof NodeServiceError }).toEqual({ name, error: true });
      }
      if (Array.isArray(value)) expect(value.every((v) => v !== undefined)).toBe(true);
    }
  });

  test('GIVEN a service with a bad name THEN it exposes what it resolved, no DaemonSet, and daemonSet throws its NodeServiceError', () => {
    const service = new NodeService(testChart(), 'svc', { name: 'Bad_Name', kind: NodeServiceKind.LOG_AGENT, containers: [container] });
    expect(service.name).toBe('Bad_Name');
    expect(service.kind).toBe(NodeServiceKind.LOG_AGENT);
    expect(service.daemonSets).toEqual([]);
    expect(service.daemonSetNames).toEqual([]);
    expect(() => service.daemonSet).toThrow(NodeServiceError);
    expect(() => service.daemonSet).toThrow('[test/svc] invalid props (1 problem):\n  - name = "Bad_Name"');
  });
});

describe('factory arguments from plain JavaScript', () => {
  test('GIVEN Toleration.equal without its value THEN the factory refuses it (instead of value: "")', () => {
    expect(() => (Toleration.equal as any)('nvidia.com/gpu')).toThrow(
      '[Toleration.equal] invalid arguments (1 problem):\n  - Toleration.equal(value) = undefined: is required. Fix: pass a string',
    );
  });

  test('GIVEN Toleration.exists with an effect string for its options THEN the factory refuses it (instead of dropping it)', () => {
    expect(() => (Toleration.exists as any)('dedicated', 'NoSchedule')).toThrow(
      '- Toleration.exists(options) = "NoSchedule": must be an object (TolerationOptions). Fix: pass an object (TolerationOptions) with the fields effect, tolerationSeconds',
    );
  });

  test('GIVEN a misspelt option or an argument too many THEN each is named in one error', () => {
    let error: unknown;
    try {
      (Toleration.exists as any)('dedicated', { efect: 'NoSchedule' }, 'NoSchedule');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NodeServiceError);
    expect((error as NodeServiceError).problems.map((p) => `${p.field}: ${p.problem}. Fix: ${p.fix}`)).toEqual([
      'Toleration.exists(options.efect): is not an option here. Fix: did you mean "effect"?',
      'Toleration.exists(arguments[2]): is past the last parameter of Toleration.exists(key, options). Fix: remove it',
    ]);
  });
});
