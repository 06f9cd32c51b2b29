/**
 * The ways around the guardrails that a tenant who administers their own namespace could take, each evaluated as
 * CEL against the emitted policies: the trust label through namespace subresources and during a dry run, image
 * references that container runtimes read differently from a naive parser, Windows path separators, workload
 * controllers whose pods would be denied only later, and platform groups that hold whole namespaces of service
 * accounts.
 */

import { Chart, Testing } from 'cdk8s';
import { IPolicyLogger, NodeServiceGuardrails, NodeServiceGuardrailsProps, ValidationAction } from '../../src';
import { runtimeImageRepository } from '../../src/admission/image-reference';
import { admit, apiServerView, Decision, SimRequest } from './admission-simulator';
import {
  container,
  CORPUS_PROPS,
  namespace,
  namespaceRequest,
  pod,
  podRequest,
  podSpec,
  synthGuardrails,
  USERS,
  WORKLOAD_KINDS,
  workload,
  workloadRequest,
} from './fixtures';

type Json = any;

const TRUST = 'node-services.cdk8s.io/trusted';
const manifests = synthGuardrails();

function expectDenied(decision: Decision, policy: string, ...mentions: string[]): void {
  expect(decision.errors).toEqual([]);
  expect(decision.allowed).toBe(false);
  expect(decision.denials.map((d) => d.policy)).toContain(policy);
  const text = decision.denials.map((d) => d.message).join('\n');
  for (const m of mentions) expect(text).toContain(m);
}

function expectAllowed(decision: Decision): void {
  expect(decision.errors).toEqual([]);
  expect(decision.denials).toEqual([]);
  expect(decision.allowed).toBe(true);
}

describe('trust label through the namespace and its subresources', () => {
  const tenantNs = namespace('team-a', { team: 'a' });
  const selfGranted = namespace('team-a', { team: 'a', [TRUST]: 'true' });
  const platformNs = namespace('node-services', { [TRUST]: 'true' });
  const stripped = namespace('node-services', {});
  const modes: [string, Json[]][] = [
    ['Deny', manifests],
    ['dryRun', synthGuardrails({ ...CORPUS_PROPS, dryRun: true })],
    ['[Warn, Audit]', synthGuardrails({ ...CORPUS_PROPS, validationActions: [ValidationAction.WARN, ValidationAction.AUDIT] })],
    ['[Audit]', synthGuardrails({ ...CORPUS_PROPS, validationActions: [ValidationAction.AUDIT] })],
  ];

  describe.each(modes)('bindings in mode %s', (_mode, policies) => {
    test.each([undefined, 'status', 'finalize'])(
      'GIVEN a tenant adding the trust label to their namespace (subresource %s) THEN it is denied',
      (sub) => {
        expectDenied(
          admit(policies, namespaceRequest(selfGranted, USERS.tenant, tenantNs, sub)),
          'node-services-trust-label',
          'alice@example.com',
        );
      },
    );

    test.each([undefined, 'status', 'finalize'])(
      'GIVEN a tenant removing the trust label from the platform namespace (subresource %s) THEN it is denied',
      (sub) => {
        expectDenied(admit(policies, namespaceRequest(stripped, USERS.tenant, platformNs, sub)), 'node-services-trust-label');
      },
    );

    test('GIVEN a tenant creating a namespace with the trust label THEN it is denied', () => {
      expectDenied(admit(policies, namespaceRequest(namespace('sneaky', { [TRUST]: 'true' }))), 'node-services-trust-label', 'sneaky');
    });

    test.each([undefined, 'status', 'finalize'])(
      'GIVEN the platform group relabelling through subresource %s THEN it is allowed',
      (sub) => {
        expectAllowed(admit(policies, namespaceRequest(selfGranted, USERS.platform, tenantNs, sub)));
      },
    );
  });

  test('GIVEN a status update that keeps the label (namespace controller finalizing) THEN the policy is skipped', () => {
    const finalizing = { ...platformNs, status: { phase: 'Terminating' } };
    const decision = admit(manifests, namespaceRequest(finalizing, USERS.tenant, platformNs, 'status'));
    expectAllowed(decision);
    expect(decision.evaluated).toEqual([]);
  });

  test('GIVEN the GitOps service account listed in platformUsers THEN it may create the trusted namespace, and another service account of its namespace may not', () => {
    expectAllowed(admit(manifests, namespaceRequest(namespace('node-services-2', { [TRUST]: 'true' }), USERS.argocd)));
    const sibling = {
      username: 'system:serviceaccount:argocd:argocd-server',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:argocd', 'system:authenticated'],
    };
    expectDenied(admit(manifests, namespaceRequest(namespace('x', { [TRUST]: 'true' }), sibling)), 'node-services-trust-label');
  });

  test('GIVEN failurePolicy IGNORE for the other policies THEN the trust-label policy still fails closed', () => {
    const policies = synthGuardrails({ ...CORPUS_PROPS, failurePolicy: 'Ignore' as NodeServiceGuardrailsProps['failurePolicy'] });
    const trust = policies.find((m) => m.kind === 'ValidatingAdmissionPolicy' && m.metadata.name === 'node-services-trust-label');
    expect(trust.spec.failurePolicy).toBe('Fail');
  });
});

