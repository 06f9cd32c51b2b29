/**
 * The emitted admission policies, evaluated with a CEL interpreter against a corpus of requests, the way a
 * Kubernetes 1.28 API server would evaluate them (see admission-simulator.ts).
 */

import fc from 'fast-check';
import { imageAllowedByRegistries } from '../../src/admission/image-reference';
import { isPathWithin, parseImage } from '../../src/k8s';
import { admit, Decision, SimRequest } from './admission-simulator';
import {
  container,
  CORPUS_PROPS,
  daemonSet,
  daemonSetRequest,
  debugRequest,
  DIGEST,
  namespace,
  namespaceRequest,
  pod,
  podRequest,
  podSpec,
  synthGuardrails,
  USERS,
} from './fixtures';

const manifests = synthGuardrails();

interface Case {
  readonly title: string;
  readonly request: SimRequest;
  /** For denials: the policy expected to deny, and words the message must contain. */
  readonly policy?: string;
  readonly mentions?: string[];
}

const hostLog = { name: 'varlog', hostPath: { path: '/var/log', type: 'Directory' } };
const withHostPath = (path: string, name = 'host') => podSpec({ volumes: [{ name, hostPath: { path, type: 'Directory' } }] });
const imageSpec = (image: string) => ({ containers: [container('agent', { image })] });

