import * as path from 'path';
import { importManifests } from '../../src/adopt';
import { explainRbac } from '../../src/adopt/rbac';
import { fixtureObjects, importFixture, REAL_WORLD, RUNTIME } from './support';

const FILE = 'test/fixtures/real-world/fluent-bit-helm.yaml';

/** The fluent-bit chart render with `change` applied to the object of `kind`. */
function withChange(kind: string, change: (o: any) => void): Array<{ object: any; file: string }> {
  return fixtureObjects(path.join(REAL_WORLD, 'fluent-bit-helm.yaml')).map((o) => {
    const object = structuredClone(o.object);
    if (object.kind === kind) change(object);
    return { object, file: FILE };
  });
}

describe('service-account permissions as apiAccess', () => {
  test('GIVEN a chart whose ClusterRole ApiPermission expresses exactly WHEN imported THEN the code says apiAccess, the library creates the RBAC, and the check finds the same grants', async () => {
    const result = await importFixture(path.join(REAL_WORLD, 'fluent-bit-helm.yaml'));
    const code = result.files.get('fluent-bit.ts')!;
    expect(code).toContain('apiAccess: [ApiPermission.read(["namespaces", "pods"])],');
    expect(code).not.toContain('kind: "ClusterRole"');
    expect(code).not.toContain('serviceAccountName');
    const [service] = result.report.services;
    expect(service.apiAccess).toMatch(
      /^as apiAccess: the library creates the ServiceAccount fluent-bit and the ClusterRole and ClusterRoleBinding logging-fluent-bit/,
    );
    expect(service.objects.filter((o) => /^(ServiceAccount|ClusterRole)/.test(o))).toEqual([]);
    expect(result.report.unexplained).toBe(0);
    expect(result.report.accessReplaced).toEqual([
      "ServiceAccount logging/fluent-bit: granted the same 6 permission(s) by the library's RBAC",
    ]);
    const role = result.synthesized.find((o: any) => o.kind === 'ClusterRole') as any;
    expect(role.metadata.name).toBe('logging-fluent-bit');
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['namespaces', 'pods'], verbs: ['get', 'list', 'watch'] }]);
  }, 60_000);

  test.each<[string, string, (o: any) => void, RegExp]>([
    ['a rule with resourceNames', 'ClusterRole', (o) => (o.rules[0].resourceNames = ['a']), /resourceNames or nonResourceURLs/],
    ['a rule on Secrets', 'ClusterRole', (o) => (o.rules[0].resources = ['secrets']), /grants access to Secrets/],
    ['a wildcard verb', 'ClusterRole', (o) => (o.rules[0].verbs = ['*']), /uses a wildcard/],
    [
      'an IRSA role annotation',
      'ServiceAccount',
      (o) => (o.metadata.annotations = { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/x' }),
      /annotations the library does not write/,
    ],
    [
      'a second subject',
      'ClusterRoleBinding',
      (o) => o.subjects.push({ kind: 'ServiceAccount', name: 'other', namespace: 'logging' }),
      /binds other subjects too/,
    ],
  ])(
    'GIVEN %s WHEN imported THEN the RBAC is kept as it is, with the reason, and checks clean',
    async (_, kind, change, reason) => {
      const result = await importManifests(withChange(kind, change), { runtime: RUNTIME, check: true });
      const [service] = result.report.services;
      expect(service.apiAccess).toMatch(/^kept as they are: /);
      expect(service.apiAccess).toMatch(reason);
      expect(result.files.get('fluent-bit.ts')).toContain('serviceAccountName: "fluent-bit"');
      expect(result.report.unexplained).toBe(0);
    },
    60_000,
  );

  test('GIVEN an output whose RBAC grants the ServiceAccount more than the input WHEN checked THEN it is a problem naming both grants', () => {
    const input = fixtureObjects(path.join(REAL_WORLD, 'fluent-bit-helm.yaml')).map((o) => o.object);
    const output = structuredClone(input);
    const role = output.find((o: any) => o.kind === 'ClusterRole');
    role.metadata.name = 'logging-fluent-bit';
    role.rules[0].verbs.push('delete');
    const binding = output.find((o: any) => o.kind === 'ClusterRoleBinding');
    binding.roleRef.name = 'logging-fluent-bit';
    const differing = input.filter((o: any) => o.kind === 'ClusterRole' || o.kind === 'ClusterRoleBinding');
    const { explained, problems } = explainRbac(input, output, differing);
    expect(explained).toEqual([]);
    expect(problems).toEqual([
      expect.stringMatching(/^ServiceAccount logging\/fluent-bit: the generated app grants .*\* \/pods delete.*, the input /),
    ]);
  });

  test('GIVEN an output that renames the role with the same rules WHEN checked THEN the access is explained', () => {
    const input = fixtureObjects(path.join(REAL_WORLD, 'fluent-bit-helm.yaml')).map((o) => o.object);
    const output = structuredClone(input);
    output.find((o: any) => o.kind === 'ClusterRole').metadata.name = 'renamed';
    output.find((o: any) => o.kind === 'ClusterRoleBinding').roleRef.name = 'renamed';
    const differing = input.filter((o: any) => o.kind === 'ClusterRole' || o.kind === 'ClusterRoleBinding');
    expect(explainRbac(input, output, differing)).toEqual({
      explained: ["ServiceAccount logging/fluent-bit: granted the same 6 permission(s) by the library's RBAC"],
      problems: [],
    });
  });
});
