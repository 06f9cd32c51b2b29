import { Chart, Testing } from 'cdk8s';
import { KubernetesVersion } from '../../src/k8s/api-fields';
import { NodeServiceChecks } from '../../src/policy/synth';
import {
  AdmissionFailurePolicy,
  AdmissionPolicyApiVersion,
  NodeServiceGuardrails,
  NodeServiceGuardrailsProps,
  PodSecurityLevel,
  TRUST_LABEL_KEY,
  ValidationAction,
} from '../../src/guardrails';
import { validateBinding, validatePolicy } from './admission-schema';
import { evaluate } from './admission-simulator';
import { celProblems, comprehensionDepth, policyExpressions } from './cel-lint';
import { CORPUS_PROPS, synthGuardrails } from './fixtures';

type Json = any;

const policiesOf = (manifests: Json[]) => manifests.filter((m) => m.kind === 'ValidatingAdmissionPolicy');
const bindingsOf = (manifests: Json[]) => manifests.filter((m) => m.kind === 'ValidatingAdmissionPolicyBinding');
const byName = (manifests: Json[], kind: string, name: string) => manifests.find((m) => m.kind === kind && m.metadata.name === name);

function build(props: Partial<NodeServiceGuardrailsProps>, chartNamespace?: string, kubernetesVersion?: KubernetesVersion): Json[] {
  const app = Testing.app();
  if (kubernetesVersion) NodeServiceChecks.of(app, { kubernetesVersion });
  const chart = new Chart(app, 'c', chartNamespace ? { namespace: chartNamespace } : {});
  new NodeServiceGuardrails(chart, 'guardrails', props as NodeServiceGuardrailsProps);
  return Testing.synth(chart);
}