const DENIED: Case[] = [
  // Untrusted namespaces: host access in DaemonSets.
  {
    title: 'DaemonSet with a hostPath volume in a tenant namespace',
    request: daemonSetRequest(daemonSet('logs', 'team-a', podSpec({ volumes: [hostLog] }))),
    policy: 'node-services-host-access',
    mentions: ['hostPath volumes', 'varlog', 'logs', 'team-a'],
  },
  {
    title: 'DaemonSet whose init container mounts a hostPath',
    request: daemonSetRequest(
      daemonSet('init-host', 'team-a', {
        initContainers: [container('setup', { volumeMounts: [{ name: 'etc', mountPath: '/host/etc' }] })],
        containers: [container('agent')],
        volumes: [{ name: 'etc', hostPath: { path: '/etc' } }],
      }),
    ),
    policy: 'node-services-host-access',
    mentions: ['etc'],
  },
  {
    title: 'DaemonSet with a privileged container',
    request: daemonSetRequest(daemonSet('priv', 'team-a', { containers: [container('agent', { securityContext: { privileged: true } })] })),
    policy: 'node-services-host-access',
    mentions: ['privileged containers', 'agent'],
  },
  {
    title: 'DaemonSet with a privileged init container',
    request: daemonSetRequest(
      daemonSet('priv-init', 'team-a', podSpec({ initContainers: [container('sysctl', { securityContext: { privileged: true } })] })),
    ),
    policy: 'node-services-host-access',
    mentions: ['sysctl'],
  },
  {
    title: 'DaemonSet with hostNetwork',
    request: daemonSetRequest(daemonSet('net', 'team-a', podSpec({ hostNetwork: true }))),
    policy: 'node-services-host-access',
    mentions: ['hostNetwork'],
  },
  {
    title: 'DaemonSet with hostPID',
    request: daemonSetRequest(daemonSet('pid', 'team-a', podSpec({ hostPID: true }))),
    mentions: ['hostPID'],
  },
  {
    title: 'DaemonSet with hostIPC',
    request: daemonSetRequest(daemonSet('ipc', 'team-a', podSpec({ hostIPC: true }))),
    mentions: ['hostIPC'],
  },
  {
    title: 'DaemonSet adding NET_ADMIN',
    request: daemonSetRequest(
      daemonSet('caps', 'team-a', {
        containers: [container('agent', { securityContext: { capabilities: { drop: ['ALL'], add: ['NET_ADMIN'] } } })],
      }),
    ),
    mentions: ['agent adds NET_ADMIN'],
  },
  {
    title: 'DaemonSet whose init container adds SYS_ADMIN',
    request: daemonSetRequest(
      daemonSet(
        'caps-init',
        'team-a',
        podSpec({ initContainers: [container('mount', { securityContext: { capabilities: { add: ['SYS_ADMIN'] } } })] }),
      ),
    ),
    mentions: ['mount adds SYS_ADMIN'],
  },
  {
    title: 'DaemonSet with a hostPort',
    request: daemonSetRequest(
      daemonSet('port', 'team-a', { containers: [container('agent', { ports: [{ containerPort: 9100, hostPort: 9100 }] })] }),
    ),
    mentions: ['agent uses 9100'],
  },
  {
    title: 'DaemonSet whose init container has a hostPort',
    request: daemonSetRequest(
      daemonSet(
        'port-init',
        'team-a',
        podSpec({ initContainers: [container('probe', { ports: [{ containerPort: 8080, hostPort: 18080 }] })] }),
      ),
    ),
    mentions: ['probe uses 18080'],
  },
  {
    title: 'DaemonSet in a namespace whose trust label is "yes", not "true"',
    request: daemonSetRequest(daemonSet('lookalike', 'team-b', podSpec({ volumes: [hostLog] }))),
    policy: 'node-services-host-access',
    mentions: ['team-b'],
  },
  {
    title: 'update of a tenant DaemonSet that adds a hostPath',
    request: daemonSetRequest(
      daemonSet('grow', 'team-a', podSpec({ volumes: [hostLog] })),
      USERS.tenant,
      daemonSet('grow', 'team-a', podSpec()),
    ),
    policy: 'node-services-host-access',
  },
  // Untrusted namespaces: bare Pods and kubectl debug.
  {
    title: 'bare Pod with a hostPath volume',
    request: podRequest(pod('debug', 'team-a', withHostPath('/'))),
    policy: 'node-services-host-access',
    mentions: ['Pod debug'],
  },
  {
    title: 'bare Pod with hostNetwork',
    request: podRequest(pod('net', 'team-a', podSpec({ hostNetwork: true }))),
    policy: 'node-services-host-access',
  },
  {
    title: 'Pod of a Deployment (owner reference does not exempt it) with a hostPath',
    request: podRequest(
      pod('web-7d9f-abcde', 'team-a', withHostPath('/var/run/docker.sock'), {
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f', uid: 'u1', controller: true }],
      }),
      USERS.daemonSetController,
    ),
    policy: 'node-services-host-access',
  },
  {
    title: 'kubectl debug adding a privileged ephemeral container',
    request: debugRequest(pod('app', 'team-a', podSpec()), {
      name: 'debugger',
      image: 'registry.example.com/tools/debug:1',
      securityContext: { privileged: true },
    }),
    policy: 'node-services-host-access',
    mentions: ['debugger'],
  },
  {
    title: 'kubectl debug adding an ephemeral container with SYS_PTRACE',
    request: debugRequest(pod('app', 'team-a', podSpec()), {
      name: 'tracer',
      image: 'registry.example.com/tools/debug:1',
      securityContext: { capabilities: { add: ['SYS_PTRACE'] } },
    }),
    mentions: ['tracer adds SYS_PTRACE'],
  },
  // Trusted namespace: allowlists.
  {
    title: 'registry prefix lookalike registry.example.com.evil.io',
    request: daemonSetRequest(daemonSet('evil', 'node-services', imageSpec('registry.example.com.evil.io/agents/agent:1.0'))),
    policy: 'node-services-allowlists',
    mentions: ['registry.example.com.evil.io/agents/agent'],
  },
  {
    title: 'lookalike registry pinned by digest',
    request: daemonSetRequest(daemonSet('evil-digest', 'node-services', imageSpec(`registry.example.com.evil.io/agents/agent@${DIGEST}`))),
    mentions: ['registry.example.com.evil.io/agents/agent'],
  },
  {
    title: 'same host on another port',
    request: daemonSetRequest(daemonSet('port-registry', 'node-services', imageSpec('registry.example.com:5000/agents/agent:1.0'))),
    mentions: ['registry.example.com:5000/agents/agent'],
  },
  {
    title: 'path prefix lookalike ghcr.io/example-org-evil',
    request: daemonSetRequest(daemonSet('org', 'node-services', imageSpec('ghcr.io/example-org-evil/agent:1.0'))),
    mentions: ['ghcr.io/example-org-evil/agent'],
  },
  {
    title: 'image without registry (Docker Hub library image)',
    request: daemonSetRequest(daemonSet('hub', 'node-services', imageSpec('nginx:1.25'))),
    mentions: ['docker.io/library/nginx'],
  },
  {
    title: 'init container image from another registry',
    request: daemonSetRequest(
      daemonSet('init-img', 'node-services', podSpec({ initContainers: [container('setup', { image: 'quay.io/other/setup:2' })] })),
    ),
    mentions: ['quay.io/other/setup'],
  },
  {
    title: 'ephemeral debug container from Docker Hub in the trusted namespace',
    request: debugRequest(pod('agent-x1', 'node-services', podSpec()), { name: 'debugger', image: 'busybox:1.36' }, USERS.platform),
    policy: 'node-services-allowlists',
    mentions: ['docker.io/library/busybox'],
  },
  {
    title: 'hostPath escaping the allowlist with ..',
    request: daemonSetRequest(daemonSet('dotdot', 'node-services', withHostPath('/var/log/../etc'))),
    policy: 'node-services-allowlists',
    mentions: ['/var/log/../etc'],
  },
  {
    title: 'hostPath that only shares a string prefix (/var/logs)',
    request: daemonSetRequest(daemonSet('logs2', 'node-services', withHostPath('/var/logs'))),
    mentions: ['/var/logs'],
  },
  {
    title: 'hostPath outside the allowlist (/etc)',
    request: daemonSetRequest(daemonSet('etc', 'node-services', withHostPath('/etc'))),
    mentions: ['/etc'],
  },
  {
    title: 'hostPath above an allowed path (/var/lib/kubelet)',
    request: podRequest(pod('kubelet', 'node-services', withHostPath('/var/lib/kubelet'))),
    policy: 'node-services-allowlists',
  },
  // Trust label.
  {
    title: 'tenant creates a namespace labelled trusted',
    request: namespaceRequest(namespace('sneaky', { 'node-services.cdk8s.io/trusted': 'true' })),
    policy: 'node-services-trust-label',
    mentions: ['alice@example.com', 'sneaky', 'platform-admins'],
  },
  {
    title: 'tenant adds the trust label to their namespace',
    request: namespaceRequest(
      namespace('team-a', { team: 'a', 'node-services.cdk8s.io/trusted': 'true' }),
      USERS.tenant,
      namespace('team-a', { team: 'a' }),
    ),
    policy: 'node-services-trust-label',
  },
  {
    title: 'tenant changes the trust label value',
    request: namespaceRequest(
      namespace('team-b', { 'node-services.cdk8s.io/trusted': 'true' }),
      USERS.tenant,
      namespace('team-b', { 'node-services.cdk8s.io/trusted': 'yes' }),
    ),
  },
  {
    title: 'tenant removes the trust label from the platform namespace',
    request: namespaceRequest(
      namespace('node-services', { other: 'x' }),
      USERS.tenant,
      namespace('node-services', { 'node-services.cdk8s.io/trusted': 'true' }),
    ),
  },
  {
    title: 'user without groups sets the trust label',
    request: namespaceRequest(namespace('nogroups', { 'node-services.cdk8s.io/trusted': 'true' }), USERS.noGroups),
  },
];

