/**
 * Property: for a generated DaemonSet (names with dots, labels in any order, quoted and empty values, multi-line
 * scripts, partial or complete resources, read-only and writable host paths, tolerations, host networking with or
 * without a DNS policy, rollouts), the import checks clean, and importing the app's synthesized output again gives the
 * same objects and the same code.
 */

import * as fc from 'fast-check';
import { importManifests, ImportResult } from '../../src/adopt';
import { RUNTIME } from './support';

const FILE = 'generated/daemonset.yaml';

const label = fc.stringMatching(/^[a-z]([a-z0-9-]{0,10}[a-z0-9])?$/);
const labelKey = fc.oneof(
  label,
  fc.tuple(label, label).map(([p, n]) => `${p}.example.com/${n}`),
);
const text = fc.oneof(
  fc.constantFrom('', 'true', 'false', '010', 'null', '~', 'yes', '1.0', '"quoted"', "it's", 'a: b', '#not a comment'),
  fc.string({ maxLength: 12 }),
  fc
    .array(fc.constantFrom('set -eu', 'printf "tab:\\there\\n"', "echo '${NODE_NAME:-x}' \\\\", '\tindented'), {
      minLength: 2,
      maxLength: 4,
    })
    .map((l) => `${l.join('\n')}\n`),
);
const quantity = (unit: string, values: readonly number[]) => fc.constantFrom(...values).map((v) => `${v}${unit}`);

const resources = fc.record(
  {
    requests: fc.record({ cpu: quantity('m', [50, 100, 250]), memory: quantity('Mi', [64, 128]) }, { requiredKeys: [] }),
    limits: fc.record({ memory: quantity('Mi', [256, 512]) }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);

const HOST_PATHS = ['/var/log', '/var/lib/agent', '/run/agent', '/etc/agent', '/var/log/pods'] as const;
const hostPaths = fc.uniqueArray(fc.record({ path: fc.constantFrom(...HOST_PATHS), readOnly: fc.boolean() }), {
  selector: (h) => h.path,
  maxLength: 3,
});

const toleration = fc.oneof(
  fc.record({ key: labelKey, operator: fc.constant('Exists'), effect: fc.constantFrom('NoSchedule', 'NoExecute') }),
  fc.record({ key: labelKey, operator: fc.constant('Equal'), value: label, effect: fc.constant('NoSchedule') }),
  fc.constant({ operator: 'Exists' }),
);

const daemonSet = fc
  .record({
    name: fc.oneof(
      label,
      fc.tuple(label, label).map(([a, b]) => `${a}.${b}`),
    ),
    labels: fc.dictionary(labelKey, label, { maxKeys: 3 }),
    env: fc.uniqueArray(fc.tuple(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,8}$/), text), { selector: ([k]) => k, maxLength: 4 }),
    args: fc.option(fc.array(text, { minLength: 1, maxLength: 2 }), { nil: undefined }),
    resources: fc.option(resources, { nil: undefined }),
    hostPaths,
    tolerations: fc.array(toleration, { maxLength: 2 }),
    nodeSelector: fc.dictionary(labelKey, label, { maxKeys: 2 }),
    hostNetwork: fc.boolean(),
    dnsPolicy: fc.option(fc.constantFrom('ClusterFirst', 'ClusterFirstWithHostNet', 'Default'), { nil: undefined }),
    maxUnavailable: fc.option(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom('10%', '25%')), { nil: undefined }),
  })
  .map((g) => {
    const volumes = g.hostPaths.map((h, i) => ({ name: `host-${i}`, hostPath: { path: h.path } }));
    const mounts = g.hostPaths.map((h, i) => ({ name: `host-${i}`, mountPath: h.path, ...(h.readOnly ? { readOnly: true } : {}) }));
    const app = g.name.replace(/\./g, '-');
    return {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: g.name, namespace: 'agents', labels: { ...g.labels, app } },
      spec: {
        selector: { matchLabels: { app } },
        ...(g.maxUnavailable !== undefined
          ? { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: g.maxUnavailable } } }
          : {}),
        template: {
          metadata: { labels: { ...g.labels, app } },
          spec: {
            ...(g.hostNetwork ? { hostNetwork: true } : {}),
            ...(g.dnsPolicy !== undefined ? { dnsPolicy: g.dnsPolicy } : {}),
            ...(Object.keys(g.nodeSelector).length > 0 ? { nodeSelector: g.nodeSelector } : {}),
            ...(g.tolerations.length > 0 ? { tolerations: g.tolerations } : {}),
            containers: [
              {
                name: 'agent',
                image: 'registry.example.com/agent:1.2.3',
                ...(g.args !== undefined ? { command: ['/bin/sh', '-c'], args: g.args } : {}),
                ...(g.env.length > 0 ? { env: g.env.map(([name, value]) => ({ name, value })) } : {}),
                ...(g.resources !== undefined ? { resources: g.resources } : {}),
                ...(mounts.length > 0 ? { volumeMounts: mounts } : {}),
              },
            ],
            ...(volumes.length > 0 ? { volumes } : {}),
          },
        },
      },
    };
  });

function comparable(r: ImportResult): string[] {
  return [...r.files.values()].map((t) => t.replace(/^ \* (Built with|Chose) .*$/gm, ''));
}

describe('importing the synthesized output of a generated DaemonSet again', () => {
  test('GIVEN any generated DaemonSet WHEN imported, then its output imported THEN both check clean with the same objects and the same code', async () => {
    await fc.assert(
      fc.asyncProperty(daemonSet, async (ds) => {
        const first = await importManifests([{ object: ds, file: FILE }], { runtime: RUNTIME, check: true });
        expect(first.report.problems).toEqual([]);
        expect(first.report.unexplained).toBe(0);
        const second = await importManifests(
          first.synthesized.map((object) => ({ object, file: FILE })),
          { runtime: RUNTIME, check: true },
        );
        expect(second.report.unexplained).toBe(0);
        expect(second.synthesized).toEqual(first.synthesized);
        expect(comparable(second)).toEqual(comparable(first));
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 30), seed: Number(process.env.FC_SEED ?? 20261202) },
    );
  }, 300_000);
});