describe('image references read as container runtimes read them', () => {
  const hubAllowed = synthGuardrails({ ...CORPUS_PROPS, registryAllowlist: ['docker.io', 'registry.example.com'] });
  const flannelOrg = synthGuardrails({ ...CORPUS_PROPS, registryAllowlist: ['docker.io/flannel'] });
  const flannelLibrary = synthGuardrails({ ...CORPUS_PROPS, registryAllowlist: ['docker.io/library/flannel'] });
  const trustedPod = (image: string) => podRequest(pod('p', 'node-services', { containers: [container('agent', { image })] }));

  test.each(['Evil/agent:1.0', 'EVIL.example/agent:1.0', 'Docker/agent', 'myRegistry:5000/agent:1'])(
    'GIVEN %s (a registry host for the runtime) and docker.io allowlisted THEN it is denied',
    (image) => {
      expectDenied(admit(hubAllowed, trustedPod(image)), 'node-services-allowlists', runtimeImageRepository(image));
    },
  );

  test.each([
    'nginx:1.25',
    'bitnami/kubectl:1.28',
    'docker.io/nginx',
    'index.docker.io/bitnami/kubectl:1.28',
    'registry.example.com/a/b:1',
  ])('GIVEN %s and docker.io allowlisted THEN it is allowed', (image) => {
    expectAllowed(admit(hubAllowed, trustedPod(image)));
  });

  test.each(['docker.io/flannel:v0.25.6', 'flannel:v0.25.6', 'index.docker.io/flannel'])(
    'GIVEN the library image %s and the flannel organisation allowlisted THEN it is denied as docker.io/library/flannel',
    (image) => {
      expectDenied(admit(flannelOrg, trustedPod(image)), 'node-services-allowlists', 'docker.io/library/flannel');
    },
  );

  test.each(['docker.io/flannel/flannel:v0.25.6', 'flannel/flannel-cni-plugin:v1.5.1', 'index.docker.io/flannel/flannel:v0.25.6'])(
    'GIVEN %s of the flannel organisation allowlisted THEN it is allowed',
    (image) => {
      expectAllowed(admit(flannelOrg, trustedPod(image)));
    },
  );

  test.each(['flannel:v0.25.6', 'docker.io/flannel:v0.25.6'])(
    'GIVEN %s and docker.io/library/flannel allowlisted THEN it is allowed',
    (image) => {
      expectAllowed(admit(flannelLibrary, trustedPod(image)));
    },
  );

  test('GIVEN runtime normalisation THEN hosts, Docker Hub and library names resolve as distribution/reference does', () => {
    expect(
      [
        'Evil/agent:1.0',
        'nginx',
        'docker.io/nginx',
        'index.docker.io/library/nginx',
        'localhost/x',
        'localhost:5000/x:1',
        'a.b/c@sha256:00',
        'a/b/c',
      ].map(runtimeImageRepository),
    ).toEqual([
      'Evil/agent',
      'docker.io/library/nginx',
      'docker.io/library/nginx',
      'docker.io/library/nginx',
      'localhost/x',
      'localhost:5000/x',
      'a.b/c',
      'docker.io/a/b/c',
    ]);
  });
});

