/**
 * The node tax: what every node service landing on a node requests there, summed, against allocatable and a budget.
 * Effective requests are the scheduler's (`resource.PodRequests`, daemonset-scheduling.md §7): per resource
 * max(Σ app containers, largest init container) + overhead; from 1.29 restartable init containers (sidecars) add.
 */

import { Testing } from 'cdk8s';
import { compileWorkload } from '../../src/coverage';
import { analyzeCoverage } from '../../src/coverage/analyze';
import * as compile from '../../src/coverage/compile';
import { nodeTax } from '../../src/coverage/node-tax';
import { poolTaxes } from '../../src/coverage/pool-tax';
import { ContainerSpec, NodeBudget, NodePool, NodeService } from '../../src';
import { container, daemonSet, node } from './support';
import { errorOf, testChart } from '../support/synth';

const Mi = 2 ** 20;
/** A RuntimeClass with a fixed pod overhead of 250m CPU and 160Mi memory. */
const kata = {
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name: 'kata' },
  handler: 'kata',
  overhead: { podFixed: { cpu: '250m', memory: '160Mi' } },
};
const vector = (cpu: number, memory: number) => ({ cpu, memory, ephemeralStorage: 0, scalars: undefined });

describe('nodeTax (pure)', () => {
  test('sums the services, gives each share, and names what exceeds allocatable and the budget', () => {
    // GIVEN 250m / 512Mi allocatable and three services of 300m / 820Mi together (the field case)
    const services = [
      { name: 'logging/fluent-bit', cpu: 100, memory: 256 * Mi },
      { name: 'monitoring/node-exporter', cpu: 100, memory: 180 * Mi },
      { name: 'security/falco', cpu: 100, memory: 384 * Mi },
    ];
    const tax = nodeTax(services, vector(250, 512 * Mi), 110, { cpuPercent: 8, memoryPercent: 10 });
    // THEN
    expect([tax.cpu, tax.memory, tax.pods]).toEqual([300, 820 * Mi, 3]);
    expect(tax.cpuPercent).toBeCloseTo(120);
    expect(tax.overAllocatable).toEqual(['cpu 300m of 250m allocatable', 'memory 820Mi of 512Mi allocatable']);
    expect(tax.overBudget).toEqual([
      'cpu 300m is 120% of allocatable, over the budget of 8%',
      'memory 820Mi is 160.2% of allocatable, over the budget of 10%',
    ]);
    // largest share first
    expect(tax.services.map((s) => s.name)).toEqual(['security/falco', 'logging/fluent-bit', 'monitoring/node-exporter']);
    expect(tax.services[0].memoryPercent).toBeCloseTo(75);
  });

  test('within allocatable and budget: nothing to report; equality fits', () => {
    const tax = nodeTax([{ name: 'a', cpu: 80, memory: 100 * Mi }], vector(1000, 1000 * Mi), 110, { cpuPercent: 8, memoryPercent: 10 });
    expect([tax.overAllocatable, tax.overBudget]).toEqual([[], []]);
  });

  test('more services than pod slots is over allocatable', () => {
    const tax = nodeTax(
      [
        { name: 'a', cpu: 1, memory: 1 },
        { name: 'b', cpu: 1, memory: 1 },
      ],
      vector(1000, Mi),
      1,
    );
    expect(tax.overAllocatable).toEqual(['2 pods of 1 pod slots']);
  });
});

describe('effective requests (what a service costs a node)', () => {
  const requestsOf = (spec: any, minor?: number, runtimeClasses?: any[]) =>
    compileWorkload(daemonSet('agent', spec), { kubernetesMinor: minor, runtimeClasses }).requests;

  test('the largest init container counts when it is larger than the app containers, per resource', () => {
    const spec = {
      initContainers: [
        container('setup', { requests: { cpu: '500m', memory: '10Mi' } }),
        container('migrate', { requests: { cpu: '100m', memory: '20Mi' } }),
      ],
      containers: [
        container('a', { requests: { cpu: '100m', memory: '64Mi' } }),
        container('b', { requests: { cpu: '50m', memory: '64Mi' } }),
      ],
    };
    const r = requestsOf(spec);
    expect([r.cpu, r.memory]).toEqual([500, 128 * Mi]);
  });

  test('sidecars (restartable init containers) add from 1.29; in 1.28 they are plain init containers', () => {
    const spec = {
      initContainers: [container('shipper', { restartPolicy: 'Always', requests: { cpu: '50m', memory: '32Mi' } })],
      containers: [container('a', { requests: { cpu: '100m', memory: '64Mi' } })],
    };
    expect(requestsOf(spec, 29).cpu).toBe(150);
    expect(requestsOf(spec, 28).cpu).toBe(100);
  });

  test('RuntimeClass overhead adds: spec.overhead as given, or a RuntimeClass object in the input', () => {
    const overhead = {
      containers: [container('a', { requests: { cpu: '100m', memory: '64Mi' } })],
      overhead: { cpu: '250m', memory: '120Mi' },
    };
    expect(requestsOf(overhead).cpu).toBe(350);
    const r = requestsOf(
      { runtimeClassName: 'kata', containers: [container('a', { requests: { cpu: '100m', memory: '64Mi' } })] },
      undefined,
      [kata],
    );
    expect([r.cpu, r.memory]).toEqual([350, 224 * Mi]);
  });
});

