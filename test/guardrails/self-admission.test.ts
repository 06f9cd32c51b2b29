/**
 * `dist/` (the examples' output: the single-cluster platform and every cluster of the fleet) is admitted by its own
 * guardrails: every DaemonSet, in its namespace as the manifests define it, passes the policies' checks evaluated in JS
 * (recovered from the policies as `lint` recovers them) and as CEL (the admission simulator), and the pods its
 * controller creates pass too.
 */

import * as fs from 'fs';
import * as path from 'path';
import { guardrailDenials, renderedGuardrails } from '../../src/admission/admit';
import { selectorMatches } from '../../src/k8s/selectors';
import { admit } from './admission-simulator';
import { USERS, workloadRequest } from './fixtures';
import { manifestObjects } from '../support/app';

type Json = any;

const DIST = path.join(__dirname, '..', '..', 'dist');

const SETS: [string, Json[]][] = [
  ['dist/', manifestObjects(DIST)],
  ...fs
    .readdirSync(path.join(DIST, 'clusters'))
    .sort()
    .map((c): [string, Json[]] => [`dist/clusters/${c}/`, manifestObjects(path.join(DIST, 'clusters', c))]),
];

describe.each(SETS)('%s through its own guardrails', (_name, objects) => {
  const policies = objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy');
  const bindings = objects.filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding');
  const pairs = renderedGuardrails(policies, bindings);
  const namespaces = new Map<string, Record<string, string>>(
    objects.filter((o) => o.kind === 'Namespace').map((o) => [o.metadata.name, o.metadata.labels ?? {}]),
  );
  const daemonSets = objects.filter((o) => o.kind === 'DaemonSet');

  test('GIVEN the set THEN it holds guardrails that render back from their settings, and node services in namespaces it defines', () => {
    expect(pairs.map((p) => p.name)).toEqual(policies.map((p) => p.metadata.name));
    expect(daemonSets.length).toBeGreaterThan(0);
    for (const ds of daemonSets) expect([ds.metadata.name, namespaces.has(ds.metadata.namespace)]).toEqual([ds.metadata.name, true]);
  });

  test.each(daemonSets.map((ds) => [`${ds.metadata.namespace}/${ds.metadata.name}`, ds] as const))(
    'GIVEN DaemonSet %s THEN the policies that bind its namespace admit it, in JS and as CEL, and its pod',
    (_id, ds) => {
      const ns = ds.metadata.namespace;
      const labels = namespaces.get(ns) as Record<string, string>;
      // Some policy with checks binds the namespace: the verdict is not vacuous.
      const bound = pairs.filter(
        (p) =>
          p.checks.length > 0 &&
          selectorMatches(p.binding.matchResources?.namespaceSelector ?? {}, { ...labels, 'kubernetes.io/metadata.name': ns }),
      );
      expect(bound.length).toBeGreaterThan(0);
      expect(guardrailDenials(pairs, ds, ns, labels)).toEqual([]);
      const request = { ...workloadRequest(ds, USERS.argocd), namespaceLabels: labels };
      expect(admit([...policies, ...bindings], request, { apiServerView: true })).toMatchObject({ allowed: true, errors: [], denials: [] });
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { ...ds.spec.template.metadata, name: `${ds.metadata.name}-x`, namespace: ns },
        spec: ds.spec.template.spec,
      };
      const podDecision = admit(
        [...policies, ...bindings],
        { ...workloadRequest(pod, USERS.daemonSetController), namespaceLabels: labels },
        { apiServerView: true },
      );
      expect(podDecision).toMatchObject({ allowed: true, errors: [], denials: [] });
    },
  );
});
