/**
 * Pod Security parity in tenant namespaces: the admission policies, evaluated as CEL, decide every Pod Security
 * control the way the project's Pod Security evaluator (`evaluatePodSecurity`, policy v1.28) does, at `baseline` and
 * at `restricted`, on a hand-written corpus (one allowed and one denied pod per control) and on generated pods. Plus
 * the tenant volume types and the system priority classes.
 */

import fc from 'fast-check';
import { evaluatePodSecurity, NodeServiceGuardrailsProps, PodSecurityLevel } from '../../src/guardrails';
import { admit, apiServerView, Decision } from './admission-simulator';
import { container, CORPUS_PROPS, debugRequest, pod, podRequest, synthGuardrails } from './fixtures';

type Json = any;

const BASELINE = synthGuardrails();
const RESTRICTED = synthGuardrails({ ...CORPUS_PROPS, tenantPodSecurity: PodSecurityLevel.RESTRICTED });

const HOST_ACCESS: Record<string, string> = {
  'hostPath volumes': 'hostPathVolumes',
  'privileged containers': 'privileged',
  'host namespaces': 'hostNamespaces',
  'host ports': 'hostPorts',
  'added capabilities': 'addedCapabilities',
};

/** What the CEL denied, as Pod Security control ids (plus `addedCapabilities`, `volumeTypes`, `priorityClass`). */
function deniedControls(decision: Decision): Set<string> {
  const out = new Set<string>();
  for (const d of decision.denials) {
    const control = /\(control (\w+)\)/.exec(d.message)?.[1];
    const access = /: (hostPath volumes|privileged containers|host namespaces|host ports|added capabilities) \(/.exec(d.message)?.[1];
    if (control) out.add(control);
    else if (access) out.add(HOST_ACCESS[access]);
    else if (d.message.includes('volume types outside')) out.add('volumeTypes');
    else if (d.message.includes('priority class')) out.add('priorityClass');
    else throw new Error(`unclassified denial: ${d.message}`);
  }
  return out;
}

/** Controls the CEL must decide exactly as the evaluator, per level. */
const EXACT: Record<string, string[]> = {
  baseline: [
    'windowsHostProcess',
    'hostNamespaces',
    'privileged',
    'hostPathVolumes',
    'hostPorts',
    'appArmorProfile',
    'seLinuxOptions',
    'procMount',
    'seccompProfile_baseline',
    'sysctls',
  ],
  restricted: [
    'windowsHostProcess',
    'hostNamespaces',
    'privileged',
    'hostPorts',
    'appArmorProfile',
    'seLinuxOptions',
    'procMount',
    'sysctls',
    'seccompProfile_restricted',
    'allowPrivilegeEscalation',
    'runAsNonRoot',
    'runAsUser',
  ],
};

/**
 * Asserts that the CEL decides `spec` (with pod `metadata`) the way the evaluator does at `level`, in the view the
 * API server gives admission (`apiServerView`) or as written.
 */
function expectParity(level: 'baseline' | 'restricted', spec: Json, metadata: Json = {}, serverView = true): void {
  const manifests = level === 'baseline' ? BASELINE : RESTRICTED;
  const object = pod('p', 'team-a', spec, metadata);
  const seen = serverView ? apiServerView(object) : object;
  const evaluation = evaluatePodSecurity(seen);
  const expected = new Set((level === 'baseline' ? evaluation.baselineViolations : evaluation.restrictedViolations).map((v) => v.control));
  const decision = admit(manifests, podRequest(object), { apiServerView: serverView });
  expect(decision.errors).toEqual([]);
  const denied = deniedControls(decision);
  const context = { level, spec: JSON.stringify(spec), metadata: JSON.stringify(metadata) };
  for (const control of EXACT[level]) {
    expect({ ...context, control, denied: denied.has(control) }).toEqual({ ...context, control, denied: expected.has(control) });
  }
  if (level === 'baseline') {
    // The host-access policy denies every added capability, so it is stricter than capabilities_baseline.
    if (expected.has('capabilities_baseline'))
      expect({ ...context, denied: [...denied] }).toEqual({ ...context, denied: expect.arrayContaining(['addedCapabilities']) });
  } else {
    expect({ ...context, restrictedVolumes: denied.has('hostPathVolumes') || denied.has('volumeTypes') }).toEqual({
      ...context,
      restrictedVolumes: expected.has('restrictedVolumes'),
    });
    if (expected.has('capabilities_restricted')) {
      expect({ ...context, capabilities: denied.has('capabilities_restricted') || denied.has('addedCapabilities') }).toEqual({
        ...context,
        capabilities: true,
      });
    }
    if (denied.has('capabilities_restricted'))
      expect({ ...context, capabilities: expected.has('capabilities_restricted') }).toEqual({ ...context, capabilities: true });
  }
  // Overall: whatever the evaluator rejects, the CEL rejects; when the CEL allows, the evaluator finds nothing.
  if (expected.size > 0) expect({ ...context, allowed: decision.allowed }).toEqual({ ...context, allowed: false });
  if (decision.allowed) expect({ ...context, violations: [...expected] }).toEqual({ ...context, violations: [] });
}

/** A container that meets restricted. */
function hardened(name = 'app', securityContext: Json = {}): Json {
  return container(name, {
    securityContext: {
      allowPrivilegeEscalation: false,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
      ...securityContext,
    },
  });
}

const sc = (securityContext: Json) => ({ containers: [hardened('app', securityContext)] });
const podSc = (securityContext: Json) => ({ securityContext, containers: [hardened()] });
const AA = 'container.apparmor.security.beta.kubernetes.io/app';

/** One compliant and one violating case per control (and the precedence rules upstream applies). */
const CORPUS: [string, Json, Json?][] = [
  ['restricted pod', sc({})],
  ['bare container (baseline only)', { containers: [container('app')] }],
  ['pod hostProcess', podSc({ windowsOptions: { hostProcess: true } })],
  ['container hostProcess', sc({ windowsOptions: { hostProcess: true } })],
  ['container hostProcess false', sc({ windowsOptions: { hostProcess: false } })],
  ['hostNetwork', { hostNetwork: true, containers: [hardened()] }],
  ['hostPID false', { hostPID: false, containers: [hardened()] }],
  ['privileged', sc({ privileged: true })],
  ['privileged false', sc({ privileged: false })],
  ['baseline capability', sc({ capabilities: { drop: ['ALL'], add: ['CHOWN'] } })],
  ['NET_BIND_SERVICE', sc({ capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } })],
  ['NET_ADMIN', sc({ capabilities: { add: ['NET_ADMIN'] } })],
  ['no drop ALL', sc({ capabilities: { drop: ['NET_RAW'] } })],
  ['hostPath', { containers: [hardened()], volumes: [{ name: 'h', hostPath: { path: '/etc' } }] }],
  ['nfs volume', { containers: [hardened()], volumes: [{ name: 'n', nfs: { server: 'nfs', path: '/x' } }] }],
  ['cloud disk', { containers: [hardened()], volumes: [{ name: 'd', awsElasticBlockStore: { volumeID: 'vol-1' } }] }],
  [
    'allowed volumes',
    {
      containers: [hardened()],
      volumes: [
        { name: 'c', configMap: { name: 'c' } },
        { name: 'e', emptyDir: {} },
      ],
    },
  ],
  ['host port', { containers: [hardened('app', {})].map((c) => ({ ...c, ports: [{ containerPort: 80, hostPort: 8080 }] })) }],
  ['host port 0', { containers: [hardened('app', {})].map((c) => ({ ...c, ports: [{ containerPort: 80, hostPort: 0 }] })) }],
  ['AppArmor unconfined', sc({}), { annotations: { [AA]: 'unconfined' } }],
  ['AppArmor runtime/default', sc({}), { annotations: { [AA]: 'runtime/default' } }],
  ['AppArmor localhost', sc({}), { annotations: { [AA]: 'localhost/my-profile' } }],
  ['AppArmor empty', sc({}), { annotations: { [AA]: '' } }],
  ['other annotation', sc({}), { annotations: { 'example.com/x': 'unconfined' } }],
  ['SELinux spc_t', sc({ seLinuxOptions: { type: 'spc_t' } })],
  ['SELinux container_t', sc({ seLinuxOptions: { type: 'container_t', level: 's0:c1,c2' } })],
  ['SELinux user', podSc({ seLinuxOptions: { user: 'system_u' } })],
  ['SELinux role', sc({ seLinuxOptions: { role: 'system_r' } })],
  ['procMount Unmasked', sc({ procMount: 'Unmasked' })],
  ['procMount Default', sc({ procMount: 'Default' })],
  ['seccomp Unconfined on the pod', podSc({ seccompProfile: { type: 'Unconfined' } })],
  ['seccomp Unconfined on a container', sc({ seccompProfile: { type: 'Unconfined' } })],
  [
    'seccomp on the pod only',
    { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [hardened('app', { seccompProfile: undefined })] },
  ],
  ['seccomp missing', { containers: [hardened('app', { seccompProfile: undefined })] }],
  ['seccomp Localhost', sc({ seccompProfile: { type: 'Localhost', localhostProfile: 'p.json' } })],
  ['safe sysctl', podSc({ sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65535' }] })],
  ['unsafe sysctl', podSc({ sysctls: [{ name: 'kernel.msgmax', value: '65536' }] })],
  ['privilege escalation unset', sc({ allowPrivilegeEscalation: undefined })],
  ['privilege escalation true', sc({ allowPrivilegeEscalation: true })],
  ['runAsNonRoot on the pod only', { securityContext: { runAsNonRoot: true }, containers: [hardened('app', { runAsNonRoot: undefined })] }],
  [
    'runAsNonRoot false under pod true',
    { securityContext: { runAsNonRoot: true }, containers: [hardened('app', { runAsNonRoot: false })] },
  ],
  ['runAsNonRoot unset', { containers: [hardened('app', { runAsNonRoot: undefined })] }],
  ['runAsUser 0 on the pod', podSc({ runAsUser: 0 })],
  ['runAsUser 0 on a container', sc({ runAsUser: 0 })],
  ['runAsUser 1000', sc({ runAsUser: 1000 })],
  [
    'Windows pod without Linux fields',
    { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [container('app')] },
  ],
  [
    'init and ephemeral containers',
    {
      initContainers: [hardened('init', { procMount: 'Unmasked' })],
      containers: [hardened()],
      ephemeralContainers: [container('debug', { securityContext: { seccompProfile: { type: 'Unconfined' } } })],
    },
  ],
];

describe.each(['baseline', 'restricted'] as const)('tenant Pod Security %s', (level) => {
  describe.each([
    ['as the API server binds them', true],
    ['as written', false],
  ])('objects %s', (_view, serverView) => {
    test.each(CORPUS.map(([title, spec, metadata]) => [title, spec, metadata] as const))(
      'GIVEN %s WHEN a tenant creates it THEN the CEL decides every control as evaluatePodSecurity does',
      (_t, spec, metadata) => expectParity(level, spec, metadata ?? {}, serverView),
    );
  });

  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const containerSc = fc.record(
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
          {},
        ),
      ),
      seccompProfile: maybe(
        fc.constantFrom({ type: 'RuntimeDefault' }, { type: 'Unconfined' }, { type: 'Localhost', localhostProfile: 'x' }, {}),
      ),
      seLinuxOptions: maybe(fc.constantFrom({ type: 'container_t' }, { type: 'spc_t' }, { user: 'u' }, { role: 'r' }, { level: 's0' })),
      procMount: maybe(fc.constantFrom('Default', 'Unmasked')),
      windowsOptions: maybe(fc.constantFrom({ hostProcess: true }, { hostProcess: false }, { runAsUserName: 'x' })),
    },
    { requiredKeys: [] },
  );
  const containerArb = (name: string) =>
    fc.record({ sc: maybe(containerSc), hostPort: maybe(fc.constantFrom(0, 9000)) }).map(({ sc: s, hostPort }) =>
      container(name, {
        ...(s ? { securityContext: JSON.parse(JSON.stringify(s)) } : {}),
        ...(hostPort !== undefined ? { ports: [{ containerPort: 80, hostPort }] } : {}),
      }),
    );
  const volumeArb = fc.constantFrom<Json>(
    { name: 'e', emptyDir: {} },
    { name: 'c', configMap: { name: 'c' } },
    { name: 'h', hostPath: { path: '/var/log' } },
    { name: 'g', gitRepo: { repository: 'https://example.com/r.git' } },
    { name: 'i', iscsi: { targetPortal: '10.0.0.1', iqn: 'iqn.x', lun: 0 } },
    { name: 'a', azureDisk: { diskName: 'd', diskURI: 'u' } },
  );
  const podArb = fc
    .record(
      {
        hostNetwork: maybe(fc.boolean()),
        hostIPC: maybe(fc.boolean()),
        os: maybe(fc.constantFrom({ name: 'linux' }, { name: 'windows' })),
        securityContext: maybe(
          fc.record(
            {
              runAsNonRoot: maybe(fc.boolean()),
              runAsUser: maybe(fc.constantFrom(0, 1000)),
              seccompProfile: maybe(fc.constantFrom({ type: 'RuntimeDefault' }, { type: 'Unconfined' })),
              seLinuxOptions: maybe(fc.constantFrom({ type: 'container_t' }, { type: 'unconfined_t' }, { user: 'u' })),
              sysctls: maybe(
                fc.constantFrom([{ name: 'kernel.shm_rmid_forced', value: '1' }], [{ name: 'net.core.somaxconn', value: '1024' }]),
              ),
              windowsOptions: maybe(fc.constantFrom({ hostProcess: true }, { hostProcess: false })),
            },
            { requiredKeys: [] },
          ),
        ),
        init: maybe(containerArb('init')),
        main: containerArb('app'),
        ephemeral: maybe(containerArb('debug')),
        volumes: fc.array(volumeArb, { maxLength: 2 }),
        appArmor: maybe(fc.constantFrom('runtime/default', 'localhost/p', 'unconfined', '')),
      },
      { requiredKeys: ['main', 'volumes'] },
    )
    .map((p) => {
      const spec: Json = JSON.parse(
        JSON.stringify({
          hostNetwork: p.hostNetwork,
          hostIPC: p.hostIPC,
          os: p.os,
          securityContext: p.securityContext,
          initContainers: p.init ? [p.init] : undefined,
          containers: [p.main],
          ephemeralContainers: p.ephemeral ? [p.ephemeral] : undefined,
          volumes: p.volumes.length > 0 ? p.volumes.map((v, i) => ({ ...v, name: `${v.name}${i}` })) : undefined,
        }),
      );
      return { spec, metadata: p.appArmor === undefined ? {} : { annotations: { [AA]: p.appArmor } } };
    });

  test('GIVEN generated tenant pods WHEN admitted THEN the CEL decides every control as evaluatePodSecurity does', () => {
    fc.assert(
      fc.property(podArb, fc.boolean(), ({ spec, metadata }, serverView) => expectParity(level, spec, metadata, serverView)),
      { numRuns: 250 },
    );
  });
});