describe('pool taxes reuse what the analysis compiled', () => {
  const manifests = [
    kata,
    daemonSet('sidecar', {
      initContainers: [container('shipper', { restartPolicy: 'Always', requests: { cpu: '50m', memory: '32Mi' } })],
      containers: [container('a', { requests: { cpu: '100m', memory: '64Mi' } })],
    }),
    daemonSet('kata', { runtimeClassName: 'kata', containers: [container('b', { requests: { cpu: '100m', memory: '64Mi' } })] }),
    // rejected by the API server (a negative request): no pool tax, and it shifts the index of the analysed ones
    daemonSet('invalid', { containers: [container('c', { requests: { cpu: '-1' } })] }),
    daemonSet('plain'),
  ];
  const nodes = [
    node('a1', { labels: { 'node.kubernetes.io/pool': 'a' } }),
    node('a2', { labels: { 'node.kubernetes.io/pool': 'a' }, allocatable: { cpu: '1', memory: '2Gi', pods: '20' } }),
    node('b1', { labels: { 'node.kubernetes.io/pool': 'b' }, allocatable: { cpu: '500m', memory: '1Gi', pods: '10' } }),
  ];

  test.each([undefined, 28, 29])('the same taxes as compiling the DaemonSets again (Kubernetes minor %s)', (minor) => {
    const options = minor === undefined ? undefined : { kubernetesMinor: minor };
    const report = analyzeCoverage(manifests, nodes, undefined, options);
    expect(report.workloads.map((w) => w.status)).toEqual(['analyzed', 'analyzed', 'invalid', 'analyzed']);
    // The analysis' requests serve only the manifests it read and the minor it read them for: a copy of the list is
    // compiled again, so the two results below come from the two paths.
    const compiles = jest.spyOn(compile, 'compileWorkload');
    const reused = poolTaxes(report, manifests, nodes, undefined, undefined, minor);
    expect(compiles).not.toHaveBeenCalled();
    const compiledAgain = poolTaxes(report, [...manifests], nodes, undefined, undefined, minor);
    expect(compiles).toHaveBeenCalledTimes(3);
    compiles.mockRestore();
    expect(reused).toEqual(compiledAgain);
    expect(reused.pools.map((p) => [p.pool, p.node])).toEqual([
      ['a', 'a2'],
      ['b', 'b1'],
    ]);
    // the sidecar counts from 1.29 on, the RuntimeClass overhead always
    const cpuOf = (name: string) => reused.pools[1].tax.services.find((s) => s.name === `node-services/${name}`)?.cpu;
    expect(cpuOf('kata')).toBe(350);
    expect(cpuOf('sidecar')).toBe(minor === 29 ? 150 : 100);
  });

  test('a report analysed for another minor, or with RuntimeClasses given as an option, is compiled again', () => {
    const report28 = analyzeCoverage(manifests, nodes, undefined, { kubernetesMinor: 28 });
    const taxes29 = poolTaxes(report28, manifests, nodes, undefined, undefined, 29);
    const sidecar = taxes29.pools[1].tax.services.find((s) => s.name === 'node-services/sidecar');
    expect(sidecar?.cpu).toBe(150);
    const withOption = analyzeCoverage(manifests.slice(1), nodes, undefined, { runtimeClasses: [kata] });
    const taxes = poolTaxes(withOption, manifests.slice(1), nodes, undefined, undefined, undefined);
    // compiled again from the manifests alone, which hold no RuntimeClass: no overhead
    expect(taxes.pools[1].tax.services.find((s) => s.name === 'node-services/kata')?.cpu).toBe(100);
  });
});

