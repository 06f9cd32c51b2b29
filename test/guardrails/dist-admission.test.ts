/**
 * The committed `dist/` as a cluster would receive it: its admission policies, evaluated as CEL, admit every node
 * service of `dist/` (each workload and the pods its controller creates) in its trusted namespace, and deny the same
 * workloads in a tenant namespace.
 */

import * as path from 'path';
import { manifestObjects } from '../support/app';
import { admit } from './admission-simulator';
import { USERS, WORKLOAD_KINDS, workloadRequest } from './fixtures';

type Json = any;

const DIST = path.join(__dirname, '..', '..', 'dist');
const objects: Json[] = manifestObjects(DIST);
const policies = objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy' || o.kind === 'ValidatingAdmissionPolicyBinding');
const namespaces = new Map<string, Record<string, string>>(
  objects.filter((o) => o.kind === 'Namespace').map((o) => [o.metadata.name, o.metadata.labels ?? {}]),
);
const workloads = objects.filter((o) => WORKLOAD_KINDS[o.kind] !== undefined);

function inNamespace(object: Json, ns: string, labels: Record<string, string>, user = USERS.argocd) {
  return { ...workloadRequest({ ...object, metadata: { ...object.metadata, namespace: ns } }, user), namespaceLabels: labels };
}

/** The pod the workload's controller creates. */
function podOf(object: Json): Json {
  const template = WORKLOAD_KINDS[object.kind].templatePath.reduce((o: Json, k: string) => o[k], object);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...template.metadata, name: `${object.metadata.name}-x7k2p`, namespace: object.metadata.namespace },
    spec: template.spec,
  };
}

describe('dist/ through its own admission policies', () => {
  test('GIVEN dist/ THEN it holds policies, a trusted namespace and node services', () => {
    expect(policies.map((p) => `${p.kind}/${p.metadata.name}`)).toEqual(
      expect.arrayContaining([
        'ValidatingAdmissionPolicy/node-services-trust-label',
        'ValidatingAdmissionPolicy/node-services-host-access',
        'ValidatingAdmissionPolicy/node-services-tenant-pod-security',
        'ValidatingAdmissionPolicy/node-services-allowlists',
      ]),
    );
    expect(workloads.length).toBeGreaterThanOrEqual(6);
    for (const w of workloads) expect(namespaces.get(w.metadata.namespace)).toMatchObject({ 'node-services.cdk8s.io/trusted': 'true' });
  });

  test.each(workloads.map((w) => [`${w.kind} ${w.metadata.name}`, w] as const))(
    'GIVEN %s in its trusted namespace WHEN applied by GitOps, and its pod WHEN created by the controller THEN both are admitted',
    (_t, w) => {
      const labels = namespaces.get(w.metadata.namespace) as Record<string, string>;
      for (const apiServerView of [false, true]) {
        const decision = admit(policies, inNamespace(w, w.metadata.namespace, labels), { apiServerView });
        expect(decision).toMatchObject({ allowed: true, errors: [], denials: [] });
        expect(decision.evaluated).toContain('node-services-allowlists/node-services-allowlists');
        const pod = admit(policies, inNamespace(podOf(w), w.metadata.namespace, labels, USERS.daemonSetController), { apiServerView });
        expect(pod).toMatchObject({ allowed: true, errors: [], denials: [] });
      }
    },
  );

  test.each(workloads.map((w) => [`${w.kind} ${w.metadata.name}`, w] as const))(
    'GIVEN %s in a tenant namespace THEN it is denied for its host access',
    (_t, w) => {
      const decision = admit(policies, inNamespace(w, 'team-a', { team: 'a' }, USERS.tenant), { apiServerView: true });
      expect(decision.errors).toEqual([]);
      expect(decision.allowed).toBe(false);
    },
  );

  test('GIVEN the platform Namespace of dist/ THEN the GitOps service account may create it and a tenant may not', () => {
    const ns = objects.find((o) => o.kind === 'Namespace');
    const request = (user: typeof USERS.tenant) => ({
      operation: 'CREATE' as const,
      resource: { group: '', version: 'v1', resource: 'namespaces' },
      kind: { group: '', version: 'v1', kind: 'Namespace' },
      object: ns,
      oldObject: null,
      user,
    });
    expect(admit(policies, request(USERS.argocd))).toMatchObject({ allowed: true, errors: [] });
    expect(admit(policies, request(USERS.tenant))).toMatchObject({ allowed: false, errors: [] });
  });
});