function errorOf(props: unknown): string {
  try {
    build(props as NodeServiceGuardrailsProps);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the construct to reject the props');
}

describe('NodeServiceGuardrails output', () => {
  const manifests = synthGuardrails();

  test('GIVEN allowlists and platform groups WHEN synthesized THEN it emits four policies, each with one binding of the same name', () => {
    expect(policiesOf(manifests).map((p) => p.metadata.name)).toEqual([
      'node-services-trust-label',
      'node-services-host-access',
      'node-services-tenant-pod-security',
      'node-services-allowlists',
    ]);
    expect(bindingsOf(manifests).map((b) => [b.metadata.name, b.spec.policyName])).toEqual(
      policiesOf(manifests).map((p) => [p.metadata.name, p.metadata.name]),
    );
    expect(manifests).toMatchSnapshot();
  });

  test('GIVEN a chart with a namespace WHEN synthesized THEN no cluster-scoped policy or binding carries metadata.namespace', () => {
    for (const m of manifests) expect(m.metadata.namespace).toBeUndefined();
  });

  test('GIVEN the default apiVersion THEN objects are admissionregistration.k8s.io/v1beta1 (Kubernetes 1.28)', () => {
    for (const m of manifests) expect(m.apiVersion).toBe('admissionregistration.k8s.io/v1beta1');
  });

  test('WHEN synthesized THEN every object carries the recommended labels', () => {
    for (const m of manifests) {
      expect(m.metadata.labels).toMatchObject({
        'app.kubernetes.io/name': 'node-service-guardrails',
        'app.kubernetes.io/instance': 'node-services',
        'app.kubernetes.io/part-of': 'node-services',
        'app.kubernetes.io/managed-by': 'cdk8s-node-services',
      });
      expect(m.metadata.labels['app.kubernetes.io/component']).toBe(
        m.kind === 'ValidatingAdmissionPolicy' ? 'admission-policy' : 'admission-policy-binding',
      );
    }
  });

  test('WHEN synthesized THEN every policy and binding passes the structural schema', () => {
    for (const p of policiesOf(manifests)) expect(validatePolicy(p)).toEqual([]);
    for (const b of bindingsOf(manifests)) expect(validateBinding(b)).toEqual([]);
  });

  test('GIVEN the untrusted-namespace bindings THEN they select namespaces without trust label value "true", except kube-system', () => {
    for (const name of ['node-services-host-access', 'node-services-tenant-pod-security']) {
      expect(byName(manifests, 'ValidatingAdmissionPolicyBinding', name).spec.matchResources.namespaceSelector).toEqual({
        matchExpressions: [
          { key: TRUST_LABEL_KEY, operator: 'NotIn', values: ['true'] },
          { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] },
        ],
      });
    }
    for (const name of ['node-services-allowlists']) {
      expect(byName(manifests, 'ValidatingAdmissionPolicyBinding', name).spec.matchResources.namespaceSelector).toEqual({
        matchLabels: { [TRUST_LABEL_KEY]: 'true' },
      });
    }
  });

  test('GIVEN the trust-label binding THEN it has no namespace selector (a selector would see the new labels and miss the change)', () => {
    expect(byName(manifests, 'ValidatingAdmissionPolicyBinding', 'node-services-trust-label').spec.matchResources).toBeUndefined();
  });

  test('GIVEN the workload policies THEN they match Pods (with the ephemeralcontainers subresource used by kubectl debug) and every controller with a pod template', () => {
    for (const name of ['node-services-host-access', 'node-services-tenant-pod-security', 'node-services-allowlists']) {
      expect(byName(manifests, 'ValidatingAdmissionPolicy', name).spec.matchConstraints.resourceRules).toEqual([
        {
          apiGroups: [''],
          apiVersions: ['v1'],
          resources: ['pods', 'pods/ephemeralcontainers', 'replicationcontrollers'],
          operations: ['CREATE', 'UPDATE'],
        },
        {
          apiGroups: ['apps'],
          apiVersions: ['v1'],
          resources: ['daemonsets', 'deployments', 'replicasets', 'statefulsets'],
          operations: ['CREATE', 'UPDATE'],
        },
        { apiGroups: ['batch'], apiVersions: ['v1'], resources: ['cronjobs', 'jobs'], operations: ['CREATE', 'UPDATE'] },
      ]);
    }
  });

  test('GIVEN the trust-label policy THEN it matches namespaces and every namespace subresource, always denies and fails closed', () => {
    const policy = byName(manifests, 'ValidatingAdmissionPolicy', 'node-services-trust-label');
    expect(policy.spec.matchConstraints.resourceRules).toEqual([
      { apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces', 'namespaces/*'], operations: ['CREATE', 'UPDATE'] },
    ]);
    expect(policy.spec.failurePolicy).toBe('Fail');
    expect(byName(manifests, 'ValidatingAdmissionPolicyBinding', 'node-services-trust-label').spec.validationActions).toEqual(['Deny']);
  });

  test('GIVEN every CEL expression emitted for v1beta1 THEN none uses optional syntax or a function newer than Kubernetes 1.28', () => {
    const expressions = policiesOf(manifests).flatMap(policyExpressions);
    expect(expressions.length).toBeGreaterThan(40);
    for (const e of expressions) expect({ where: e.where, problems: celProblems(e.expression) }).toEqual({ where: e.where, problems: [] });
  });

  test('GIVEN restricted tenants, extra volume types, platform users and dryRun THEN their CEL is also valid for Kubernetes 1.28', () => {
    const variant = build({
      ...CORPUS_PROPS,
      tenantPodSecurity: PodSecurityLevel.RESTRICTED,
      allowedTenantVolumeTypes: ['nfs'],
      dryRun: true,
    });
    const expressions = policiesOf(variant).flatMap(policyExpressions);
    expect(expressions.length).toBeGreaterThan(60);
    for (const e of expressions) expect({ where: e.where, problems: celProblems(e.expression) }).toEqual({ where: e.where, problems: [] });
    for (const p of policiesOf(variant)) expect(validatePolicy(p)).toEqual([]);
    for (const b of bindingsOf(variant)) expect(validateBinding(b)).toEqual([]);
  });

  test('GIVEN every CEL expression THEN comprehensions over the object nest at most two deep (containers × ports), so cost stays linear in what a pod declares', () => {
    const expressions = policiesOf(manifests).flatMap(policyExpressions);
    const depths = expressions.map((e) => ({ where: e.where, depth: comprehensionDepth(e.expression) }));
    for (const d of depths) expect(d.depth).toBeLessThanOrEqual(2);
    expect(Math.max(...depths.map((d) => d.depth))).toBe(2);
    expect(comprehensionDepth('[1, 2].exists(x, x == 1)')).toBe(0);
    expect(comprehensionDepth('object.a.filter(c, c.b.exists(p, p.c.all(q, q)))')).toBe(3);
  });

  test('GIVEN every validation THEN its expression is not a bare variable (1.28 rejects it as not boolean) and its message has no line break', () => {
    for (const p of policiesOf(manifests)) {
      for (const v of p.spec.validations) {
        expect(v.expression).not.toMatch(/^\s*variables\.[A-Za-z_]\w*\s*$/);
        expect(v.message).not.toMatch(/[\r\n]/);
        expect(v.message).toContain('#platform-team');
        expect(v.messageExpression).toContain('#platform-team');
      }
    }
  });

  test('GIVEN a CEL checker WHEN it sees optional syntax or a newer function THEN it reports it (the check above can fail)', () => {
    expect(celProblems('object.spec.?hostNetwork.orValue(false) == false')).not.toEqual([]);
    expect(celProblems("quantity('1Gi').isGreaterThan(quantity('1Mi'))")).toEqual(
      expect.arrayContaining([expect.stringContaining('quantity')]),
    );
    expect(celProblems("'a'.format([])")).toEqual(expect.arrayContaining([expect.stringContaining('format')]));
    expect(celProblems("has(object.spec) && 'x'.split('/').join(',') == 'x'")).toEqual([]);
  });

  test('GIVEN the messages THEN each expression evaluates to a string on a denied object (type of messageExpression)', () => {
    // Denied by every validation of the DaemonSet host-access policy at once.
    const object = {
      metadata: { name: 'bad' },
      spec: {
        template: {
          spec: {
            hostNetwork: true,
            containers: [
              {
                name: 'a',
                image: 'x',
                securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] } },
                ports: [{ containerPort: 1n, hostPort: 1n }],
              },
            ],
            volumes: [{ name: 'h', hostPath: { path: '/' } }],
          },
        },
      },
    };
    const policy = byName(manifests, 'ValidatingAdmissionPolicy', 'node-services-host-access');
    const variables: Record<string, unknown> = {};
    const request = { namespace: 'team-a', kind: { kind: 'DaemonSet' }, resource: { resource: 'daemonsets' } };
    const scope = { object, oldObject: null, request, params: null, namespaceObject: null, variables };
    for (const v of policy.spec.variables) variables[v.name] = evaluate(v.expression, scope);
    for (const v of policy.spec.validations) {
      expect(evaluate(v.expression, scope)).toBe(false);
      expect(typeof evaluate(v.messageExpression, scope)).toBe('string');
    }
  });
});

describe('NodeServiceGuardrails options', () => {
  test('GIVEN apiVersion V1 WHEN synthesized THEN the same policies are emitted as admissionregistration.k8s.io/v1 and pass the schema', () => {
    const v1 = build({ ...CORPUS_PROPS, apiVersion: AdmissionPolicyApiVersion.V1 }, 'node-services', KubernetesVersion.V1_30);
    const beta = synthGuardrails();
    expect(v1.map((m) => m.apiVersion)).toEqual(beta.map(() => 'admissionregistration.k8s.io/v1'));
    expect(v1.map(({ apiVersion: _a, ...rest }) => rest)).toEqual(beta.map(({ apiVersion: _a, ...rest }) => rest));
    for (const p of policiesOf(v1)) expect(validatePolicy(p)).toEqual([]);
    for (const b of bindingsOf(v1)) expect(validateBinding(b)).toEqual([]);
    for (const m of v1) expect(m.metadata.namespace).toBeUndefined();
  });

  test('GIVEN dryRun WHEN synthesized THEN every binding uses [Warn, Audit], except the trust label which still denies', () => {
    const manifests = build({ ...CORPUS_PROPS, dryRun: true });
    for (const b of bindingsOf(manifests)) {
      expect(b.spec.validationActions).toEqual(b.metadata.name === 'node-services-trust-label' ? ['Deny', 'Audit'] : ['Warn', 'Audit']);
    }
  });

  test('GIVEN validationActions [DENY, AUDIT] and failurePolicy IGNORE THEN bindings and policies carry them', () => {
    const manifests = build({
      ...CORPUS_PROPS,
      validationActions: [ValidationAction.DENY, ValidationAction.AUDIT],
      failurePolicy: AdmissionFailurePolicy.IGNORE,
    });
    for (const b of bindingsOf(manifests)) expect(b.spec.validationActions).toEqual(['Deny', 'Audit']);
    // The trust label fails closed whatever the other policies do.
    for (const p of policiesOf(manifests))
      expect(p.spec.failurePolicy).toBe(p.metadata.name === 'node-services-trust-label' ? 'Fail' : 'Ignore');
  });

  test('GIVEN no allowlists and protectTrustLabel false THEN only the host-access and tenant Pod Security policies are emitted', () => {
    const manifests = build({ contact: '#platform', protectTrustLabel: false });
    expect(policiesOf(manifests).map((p) => p.metadata.name)).toEqual(['node-services-host-access', 'node-services-tenant-pod-security']);
  });

  test('GIVEN only a registry allowlist THEN the allowlist policies check images only', () => {
    const manifests = build({ contact: '#platform', platformGroups: ['admins'], registryAllowlist: ['registry.example.com/'] });
    const policy = byName(manifests, 'ValidatingAdmissionPolicy', 'node-services-allowlists');
    expect(policy.spec.validations.map((v: Json) => v.expression)).toEqual(['size(variables.deniedImages) == 0']);
    // The trailing '/' is normalised away, so the boundary check adds exactly one.
    expect(policy.spec.variables.find((v: Json) => v.name === 'deniedImages').expression).toContain("['registry.example.com']");
  });

  test('GIVEN no exempt namespaces THEN the untrusted selector only tests the trust label', () => {
    const manifests = build({ contact: '#platform', protectTrustLabel: false, exemptNamespaces: [] });
    expect(bindingsOf(manifests)[0].spec.matchResources.namespaceSelector.matchExpressions).toEqual([
      { key: TRUST_LABEL_KEY, operator: 'NotIn', values: ['true'] },
    ]);
  });

  test('GIVEN a name and partOf THEN policy names and labels follow them', () => {
    const manifests = build({ contact: '#platform', protectTrustLabel: false, name: 'edge', partOf: 'edge-platform' });
    expect(policiesOf(manifests).map((p) => p.metadata.name)).toEqual(['edge-host-access', 'edge-tenant-pod-security']);
    expect(manifests[0].metadata.labels['app.kubernetes.io/part-of']).toBe('edge-platform');
    expect(manifests[0].metadata.labels['app.kubernetes.io/instance']).toBe('edge');
  });

  test('GIVEN a contact with quotes and backslashes THEN the CEL literals stay valid and the message quotes it verbatim', () => {
    const contact = "O'Brien \\ #ops";
    const manifests = build({ contact, protectTrustLabel: false });
    const policy = policiesOf(manifests)[0];
    for (const e of policyExpressions(policy)) expect(celProblems(e.expression)).toEqual([]);
    const message = evaluate(policy.spec.validations[0].messageExpression, {
      object: { metadata: { name: 'x' } },
      request: { namespace: 'team-a', kind: { kind: 'Pod' } },
      variables: { hostPathVolumes: ['h'] },
    });
    expect(message).toContain(contact);
  });
});

describe('NodeServiceGuardrails prop errors', () => {
  const base: NodeServiceGuardrailsProps = { contact: '#platform-team', platformGroups: ['platform-admins'] };

  test.each<[string, Partial<NodeServiceGuardrailsProps> | undefined, string[]]>([
    ['missing contact', { ...base, contact: undefined as unknown as string }, ['contact', 'is required', '#platform-team']],
    ['multi-line contact', { ...base, contact: 'line1\nline2' }, ['contact', 'line breaks']],
    ['name not a DNS label', { ...base, name: 'Node_Services' }, ['name = "Node_Services"', 'DNS-1123']],
    ['protected label without groups', { contact: '#p' }, ['platformGroups', 'protectTrustLabel', 'platform-admins']],
    ['empty group name', { ...base, platformGroups: [''] }, ['platformGroups[0]', 'non-empty']],
    ['groups without protection', { ...base, protectTrustLabel: false }, ['platformGroups', 'no effect']],
    ['registry without host', { ...base, registryAllowlist: ['bitnami'] }, ['registryAllowlist[0] = "bitnami"', 'docker.io/bitnami']],
    [
      'registry with a tag',
      { ...base, registryAllowlist: ['registry.example.com/x:1.0'] },
      ['registryAllowlist[0]', 'without tag or digest'],
    ],
    ['empty registry allowlist', { ...base, registryAllowlist: [] }, ['registryAllowlist', 'deny every image']],
    ['duplicate registry', { ...base, registryAllowlist: ['ghcr.io/a', 'ghcr.io/a/'] }, ['registryAllowlist', 'twice']],
    ['relative host path', { ...base, hostPathAllowlist: ['var/log'] }, ['hostPathAllowlist[0] = "var/log"', 'absolute']],
    ['host path with ..', { ...base, hostPathAllowlist: ['/var/log/../etc'] }, ['hostPathAllowlist[0]', "'..'"]],
    ['empty host path allowlist', { ...base, hostPathAllowlist: [] }, ['hostPathAllowlist', 'deny every hostPath']],
    ['exempt namespace not a label', { ...base, exemptNamespaces: ['Kube_System'] }, ['exemptNamespaces[0]', 'DNS-1123']],
    [
      'Deny with Warn',
      { ...base, validationActions: [ValidationAction.DENY, ValidationAction.WARN] },
      ['validationActions', 'Deny and Warn', 'dryRun'],
    ],
    ['no actions', { ...base, validationActions: [] }, ['validationActions', 'at least one']],
    ['duplicate action', { ...base, validationActions: [ValidationAction.AUDIT, ValidationAction.AUDIT] }, ['validationActions', 'twice']],
    [
      'unknown action',
      { ...base, validationActions: ['Block' as ValidationAction] },
      ['validationActions[0] = "Block"', 'ValidationAction.DENY'],
    ],
    ['dryRun with actions', { ...base, dryRun: true, validationActions: [ValidationAction.DENY] }, ['dryRun', 'validationActions']],
    [
      'unknown apiVersion',
      { ...base, apiVersion: 'admissionregistration.k8s.io/v1alpha1' as AdmissionPolicyApiVersion },
      ['apiVersion', 'V1BETA1'],
    ],
    ['unknown failure policy', { ...base, failurePolicy: 'Retry' as AdmissionFailurePolicy }, ['failurePolicy = "Retry"', 'FAIL']],
    ['bad partOf', { ...base, partOf: '-bad-' }, ['partOf = "-bad-"']],
    ['logger without log()', { ...base, logger: {} as NodeServiceGuardrailsProps['logger'] }, ['logger', 'log(message)', 'PolicyLoggers']],
    [
      'platform group of all service accounts',
      { ...base, platformGroups: ['system:serviceaccounts'] },
      ['platformGroups[0] = "system:serviceaccounts"', 'platformUsers'],
    ],
    ['platformUsers not a list', { ...base, platformUsers: 'bob' as unknown as string[] }, ['platformUsers = "bob"', 'must be a list']],
    [
      'tenantPodSecurity unknown',
      { ...base, tenantPodSecurity: 'strict' as PodSecurityLevel },
      ['tenantPodSecurity = "strict"', 'RESTRICTED'],
    ],
    [
      'allowedTenantVolumeTypes not a list',
      { ...base, allowedTenantVolumeTypes: 'nfs' as unknown as string[] },
      ['allowedTenantVolumeTypes = "nfs"'],
    ],
    ['no props', undefined, ['props', 'contact']],
  ])('GIVEN %s WHEN constructed THEN it throws naming the construct path, field, value and fix', (_title, props, fragments) => {
    const message = errorOf(props);
    expect(message).toContain('[c/guardrails]');
    expect(message).toContain('Fix:');
    for (const f of fragments) expect(message).toContain(f);
  });

  test('GIVEN several bad props WHEN constructed THEN every problem is reported at once', () => {
    const message = errorOf({ contact: '', registryAllowlist: ['bitnami'], validationActions: [] });
    expect(message).toMatch(/invalid props \(4 problems\)/);
  });
});