describe('the node tax at synth', () => {
  const main = (name: string, cpu: string, memory: string, extra: Partial<ContainerSpec> = {}): ContainerSpec =>
    ({
      name,
      image: `registry.example.com/${name}:1.0.0`,
      resources: { cpuRequest: cpu, memoryRequest: memory, memoryLimit: memory },
      ...extra,
    }) as ContainerSpec;
  const small = (budget?: NodeBudget) =>
    NodePool.of({ name: 'small', labels: { pool: 'small' }, allocatable: { cpu: '250m', memory: '512Mi', pods: '110' }, budget });
  const gpu = NodePool.gpu();

  function synthError(build: (chart: any) => void): string | undefined {
    const chart = testChart();
    build(chart);
    try {
      Testing.synth(chart);
    } catch (e) {
      return (e as Error).message;
    }
    return undefined;
  }

  test('three services that each fit but together exceed the pool fail synth, naming the pool, the services and their shares', () => {
    // GIVEN the field case: 250m / 512Mi, a log agent, a metrics exporter and a security agent (300m / 820Mi)
    const pool = small();
    const message = synthError((chart) => {
      new NodeService(chart, 'logs', {
        name: 'fluent-bit',
        namespace: 'logging',
        pools: [pool],
        containers: [main('fluent-bit', '100m', '256Mi')],
      });
      new NodeService(chart, 'metrics', {
        name: 'node-exporter',
        namespace: 'monitoring',
        pools: [pool],
        containers: [main('node-exporter', '100m', '180Mi')],
      });
      new NodeService(chart, 'security', {
        name: 'falco',
        namespace: 'security',
        pools: [pool],
        containers: [main('falco', '100m', '384Mi')],
      });
    });
    // THEN synth fails with one error for the pool
    expect(message).toContain(
      'node tax: the node services landing on node pool "small" request more than it can give: cpu 300m of 250m allocatable; memory 820Mi of 512Mi allocatable. ' +
        'Services there: security/falco cpu 100m (40%), memory 384Mi (75%); logging/fluent-bit cpu 100m (40%), memory 256Mi (50%); ' +
        'monitoring/node-exporter cpu 100m (40%), memory 180Mi (35.2%). Fix: lower their requests, give the pool larger nodes (allocatable), keep some services off the pool',
    );
  });

  test('over budget (but within allocatable) fails synth and says so', () => {
    const pool = small(NodeBudget.of({ cpuPercent: 8, memoryPercent: 10 }));
    const message = synthError((chart) => {
      new NodeService(chart, 'logs', { name: 'fluent-bit', pools: [pool], containers: [main('fluent-bit', '10m', '64Mi')] });
    });
    expect(message).toMatch(
      /node pool "small" request more than it can give: memory 64Mi is 12.5% of allocatable, over the budget of 10%\. Services there: \S+\/fluent-bit cpu 10m \(4%\), memory 64Mi \(12.5%\)/,
    );
    expect(message).toMatch(/or raise the budget/);
    expect(message).not.toMatch(/cpu 10m is/);
  });

  test('only services that land on the pool count: a GPU-only service does not tax it', () => {
    const pool = small(NodeBudget.of({ cpuPercent: 50 }));
    const message = synthError((chart) => {
      new NodeService(chart, 'logs', { name: 'fluent-bit', pools: [pool], containers: [main('fluent-bit', '100m', '64Mi')] });
      new NodeService(chart, 'dcgm', { name: 'dcgm-exporter', pools: [gpu], containers: [main('dcgm', '200m', '64Mi')] });
    });
    expect(message).toBeUndefined();
  });

  test('a service that declares no pool but lands there still counts (the coverage verdict decides)', () => {
    const pool = small();
    const message = synthError((chart) => {
      new NodeService(chart, 'logs', { name: 'fluent-bit', pools: [pool], containers: [main('fluent-bit', '100m', '64Mi')] });
      new NodeService(chart, 'everywhere', { name: 'everywhere', containers: [main('everywhere', '200m', '64Mi')] });
    });
    expect(message).toMatch(
      /node pool "small" request more than it can give: cpu 300m of 250m allocatable.*node-services\/everywhere cpu 200m \(80%\)/,
    );
  });

  test('the budget is checked at the boundary: one error lists every problem', () => {
    const bad = NodePool.of({ name: 'bad', labels: { pool: 'bad' }, budget: NodeBudget.of({ cpuPercent: 0, memoryPercent: 150 }) });
    const message = errorOf(
      (scope) => new NodeService(scope, 'svc', { name: 'agent', pools: [bad], containers: [main('agent', '10m', '16Mi')] }),
    );
    expect(message).toContain('pools[0].budget.cpuPercent = 0: must be a number of percent greater than 0 and at most 100');
    expect(message).toContain('pools[0].budget.memoryPercent = 150: must be a number of percent greater than 0 and at most 100');
    expect(message).toContain("pools[0].allocatable.cpu = undefined: is needed: the budget's cpuPercent is a share of it");
    expect(message).toContain('pools[0].allocatable.memory = undefined');
    const empty = NodePool.of({ name: 'e', allocatable: { cpu: '1', memory: '1Gi' }, budget: NodeBudget.of({}) });
    expect(
      errorOf((scope) => new NodeService(scope, 'svc', { name: 'agent', pools: [empty], containers: [main('agent', '10m', '16Mi')] })),
    ).toMatch(/pools\[0\]\.budget = \{\}: sets no share/);
    expect(() => NodeBudget.of({ cpuPercent: 5, memoryPercent: '10' as any })).toThrow(
      '- NodeBudget.of(props.memoryPercent) = "10": must be a finite number',
    );
    expect(() => NodePool.of({ name: 'n', allocatable: { cpu: '1', memory: '1Gi' }, budget: { cpuPercent: 5 } as any })).toThrow(
      /NodePool.of\(props.budget\) = \{"cpuPercent":5\}: must be a NodeBudget/,
    );
  });
});