describe('tenant volume types', () => {
  const NODE_MOUNTED: [string, Json][] = [
    ['gitRepo', { repository: 'https://example.com/hooks.git' }],
    ['flexVolume', { driver: 'example.com/driver' }],
    ['iscsi', { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0 }],
    ['rbd', { monitors: ['10.0.0.1:6789'], image: 'img' }],
    ['fc', { targetWWNs: ['500a0982991b8dc5'], lun: 0 }],
    ['nfs', { server: 'nfs.example.com', path: '/exports' }],
    ['cephfs', { monitors: ['10.0.0.1:6789'] }],
    ['glusterfs', { endpoints: 'glusterfs', path: 'vol' }],
  ];
  const withVolume = (type: string, source: Json) => ({ containers: [container('app')], volumes: [{ name: 'v', [type]: source }] });

  test.each(NODE_MOUNTED)('GIVEN a tenant pod with a %s volume WHEN admitted THEN it is denied, naming the volume', (type, source) => {
    const decision = admit(BASELINE, podRequest(pod('p', 'team-a', withVolume(type, source))), { apiServerView: true });
    expect(decision.errors).toEqual([]);
    expect(decision.denials.map((d) => d.policy)).toEqual(['node-services-tenant-pod-security']);
    expect(decision.denials[0].message).toContain(`(v=${type})`);
    expect(decision.denials[0].message).toContain('#platform-team');
  });

  test.each(NODE_MOUNTED)('GIVEN %s allowed by name WHEN a tenant pod uses it THEN it is allowed', (type, source) => {
    const manifests = synthGuardrails({ ...CORPUS_PROPS, allowedTenantVolumeTypes: [type] });
    expect(admit(manifests, podRequest(pod('p', 'team-a', withVolume(type, source))), { apiServerView: true })).toMatchObject({
      allowed: true,
      errors: [],
    });
    // Only that type: another node-mounted type is still denied.
    const other = NODE_MOUNTED.find(([t]) => t !== type) as [string, Json];
    expect(admit(manifests, podRequest(pod('p', 'team-a', withVolume(...other))))).toMatchObject({ allowed: false, errors: [] });
  });

  test.each([
    ['configMap', { name: 'c' }],
    ['secret', { secretName: 's' }],
    ['emptyDir', { medium: 'Memory' }],
    ['persistentVolumeClaim', { claimName: 'data' }],
    ['projected', { sources: [{ serviceAccountToken: { path: 'token' } }] }],
    ['csi', { driver: 'ebs.csi.aws.com' }],
    ['awsElasticBlockStore', { volumeID: 'vol-1' }],
  ])('GIVEN a tenant pod with a %s volume WHEN admitted THEN it is allowed at baseline', (type, source) => {
    expect(admit(BASELINE, podRequest(pod('p', 'team-a', withVolume(type, source))), { apiServerView: true })).toMatchObject({
      allowed: true,
      errors: [],
    });
  });

  test('GIVEN a volume with no source (defaulted to emptyDir by the API server) WHEN admitted THEN it is allowed', () => {
    expect(admit(BASELINE, podRequest(pod('p', 'team-a', { containers: [container('app')], volumes: [{ name: 'v' }] })))).toMatchObject({
      allowed: true,
      errors: [],
    });
  });

  test('GIVEN restricted WHEN a tenant pod uses a cloud disk THEN it is denied (restricted allows only the eight safe types)', () => {
    const spec = { containers: [hardened()], volumes: [{ name: 'd', awsElasticBlockStore: { volumeID: 'vol-1' } }] };
    const decision = admit(RESTRICTED, podRequest(pod('p', 'team-a', spec)), { apiServerView: true });
    expect(decision.errors).toEqual([]);
    expect(decision.denials.map((d) => d.message).join('\n')).toContain('d=awsElasticBlockStore');
  });

  test.each<[string, Partial<NodeServiceGuardrailsProps>, string[]]>([
    ['hostPath', { allowedTenantVolumeTypes: ['hostPath'] }, ['allowedTenantVolumeTypes[0] = "hostPath"', 'host access']],
    [
      'an unknown type',
      { allowedTenantVolumeTypes: ['NFS'] },
      ['allowedTenantVolumeTypes[0] = "NFS"', 'not a Kubernetes 1.28 volume type'],
    ],
    ['a default type', { allowedTenantVolumeTypes: ['emptyDir'] }, ['allowedTenantVolumeTypes[0]', 'allowed by default at baseline']],
    ['a duplicate', { allowedTenantVolumeTypes: ['nfs', 'nfs'] }, ['allowedTenantVolumeTypes', 'twice']],
    ['privileged tenants', { tenantPodSecurity: PodSecurityLevel.PRIVILEGED }, ['tenantPodSecurity = "privileged"', 'BASELINE']],
  ])('GIVEN %s WHEN constructed THEN it throws naming the field, the value and the fix', (_t, props, fragments) => {
    let message = '';
    try {
      synthGuardrails({ ...CORPUS_PROPS, ...props });
    } catch (e) {
      message = (e as Error).message;
    }
    for (const f of fragments) expect(message).toContain(f);
    expect(message).toContain('Fix:');
  });
});