const ALLOWED: Case[] = [
  {
    title: 'tenant DaemonSet without host access',
    request: daemonSetRequest(
      daemonSet(
        'plain',
        'team-a',
        podSpec({
          volumes: [
            { name: 'cfg', configMap: { name: 'cfg' } },
            { name: 'tmp', emptyDir: {} },
          ],
        }),
      ),
    ),
  },
  {
    title: 'capabilities.add is an empty list',
    request: daemonSetRequest(
      daemonSet('empty-add', 'team-a', {
        containers: [container('agent', { securityContext: { capabilities: { add: [], drop: ['ALL'] } } })],
      }),
    ),
  },
  {
    title: 'explicit false and zero values',
    request: daemonSetRequest(
      daemonSet('zeros', 'team-a', {
        hostNetwork: false,
        hostPID: false,
        hostIPC: false,
        containers: [container('agent', { securityContext: { privileged: false }, ports: [{ containerPort: 8080, hostPort: 0 }] })],
      }),
    ),
  },
  {
    title: 'drop ALL only',
    request: daemonSetRequest(
      daemonSet('drop', 'team-a', { containers: [container('agent', { securityContext: { capabilities: { drop: ['ALL'] } } })] }),
    ),
  },
  {
    title: 'container port without hostPort',
    request: daemonSetRequest(
      daemonSet('port', 'team-a', { containers: [container('agent', { ports: [{ containerPort: 9100, name: 'metrics' }] })] }),
    ),
  },
  { title: 'tenant bare Pod', request: podRequest(pod('job-1', 'team-a', podSpec())) },
  {
    title: 'kubectl debug with an unprivileged ephemeral container in a tenant namespace',
    request: debugRequest(pod('app', 'team-a', podSpec()), { name: 'debugger', image: 'busybox:1.36' }),
  },
  {
    title: 'kube-system is exempt',
    request: daemonSetRequest(
      daemonSet('kube-proxy', 'kube-system', {
        hostNetwork: true,
        containers: [container('kube-proxy', { image: 'registry.k8s.io/kube-proxy:v1.28.4', securityContext: { privileged: true } })],
        volumes: [{ name: 'modules', hostPath: { path: '/lib/modules' } }],
      }),
    ),
  },
  {
    title: 'relabelling a tenant DaemonSet admitted before the policy (pod template unchanged)',
    request: daemonSetRequest(
      daemonSet('legacy', 'team-a', podSpec({ volumes: [hostLog] }), { app: 'legacy', owner: 'x' }),
      USERS.tenant,
      daemonSet('legacy', 'team-a', podSpec({ volumes: [hostLog] })),
    ),
  },
  {
    title: 'deleting a tenant DaemonSet with host access',
    request: daemonSetRequest(
      daemonSet('legacy', 'team-a', podSpec({ volumes: [hostLog] })),
      USERS.tenant,
      daemonSet('legacy', 'team-a', podSpec({ volumes: [hostLog] })),
      'DELETE',
    ),
  },
  {
    title: 'status update of a Pod (subresource not matched)',
    request: podRequest(pod('legacy', 'team-a', withHostPath('/')), USERS.tenant, pod('legacy', 'team-a', withHostPath('/')), 'status'),
  },
  // Trusted namespace.
  {
    title: 'log agent in the trusted namespace with allowlisted image and paths',
    request: daemonSetRequest(
      daemonSet('fluent-bit', 'node-services', {
        containers: [
          container('fluent-bit', {
            image: 'registry.example.com/logging/fluent-bit:3.1.9',
            volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }],
          }),
        ],
        volumes: [hostLog, { name: 'pods', hostPath: { path: '/var/lib/kubelet/pods/', type: 'Directory' } }],
      }),
      USERS.argocd,
    ),
  },
  {
    title: 'image pinned by digest only',
    request: daemonSetRequest(daemonSet('digest', 'node-services', imageSpec(`registry.example.com/agents/agent@${DIGEST}`))),
  },
  {
    title: 'image with tag and digest',
    request: daemonSetRequest(daemonSet('tag-digest', 'node-services', imageSpec(`ghcr.io/example-org/agent:2.0@${DIGEST}`))),
  },
  {
    title: 'implicit Docker Hub image under an allowlisted namespace (bitnami)',
    request: daemonSetRequest(daemonSet('kubectl', 'node-services', imageSpec('bitnami/kubectl:1.28'))),
  },
  {
    title: 'explicit docker.io image under an allowlisted namespace',
    request: daemonSetRequest(daemonSet('kubectl2', 'node-services', imageSpec('docker.io/bitnami/kubectl:1.28'))),
  },
  {
    title: 'trusted namespace allows privileged, host namespaces, capabilities and host ports',
    request: daemonSetRequest(
      daemonSet('cni', 'node-services', {
        hostNetwork: true,
        hostPID: true,
        initContainers: [container('install', { securityContext: { privileged: true } })],
        containers: [
          container('agent', {
            securityContext: { capabilities: { add: ['NET_ADMIN', 'NET_RAW'] } },
            ports: [{ containerPort: 9090, hostPort: 9090 }],
          }),
        ],
        volumes: [{ name: 'sock', hostPath: { path: '/run/containerd/containerd.sock', type: 'Socket' } }],
      }),
    ),
  },
  {
    title: 'hostPath below an allowed path',
    request: daemonSetRequest(daemonSet('containers', 'node-services', withHostPath('/var/log/containers'))),
  },
  {
    title: 'hostPath equal to an allowed path',
    request: podRequest(
      pod('agent-abc', 'node-services', withHostPath('/var/log'), {
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'u', controller: true }],
      }),
      USERS.daemonSetController,
    ),
  },
  {
    title: 'kubectl debug with an allowlisted image in the trusted namespace',
    request: debugRequest(
      pod('agent-x1', 'node-services', podSpec()),
      { name: 'debugger', image: 'registry.example.com/tools/debug:1', securityContext: { privileged: true } },
      USERS.platform,
    ),
  },
  // Trust label.
  {
    title: 'platform group creates the trusted namespace',
    request: namespaceRequest(namespace('node-services', { 'node-services.cdk8s.io/trusted': 'true' }), USERS.platform),
  },
  {
    title: 'GitOps service account creates the trusted namespace',
    request: namespaceRequest(namespace('node-services-2', { 'node-services.cdk8s.io/trusted': 'true' }), USERS.argocd),
  },
  { title: 'tenant creates a namespace without the trust label', request: namespaceRequest(namespace('team-c', { team: 'c' })) },
  { title: 'tenant creates a namespace without any labels', request: namespaceRequest(namespace('team-d')) },
  {
    title: 'tenant edits other labels of a trusted namespace, trust label unchanged',
    request: namespaceRequest(
      namespace('node-services', { 'node-services.cdk8s.io/trusted': 'true', cost: 'platform' }),
      USERS.tenant,
      namespace('node-services', { 'node-services.cdk8s.io/trusted': 'true' }),
    ),
  },
  {
    title: 'platform group removes the trust label',
    request: namespaceRequest(namespace('old', {}), USERS.platform, namespace('old', { 'node-services.cdk8s.io/trusted': 'true' })),
  },
];