describe('host paths with Windows separators', () => {
  const trustedHostPath = (path: string) =>
    podRequest(pod('p', 'node-services', podSpec({ volumes: [{ name: 'h', hostPath: { path, type: 'Directory' } }] })));

  test.each(['/var/log\\..\\..\\Windows', '/var/log/x\\..\\..\\..\\etc', '/var/log\\pods', 'C:\\var\\log'])(
    'GIVEN hostPath %s in the trusted namespace THEN it is denied',
    (path) => {
      expectDenied(admit(manifests, trustedHostPath(path)), 'node-services-allowlists', 'no backslashes');
    },
  );

  test('GIVEN an allowlisted path written with forward slashes THEN it is allowed', () => {
    expectAllowed(admit(manifests, trustedHostPath('/var/log/pods')));
  });

  test('GIVEN a host-path allowlist entry with a backslash WHEN constructed THEN it is refused', () => {
    expect(() => synthGuardrails({ ...CORPUS_PROPS, hostPathAllowlist: ['/var/log\\x'] })).toThrow(/hostPathAllowlist\[0\].*backslash/);
  });
});

describe('pod templates of every workload checked at their own admission', () => {
  const KINDS = Object.keys(WORKLOAD_KINDS);
  const hostLog = { name: 'varlog', hostPath: { path: '/var/log', type: 'Directory' } };
  const SPECS: [string, Json, string][] = [
    ['a hostPath volume', podSpec({ volumes: [hostLog] }), 'node-services-host-access'],
    ['hostNetwork', podSpec({ hostNetwork: true }), 'node-services-host-access'],
    [
      'a privileged init container',
      podSpec({ initContainers: [container('init', { securityContext: { privileged: true } })] }),
      'node-services-host-access',
    ],
    ['seccomp Unconfined', podSpec({ securityContext: { seccompProfile: { type: 'Unconfined' } } }), 'node-services-tenant-pod-security'],
    [
      'a gitRepo volume',
      podSpec({ volumes: [{ name: 'g', gitRepo: { repository: 'https://example.com/r.git' } }] }),
      'node-services-tenant-pod-security',
    ],
    ['system-node-critical', podSpec({ priorityClassName: 'system-node-critical' }), 'node-services-tenant-pod-security'],
  ];

  /** The denial messages without the subject (kind and name), so a workload and its pod compare equal. */
  const reasons = (decision: Decision) =>
    decision.denials.map((d) => `${d.policy}: ${d.message.replace(/^\S+ \S+ in namespace \S+/, '')}`).sort();

  describe.each(KINDS)('%s', (kind) => {
    test.each(SPECS)(
      'GIVEN a tenant workload with %s THEN it is denied by the same rule, with the same reasons as the pod',
      (_what, spec, policy) => {
        const object = workload(kind, 'w', 'team-a', spec);
        const decision = admit(manifests, workloadRequest(object), { apiServerView: true });
        expectDenied(decision, policy, `${kind} w in namespace team-a`);
        const podDecision = admit(manifests, podRequest(pod('w-x1', 'team-a', spec)), { apiServerView: true });
        expect(reasons(decision)).toEqual(reasons(podDecision));
      },
    );

    test('GIVEN a tenant workload without host access THEN it is allowed', () => {
      expectAllowed(admit(manifests, workloadRequest(workload(kind, 'w', 'team-a', podSpec())), { apiServerView: true }));
    });

    test('GIVEN an AppArmor unconfined annotation on the pod template THEN it is denied', () => {
      const object = workload(kind, 'w', 'team-a', podSpec(), {
        annotations: { 'container.apparmor.security.beta.kubernetes.io/agent': 'unconfined' },
      });
      expectDenied(admit(manifests, workloadRequest(object)), 'node-services-tenant-pod-security', 'appArmorProfile');
    });

    test('GIVEN a trusted-namespace workload with an image outside the allowlist THEN it is denied; with an allowlisted one, allowed', () => {
      const bad = workload(kind, 'w', 'node-services', { containers: [container('agent', { image: 'quay.io/other/agent:1' })] });
      expectDenied(admit(manifests, workloadRequest(bad, USERS.platform)), 'node-services-allowlists', 'quay.io/other/agent');
      expectAllowed(admit(manifests, workloadRequest(workload(kind, 'w', 'node-services', podSpec()), USERS.platform)));
    });

    test('GIVEN an update that only changes labels of a workload admitted before the policies THEN it is not re-checked', () => {
      const legacy = workload(kind, 'w', 'team-a', podSpec({ volumes: [hostLog] }));
      const relabelled = { ...legacy, metadata: { ...legacy.metadata, labels: { owner: 'x' } } };
      const decision = admit(manifests, workloadRequest(relabelled, USERS.tenant, legacy));
      expectAllowed(decision);
      expect(decision.evaluated).toEqual([]);
    });
  });

  test('GIVEN the CEL of the policies THEN the pod template path is chosen once, by resource, not repeated per kind', () => {
    for (const policy of manifests.filter(
      (m) => m.kind === 'ValidatingAdmissionPolicy' && m.metadata.name !== 'node-services-trust-label',
    )) {
      const text = JSON.stringify(policy.spec.variables) + JSON.stringify(policy.spec.validations);
      expect(text.match(/jobTemplate/g)).toHaveLength(1);
      expect(policy.spec.variables[0]).toEqual({
        name: 'podTemplate',
        expression:
          "request.resource.resource == 'pods' ? object : request.resource.resource == 'cronjobs' ? object.spec.jobTemplate.spec.template : object.spec.template",
      });
    }
  });

  test('GIVEN every request of a workload THEN the API server view and the object as written decide the same', () => {
    for (const kind of KINDS) {
      for (const [, spec] of SPECS) {
        const request: SimRequest = workloadRequest(workload(kind, 'w', 'team-a', spec));
        expect(admit(manifests, request).denials).toEqual(admit(manifests, { ...request, object: apiServerView(request.object) }).denials);
      }
    }
  });
});

