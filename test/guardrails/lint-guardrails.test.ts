/**
 * `lint` of a folder that holds both the guardrail policies and the DaemonSets they govern: a DaemonSet the folder's
 * own policies deny is an error naming the policy and the field; policies not rendered by the library (or edited
 * after rendering) are not evaluated.
 */

import * as path from 'path';
import { checkManifests } from '../../src/policy/engine';
import { manifestObjects } from '../support/app';

type Json = any;

const DIST = path.join(__dirname, '..', '..', 'dist');

function denials(objects: Json[]) {
  return checkManifests(objects).findings.filter((f) => f.ruleId === 'guardrails-deny');
}

/** dist/ with the fluent-bit DaemonSet's first container image replaced. */
function withFluentBitImage(image: string): Json[] {
  const objects = manifestObjects(DIST);
  const ds = objects.find((o) => o.kind === 'DaemonSet' && o.metadata.name === 'fluent-bit');
  ds.spec.template.spec.containers[0].image = image;
  return objects;
}

describe('lint: the manifests against their own guardrails', () => {
  test('GIVEN dist/ (policies, namespace and node services) THEN no DaemonSet is denied by its guardrails', () => {
    const objects = manifestObjects(DIST);
    expect(objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy').length).toBeGreaterThan(0);
    expect(denials(objects)).toEqual([]);
  });

  test('GIVEN dist/ with an image from outside the registry allowlist THEN lint reports an error naming the policy, the image and the field', () => {
    const found = denials(withFluentBitImage('docker.io/evil/fluent-bit:1'));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', path: 'spec.template.spec.containers[0].image' });
    expect(found[0].message).toContain('ValidatingAdmissionPolicy node-services-allowlists denies it (registryAllowlist)');
    expect(found[0].message).toContain('"docker.io/evil/fluent-bit:1"');
    expect(found[0].message).toContain('registryAllowlist');
  });

  test('GIVEN the same DaemonSet but the allowlist policy edited after rendering THEN it is not evaluated (not guessed at)', () => {
    const objects = withFluentBitImage('docker.io/evil/fluent-bit:1');
    const policy = objects.find((o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name === 'node-services-allowlists');
    policy.spec.failurePolicy = 'Ignore';
    expect(denials(objects)).toEqual([]);
  });

  test('GIVEN the same DaemonSet but no Namespace object in the input THEN it is not evaluated (the bindings select by labels)', () => {
    const objects = withFluentBitImage('docker.io/evil/fluent-bit:1').filter((o) => o.kind !== 'Namespace');
    expect(denials(objects)).toEqual([]);
  });

  test('GIVEN the same DaemonSet without the policies THEN the rule does not apply', () => {
    const objects = withFluentBitImage('docker.io/evil/fluent-bit:1').filter((o) => !o.kind.startsWith('ValidatingAdmissionPolicy'));
    expect(denials(objects)).toEqual([]);
  });
});