function expectClean(decision: Decision): void {
  expect(decision.errors).toEqual([]);
}

describe('guardrail policies evaluated against sample requests', () => {
  test('GIVEN the corpus THEN it has at least 20 allowed and 20 denied requests', () => {
    expect(DENIED.length).toBeGreaterThanOrEqual(20);
    expect(ALLOWED.length).toBeGreaterThanOrEqual(20);
  });

  describe.each([
    ['as written', false],
    ['as the API server binds it (zero values dropped)', true],
  ])('objects %s', (_view, apiServerView) => {
    test.each(DENIED.map((c) => [c.title, c] as const))(
      'GIVEN %s WHEN admitted THEN it is denied with a message that says what and whom to ask',
      (_t, c) => {
        const decision = admit(manifests, c.request, { apiServerView });
        expectClean(decision);
        expect(decision.allowed).toBe(false);
        if (c.policy) expect(decision.denials.map((d) => d.policy)).toContain(c.policy);
        for (const denial of decision.denials) {
          expect(denial.source).toBe('messageExpression');
          expect(denial.message).toContain('#platform-team');
        }
        const text = decision.denials.map((d) => d.message).join('\n');
        for (const m of c.mentions ?? []) expect(text).toContain(m);
      },
    );

    test.each(ALLOWED.map((c) => [c.title, c] as const))('GIVEN %s WHEN admitted THEN it is allowed', (_t, c) => {
      const decision = admit(manifests, c.request, { apiServerView });
      expectClean(decision);
      expect(decision.denials).toEqual([]);
      expect(decision.allowed).toBe(true);
    });
  });

  test('GIVEN a DaemonSet with several violations WHEN admitted THEN each kind of host access is reported once', () => {
    const ds = daemonSet('everything', 'team-a', {
      hostNetwork: true,
      hostPID: true,
      containers: [
        container('agent', {
          securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] } },
          ports: [{ containerPort: 1, hostPort: 1 }],
        }),
      ],
      volumes: [hostLog],
    });
    const decision = admit(manifests, daemonSetRequest(ds));
    expectClean(decision);
    const messages = decision.denials.map((d) => d.message);
    expect(messages).toHaveLength(5);
    for (const what of [
      'hostPath volumes (varlog)',
      'privileged containers (agent)',
      'host namespaces (hostNetwork, hostPID)',
      'added capabilities (agent adds SYS_ADMIN)',
      'host ports (agent uses 1)',
    ]) {
      expect(messages.some((m) => m.includes(what))).toBe(true);
    }
  });

  test('GIVEN the metadata-only update of a legacy DaemonSet WHEN admitted THEN the policy is skipped by its match condition, not by luck', () => {
    const old = daemonSet('legacy', 'team-a', podSpec({ volumes: [hostLog] }));
    const relabelled = daemonSet('legacy', 'team-a', podSpec({ volumes: [hostLog] }), { app: 'legacy', owner: 'x' });
    expect(admit(manifests, daemonSetRequest(relabelled, USERS.tenant, old)).evaluated).toEqual([]);
    expect(admit(manifests, daemonSetRequest(old)).evaluated).toEqual([
      'node-services-host-access/node-services-host-access',
      'node-services-tenant-pod-security/node-services-tenant-pod-security',
    ]);
  });
});