describe('system priority classes', () => {
  test.each(['system-node-critical', 'system-cluster-critical'])(
    'GIVEN a tenant pod with priority class %s WHEN admitted THEN it is denied',
    (priorityClassName) => {
      const decision = admit(BASELINE, podRequest(pod('p', 'team-a', { priorityClassName, containers: [container('app')] })));
      expect(decision.errors).toEqual([]);
      expect(decision.denials.map((d) => d.message)).toEqual([expect.stringContaining(`priority class ${priorityClassName} is reserved`)]);
    },
  );

  test('GIVEN a tenant pod with its own priority class WHEN admitted THEN it is allowed', () => {
    const decision = admit(BASELINE, podRequest(pod('p', 'team-a', { priorityClassName: 'batch-high', containers: [container('app')] })));
    expect(decision).toMatchObject({ allowed: true, errors: [] });
  });

  test('GIVEN a node service with system-node-critical in the trusted namespace WHEN admitted THEN it is allowed', () => {
    const decision = admit(
      BASELINE,
      podRequest(pod('p', 'node-services', { priorityClassName: 'system-node-critical', containers: [container('app')] })),
    );
    expect(decision).toMatchObject({ allowed: true, errors: [] });
  });
});

describe('kubectl debug in a restricted tenant namespace', () => {
  const app = pod('app', 'team-a', {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [hardened()],
  });

  test('GIVEN the default (legacy) debug profile THEN the ephemeral container is denied; GIVEN --profile=restricted THEN it is allowed', () => {
    const legacy = debugRequest(app, { name: 'debugger', image: 'busybox:1.36' });
    const denied = admit(RESTRICTED, legacy, { apiServerView: true });
    expect(denied.errors).toEqual([]);
    expect(denied.denials.map((d) => d.message).join('\n')).toContain('allowPrivilegeEscalation');
    // What `kubectl debug --profile=restricted` sets on the ephemeral container.
    const restricted = debugRequest(app, {
      name: 'debugger',
      image: 'busybox:1.36',
      securityContext: {
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      },
    });
    expect(admit(RESTRICTED, restricted, { apiServerView: true })).toMatchObject({ allowed: true, errors: [] });
  });
});
