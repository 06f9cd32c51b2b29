/**
 * The coverage analysis never gives a verdict on a DaemonSet whose API validity it cannot judge: the judge (the rule
 * catalogue's API-validity rules) sits above it and is installed by `policy/api-validity.ts`, which the package index
 * and the CLI commands load. A caller that imports the coverage or day2 modules alone gets a refusal, not a DaemonSet
 * the API server would reject counted as covering its nodes.
 */

import { daemonSet, node } from './support';
import { inputs } from '../day2/support';

type Analyze = typeof import('../../src/coverage/analyze');
type Diff = typeof import('../../src/day2/diff');

/** A GPU DaemonSet that requests `nvidia.com/gpu` without a limit: the API server rejects it. */
const REJECTED = daemonSet('gpu-agent', {
  containers: [{ name: 'agent', image: 'registry.example.com/agent:1.0.0', resources: { requests: { 'nvidia.com/gpu': '1' } } }],
});
const NODES = [node('worker-1')];

/** What `load` returns, loaded in a fresh module registry (nothing loaded before it, so no judge unless it loads one). */
function alone<T>(load: () => T): T {
  let out: T | undefined;
  jest.isolateModules(() => {
    out = load();
  });
  return out!;
}

/** What `f` throws (it must throw). */
function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new TypeError('expected the call to throw');
}

describe('the API-validity judge of the coverage analysis', () => {
  test('GIVEN the coverage module alone (no judge) WHEN a DaemonSet is analysed THEN it refuses, saying what to import', () => {
    const { analyzeCoverage } = alone(() => require('../../src/coverage/analyze') as Analyze);
    const e = thrown(() => analyzeCoverage([REJECTED], NODES));
    expect(e.name).toBe('ApiValidatorMissingError');
    expect((e as Error & { code?: string }).code).toBe('API_VALIDATOR_MISSING');
    expect(e.message).toContain("use the analysis through 'cdk8s-node-services' (its index installs the judge)");
    expect(e.message).toContain('import src/policy/api-validity first');
  });

  test('GIVEN the day2 diff alone (no judge) WHEN a changed DaemonSet is compared over nodes THEN it refuses', () => {
    const { diffManifests } = alone(() => require('../../src/day2/diff') as Diff);
    const changed = JSON.parse(JSON.stringify(REJECTED));
    changed.spec.template.spec.containers[0].image = 'registry.example.com/agent:1.1.0';
    const e = thrown(() => diffManifests(inputs(REJECTED), inputs(changed), { nodes: NODES }));
    expect(e.name).toBe('ApiValidatorMissingError');
  });

  test('GIVEN the coverage module alone WHEN the objects hold no DaemonSet THEN nothing needs judging and it answers', () => {
    const { analyzeCoverage } = alone(() => require('../../src/coverage/analyze') as Analyze);
    const report = analyzeCoverage([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }], NODES);
    expect(report.workloads).toEqual([]);
  });

  test('GIVEN the judge installed (as the package does) WHEN the rejected DaemonSet is analysed THEN it covers no node', () => {
    const { analyzeCoverage } = alone(() => {
      require('../../src/policy/api-validity');
      return require('../../src/coverage/analyze') as Analyze;
    });
    const report = analyzeCoverage([REJECTED], NODES);
    expect(report.workloads.map((w) => [w.name, w.status, w.nodes.length])).toEqual([['gpu-agent', 'invalid', 0]]);
  });

  test('GIVEN the package index WHEN loaded THEN it installs the judge (the rejected DaemonSet is invalid, not a refusal)', () => {
    const { analyzeCoverage } = alone(() => {
      require('../../src');
      return require('../../src/coverage/analyze') as Analyze;
    });
    expect(analyzeCoverage([REJECTED], NODES).workloads.map((w) => w.status)).toEqual(['invalid']);
  });

  test('GIVEN a DaemonSet with a 1.30 field WHEN analysed for 1.28 THEN it is invalid, and for 1.30 THEN it covers its node', () => {
    const { analyzeCoverage } = alone(() => {
      require('../../src/policy/api-validity');
      return require('../../src/coverage/analyze') as Analyze;
    });
    const ds = daemonSet('armored', {
      containers: [{ name: 'agent', image: 'registry.example.com/agent:1.0.0', resources: { requests: { cpu: '10m', memory: '16Mi' } } }],
    });
    ds.spec.template.spec.securityContext = { appArmorProfile: { type: 'RuntimeDefault' } };
    const status = (minor?: number) =>
      analyzeCoverage([ds], NODES, undefined, minor === undefined ? undefined : { kubernetesMinor: minor }).workloads.map((w) => [
        w.status,
        w.nodes.length,
      ]);
    expect(status()).toEqual([['invalid', 0]]);
    expect(status(28)).toEqual([['invalid', 0]]);
    expect(status(30)).toEqual([['analyzed', 1]]);
    expect(status(33)).toEqual([['analyzed', 1]]);
  });
});