describe('dry run', () => {
  const dryRun = synthGuardrails({ ...CORPUS_PROPS, dryRun: true });

  const isTrustLabel = (c: Case) => c.policy === 'node-services-trust-label' || c.request.resource.resource === 'namespaces';

  test.each(DENIED.filter((c) => !isTrustLabel(c)).map((c) => [c.title, c] as const))(
    'GIVEN %s WHEN admitted under dryRun THEN it is allowed with a warning and an audit annotation',
    (_t, c) => {
      const decision = admit(dryRun, c.request);
      expectClean(decision);
      expect(decision.allowed).toBe(true);
      expect(decision.warnings.length).toBeGreaterThan(0);
      expect(decision.audits).toEqual(decision.warnings);
    },
  );

  test.each(DENIED.filter(isTrustLabel).map((c) => [c.title, c] as const))(
    'GIVEN %s WHEN admitted under dryRun THEN the trust label is still denied (a label granted in a dry run would survive the switch to Deny)',
    (_t, c) => {
      const decision = admit(dryRun, c.request);
      expectClean(decision);
      expect(decision.allowed).toBe(false);
      expect(decision.denials.map((d) => d.policy)).toEqual(['node-services-trust-label']);
      expect(decision.audits.map((d) => d.policy)).toEqual(['node-services-trust-label']);
    },
  );
});