describe('platform groups that name whole namespaces of service accounts', () => {
  function build(props: Partial<NodeServiceGuardrailsProps>): { guardrails: NodeServiceGuardrails; logged: string[]; synth: () => void } {
    const logged: string[] = [];
    const logger: IPolicyLogger = { log: (m) => void logged.push(m) };
    const chart = new Chart(Testing.app(), 'c');
    const guardrails = new NodeServiceGuardrails(chart, 'guardrails', {
      contact: '#platform-team',
      ...props,
      logger,
    } as NodeServiceGuardrailsProps);
    return { guardrails, logged, synth: () => void Testing.synth(chart) };
  }

  test('GIVEN system:serviceaccounts:argocd WHEN synthesized THEN a warning names the group, the risk and the fix', () => {
    const { guardrails, logged, synth } = build({ platformGroups: ['platform-admins', 'system:serviceaccounts:argocd'] });
    expect(logged).toEqual([]); // printed at synthesis, not at construction
    synth();
    expect(guardrails.warnings).toHaveLength(1);
    const text = logged.join('');
    for (const fragment of [
      'c/guardrails',
      'platformGroups[1] "system:serviceaccounts:argocd"',
      'every service account of namespace argocd',
      'Fix: list the one service account in platformUsers',
      'system:serviceaccount:argocd:<name>',
    ]) {
      expect(text).toContain(fragment);
    }
  });

  test('GIVEN the service account in platformUsers and a group of people WHEN synthesized THEN nothing is printed', () => {
    const { guardrails, logged, synth } = build({
      platformGroups: ['platform-admins'],
      platformUsers: ['system:serviceaccount:argocd:argocd-application-controller'],
    });
    synth();
    expect(guardrails.warnings).toEqual([]);
    expect(logged).toEqual([]);
  });

  test('GIVEN only platformUsers WHEN synthesized THEN the trust label is protected for exactly those users', () => {
    const policies = synthGuardrails({ contact: '#p', platformUsers: ['system:serviceaccount:argocd:argocd-application-controller'] });
    expectAllowed(admit(policies, namespaceRequest(namespace('x', { [TRUST]: 'true' }), USERS.argocd)));
    expectDenied(admit(policies, namespaceRequest(namespace('x', { [TRUST]: 'true' }), USERS.platform)), 'node-services-trust-label');
  });

  test.each(['system:serviceaccounts', 'system:authenticated', 'system:unauthenticated'])(
    'GIVEN the cluster-wide group %s WHEN synthesized THEN it is refused (every tenant is a member)',
    (group) => {
      expect(() => build({ platformGroups: ['platform-admins', group] }).synth()).toThrow(
        new RegExp(`platformGroups\\[1\\] = "${group}": is a group every tenant belongs to.*Fix: .*platformUsers`),
      );
    },
  );

  test.each<[string, Partial<NodeServiceGuardrailsProps>, string]>([
    ['an empty user', { platformGroups: ['a'], platformUsers: [''] }, 'platformUsers[0]'],
    ['a user with spaces around', { platformGroups: ['a'], platformUsers: [' bob '] }, 'platformUsers[0]'],
    ['users without protection', { protectTrustLabel: false, platformUsers: ['bob'] }, 'platformUsers'],
    ['a duplicate user', { platformUsers: ['bob', 'bob'] }, 'twice'],
  ])('GIVEN %s WHEN synthesized THEN it is refused', (_t, props, fragment) => {
    expect(() => build(props).synth()).toThrow(fragment);
  });
});
