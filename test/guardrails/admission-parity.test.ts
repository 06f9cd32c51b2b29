/**
 * Every admission check decides as the CEL it renders: for generated pods, each check's JS (what the synth-time and
 * lint evaluation of the guardrails run) finds a violation exactly when the CEL variable it renders lists an
 * offender, evaluated with `@bufbuild/cel` as the API server binds the object and as written. The JS side is
 * recovered from the synthesized policies themselves (`renderedGuardrails`, as `lint` recovers it).
 */

import fc from 'fast-check';
import { renderedGuardrails } from '../../src/admission/admit';
import { podOf } from '../../src/admission/pod-security';
import { PodSecurityLevel } from '../../src';
import { apiServerView, evaluate, fromCel, toCel } from './admission-simulator';
import { container, CORPUS_PROPS, pod, synthGuardrails } from './fixtures';

type Json = any;

/** The offenders each variable of `policy` lists for a CREATE of `object` (a Pod). */
function celVariables(policy: Json, object: Json): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  const request = toCel({
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    namespace: 'ns',
    operation: 'CREATE',
  });
  const scope = { object: toCel(object), oldObject: null, request, params: null, namespaceObject: null, variables };
  for (const v of policy.spec.variables ?? []) {
    const value = evaluate(v.expression, scope);
    if (value instanceof Error) throw new Error(`${policy.metadata.name} variable ${v.name}: ${value.message}`);
    variables[v.name] = value;
  }
  return variables;
}

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const securityContextArb = fc.record(
  {
    privileged: maybe(fc.boolean()),
    allowPrivilegeEscalation: maybe(fc.boolean()),
    runAsNonRoot: maybe(fc.boolean()),
    runAsUser: maybe(fc.constantFrom(0, 1000)),
    capabilities: maybe(
      fc.constantFrom(
        { drop: ['ALL'] },
        { add: ['CHOWN'] },
        { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
        { add: ['SYS_ADMIN'], drop: ['ALL'] },
        { add: [] },
        {},
      ),
    ),
    seccompProfile: maybe(
      fc.constantFrom({ type: 'RuntimeDefault' }, { type: 'Unconfined' }, { type: 'Localhost', localhostProfile: 'x' }, {}),
    ),
    seLinuxOptions: maybe(fc.constantFrom({ type: 'container_t' }, { type: 'spc_t' }, { user: 'u' }, { level: 's0' })),
    procMount: maybe(fc.constantFrom('Default', 'Unmasked')),
    windowsOptions: maybe(fc.constantFrom({ hostProcess: true }, { hostProcess: false })),
  },
  { requiredKeys: [] },
);
const imageArb = fc.constantFrom(
  'registry.example.com/agent:1',
  'registry.example.com.evil.io/agent:1',
  'ghcr.io/example-org/agent@sha256:' + 'a'.repeat(64),
  'ghcr.io/example-org-evil/agent:1',
  'bitnami/kubectl:1.28',
  'nginx',
  'index.docker.io/bitnami/x',
  'Evil/agent:1',
  '',
);
const containerArb = (name: string) =>
  fc.record({ sc: maybe(securityContextArb), hostPort: maybe(fc.constantFrom(0, 9100)), image: imageArb }).map(({ sc, hostPort, image }) =>
    container(name, {
      image,
      ...(sc ? { securityContext: JSON.parse(JSON.stringify(sc)) } : {}),
      ...(hostPort !== undefined ? { ports: [{ containerPort: 9100, hostPort }] } : {}),
    }),
  );
const volumeArb = fc.constantFrom<Json>(
  { emptyDir: {} },
  { configMap: { name: 'c' } },
  { hostPath: { path: '/var/log' } },
  { hostPath: { path: '/var/lib/agent' } },
  { hostPath: { path: '/var/log/../etc' } },
  { hostPath: { path: '/var/logs' } },
  { hostPath: { path: '' } },
  { nfs: { server: 'nfs', path: '/x' } },
  { gitRepo: { repository: 'https://example.com/r.git' } },
  { azureDisk: { diskName: 'd', diskURI: 'u' } },
);
const podArb = fc
  .record(
    {
      hostNetwork: maybe(fc.boolean()),
      hostPID: maybe(fc.boolean()),
      os: maybe(fc.constantFrom({ name: 'linux' }, { name: 'windows' })),
      priorityClassName: maybe(fc.constantFrom('system-node-critical', 'team-high', '')),
      securityContext: maybe(
        fc.record(
          {
            runAsNonRoot: maybe(fc.boolean()),
            runAsUser: maybe(fc.constantFrom(0, 1000)),
            seccompProfile: maybe(fc.constantFrom({ type: 'RuntimeDefault' }, { type: 'Unconfined' })),
            sysctls: maybe(fc.constantFrom([{ name: 'kernel.shm_rmid_forced', value: '1' }], [{ name: 'net.core.somaxconn', value: '1' }])),
          },
          { requiredKeys: [] },
        ),
      ),
      init: maybe(containerArb('init')),
      main: containerArb('app'),
      volumes: fc.array(volumeArb, { maxLength: 3 }),
      appArmor: maybe(fc.constantFrom('runtime/default', 'unconfined', '')),
    },
    { requiredKeys: ['main', 'volumes'] },
  )
  .map((p) => {
    const spec: Json = JSON.parse(
      JSON.stringify({
        hostNetwork: p.hostNetwork,
        hostPID: p.hostPID,
        os: p.os,
        priorityClassName: p.priorityClassName,
        securityContext: p.securityContext,
        initContainers: p.init ? [p.init] : undefined,
        containers: [p.main],
        volumes: p.volumes.length > 0 ? p.volumes.map((v, i) => ({ name: `v${i}`, ...v })) : undefined,
      }),
    );
    const metadata = p.appArmor === undefined ? {} : { annotations: { 'container.apparmor.security.beta.kubernetes.io/app': p.appArmor } };
    return pod('p', 'ns', spec, metadata);
  });

describe.each([PodSecurityLevel.BASELINE, PodSecurityLevel.RESTRICTED])('admission checks at tenant level %s', (level) => {
  const manifests = synthGuardrails({ ...CORPUS_PROPS, tenantPodSecurity: level });
  const policies = manifests.filter((m) => m.kind === 'ValidatingAdmissionPolicy');
  const pairs = renderedGuardrails(
    policies,
    manifests.filter((m) => m.kind === 'ValidatingAdmissionPolicyBinding'),
  );

  test('GIVEN the synthesized policies THEN every policy renders back from its annotation, with its checks', () => {
    expect(pairs.map((p) => p.name)).toEqual([
      'node-services-trust-label',
      'node-services-host-access',
      'node-services-tenant-pod-security',
      'node-services-allowlists',
    ]);
    for (const pair of pairs) {
      const policy = policies.find((p) => p.metadata.name === pair.name);
      const variables = (policy.spec.variables ?? []).map((v: Json) => v.name);
      for (const check of pair.checks) expect(variables).toContain(check.cel.variable);
    }
  });

  test('GIVEN generated pods WHEN each check runs in JS and its CEL variable is evaluated THEN both find a violation, or neither', () => {
    fc.assert(
      fc.property(podArb, fc.boolean(), (object, serverView) => {
        const seen = serverView ? apiServerView(object) : object;
        for (const pair of pairs) {
          const policy = policies.find((p) => p.metadata.name === pair.name);
          const variables = celVariables(policy, seen);
          for (const check of pair.checks) {
            const cel = fromCel(variables[check.cel.variable]) as unknown[];
            const js = check.check(podOf(seen));
            const context = { policy: pair.name, check: check.id, pod: JSON.stringify(seen) };
            expect({ ...context, violated: js !== undefined }).toEqual({ ...context, violated: cel.length > 0 });
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