describe('allowlist semantics match the shared grammar', () => {
  const registries = [
    'registry.example.com',
    'registry.example.com.evil.io',
    'registry.example.com:5000',
    'ghcr.io',
    'docker.io',
    'localhost',
    'localhost:5000',
    'quay.io',
    'index.docker.io',
    'Evil',
    'Docker',
    'Registry.Example.com',
    '',
  ];
  const components = ['example-org', 'example-org-evil', 'agents', 'bitnami', 'library', 'nginx', 'flannel', 'x'];
  const imageArb = fc
    .record({
      registry: fc.constantFrom(...registries),
      path: fc.array(fc.constantFrom(...components), { minLength: 1, maxLength: 3 }),
      tag: fc.option(fc.constantFrom('1.0', 'latest', 'v2.3.4'), { nil: undefined }),
      digest: fc.boolean(),
    })
    .map(
      ({ registry, path, tag, digest }) =>
        `${registry ? registry + '/' : ''}${path.join('/')}${tag ? ':' + tag : ''}${digest ? '@' + DIGEST : ''}`,
    )
    // Valid references, and references whose first element is a registry host only for the runtime (upper case).
    .filter((ref) => parseImage(ref) !== undefined || /^[^/]*[A-Z][^/]*\//.test(ref));

  test('GIVEN any image reference WHEN a Pod in the trusted namespace uses it THEN CEL allows it exactly when the runtime-normalised repository is allowlisted', () => {
    fc.assert(
      fc.property(imageArb, (image) => {
        const decision = admit(manifests, podRequest(pod('p', 'node-services', imageSpec(image))));
        expect(decision.errors).toEqual([]);
        expect(decision.allowed).toBe(imageAllowedByRegistries(image, CORPUS_PROPS.registryAllowlist as string[]));
      }),
      { numRuns: 300 },
    );
  });

  const segment = fc.constantFrom('var', 'log', 'logs', 'lib', 'kubelet', 'pods', 'run', 'containerd', 'containerd.sock', 'etc', '..', '.');
  const pathArb = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => '/' + s.join('/'));

  test('GIVEN any host path WHEN a Pod in the trusted namespace mounts it THEN CEL allows it exactly when it has no .. element and lies within an allowed path', () => {
    fc.assert(
      fc.property(pathArb, (path) => {
        const decision = admit(manifests, podRequest(pod('p', 'node-services', withHostPath(path))));
        expect(decision.errors).toEqual([]);
        const expected = !path.split('/').includes('..') && (CORPUS_PROPS.hostPathAllowlist as string[]).some((a) => isPathWithin(path, a));
        expect(decision.allowed).toBe(expected);
      }),
      { numRuns: 150 },
    );
  });

  test('GIVEN the allowlist "/" WHEN any absolute path without .. is mounted THEN it is allowed', () => {
    const rootAllowed = synthGuardrails({ ...CORPUS_PROPS, hostPathAllowlist: ['/'] });
    expect(admit(rootAllowed, podRequest(pod('p', 'node-services', withHostPath('/'))))).toMatchObject({ allowed: true, errors: [] });
    expect(admit(rootAllowed, podRequest(pod('p', 'node-services', withHostPath('/etc/kubernetes'))))).toMatchObject({
      allowed: true,
      errors: [],
    });
    expect(admit(rootAllowed, podRequest(pod('p', 'node-services', withHostPath('/var/../etc'))))).toMatchObject({
      allowed: false,
      errors: [],
    });
  });
});
