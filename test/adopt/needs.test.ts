import * as fs from 'fs';
import * as path from 'path';
import { canonicalJson } from '../../src/day2/objects';
import { fixtureObjects, importFixture, REAL_WORLD } from './support';

/**
 * What an agent needs to run, read straight from a DaemonSet and the RBAC around it, written apart from the import's
 * own check: images, command, args, env, ports, host paths and whether each is writable, added capabilities,
 * privilege, host namespaces, tolerations, node placement and the permissions of its ServiceAccount.
 */
function needs(ds: any, objects: any[]): Record<string, unknown> {
  const pod = ds.spec.template.spec;
  const volumes = new Map<string, any>((pod.volumes ?? []).map((v: any) => [v.name, v]));
  const containers = [...(pod.initContainers ?? []), ...pod.containers].map((c: any) => ({
    name: c.name,
    image: c.image,
    command: c.command ?? null,
    args: c.args ?? null,
    env: (c.env ?? []).map((e: any) => [e.name, e.value ?? null, e.valueFrom?.fieldRef?.fieldPath ?? e.valueFrom ?? null]),
    ports: (c.ports ?? []).map((p: any) => [
      p.containerPort,
      p.protocol ?? 'TCP',
      pod.hostNetwork ? p.containerPort : (p.hostPort ?? null),
    ]),
    hostPaths: (c.volumeMounts ?? [])
      .filter((m: any) => volumes.get(m.name)?.hostPath)
      .map((m: any) => [volumes.get(m.name).hostPath.path, m.mountPath, m.readOnly === true ? 'ro' : 'rw'])
      .sort(),
    capabilities: [...(c.securityContext?.capabilities?.add ?? [])].sort(),
    privileged: c.securityContext?.privileged === true,
  }));
  const account = pod.serviceAccountName ?? pod.serviceAccount ?? null;
  const bindings = objects.filter(
    (o) => /RoleBinding$/.test(o?.kind) && (o.subjects ?? []).some((s: any) => s.kind === 'ServiceAccount' && s.name === account),
  );
  const rules = bindings
    .flatMap((b) => objects.filter((o) => o?.kind === b.roleRef.kind && o.metadata?.name === b.roleRef.name))
    .flatMap((r) => r.rules ?? [])
    .map((r: any) => canonicalJson(r))
    .sort();
  return {
    containers,
    hostNetwork: pod.hostNetwork === true,
    hostPID: pod.hostPID === true,
    hostIPC: pod.hostIPC === true,
    tolerations: (pod.tolerations ?? []).map((t: any) => canonicalJson(t)).sort(),
    nodeSelector: pod.nodeSelector ?? {},
    affinity: pod.affinity?.nodeAffinity ?? null,
    account,
    // The token matters with an account of the input's; the namespace's default account has no permissions it granted.
    token: account !== null && pod.automountServiceAccountToken !== false,
    rules,
  };
}

const fixtures = fs.readdirSync(REAL_WORLD).filter((f) => f.endsWith('.yaml'));

describe('nothing an agent needs is lost', () => {
  test.each(fixtures)(
    'GIVEN %s WHEN imported THEN each DaemonSet needs exactly what its input needed',
    async (f) => {
      const input = fixtureObjects(path.join(REAL_WORLD, f)).map((o) => o.object);
      const result = await importFixture(path.join(REAL_WORLD, f));
      const output = result.synthesized as any[];
      const daemonSets = input.filter((o) => o?.kind === 'DaemonSet');
      expect(daemonSets.length).toBeGreaterThan(0);
      for (const ds of daemonSets) {
        const produced = output.find((o) => o.kind === 'DaemonSet' && o.metadata.name === ds.metadata.name);
        expect(produced).toBeDefined();
        expect(needs(produced, output)).toEqual(needs(ds, input));
      }
    },
    60_000,
  );
});
