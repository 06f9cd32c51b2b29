import { Chart, Testing } from 'cdk8s';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { ResourceQuota } from 'kubernetes-models/v1/ResourceQuota';
import {
  DEFAULT_CRITICAL_PODS_LIMIT,
  NodeServicesNamespace,
  NodeServicesNamespaceProps,
  PodSecurityLevel,
  SystemPriorityClass,
  TRUST_LABEL_KEY,
  TRUST_LABEL_VALUE,
} from '../../src/guardrails';
import { validate } from './schema-dsl';
import { metadata } from './schema-dsl';

type Json = any;

function synth(props?: NodeServicesNamespaceProps, chartNamespace: string | undefined = 'platform'): Json[] {
  const chart = new Chart(Testing.app(), 'c', chartNamespace ? { namespace: chartNamespace } : {});
  new NodeServicesNamespace(chart, 'ns', props);
  return Testing.synth(chart);
}

function errorOf(props: NodeServicesNamespaceProps): string {
  try {
    synth(props);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the construct to reject the props');
}

describe('NodeServicesNamespace', () => {
  test('GIVEN defaults in a chart with another namespace WHEN synthesized THEN one Namespace node-services without metadata.namespace', () => {
    const manifests = synth();
    expect(manifests).toHaveLength(1);
    const [ns] = manifests;
    expect(ns.kind).toBe('Namespace');
    expect(ns.metadata.name).toBe('node-services');
    expect(ns.metadata.namespace).toBeUndefined();
    expect(validate(metadata(false), ns.metadata)).toEqual([]);
    expect(manifests).toMatchSnapshot();
  });

  test('GIVEN defaults THEN enforce is privileged, audit and warn are baseline, all pinned to v1.28, and the namespace is trusted', () => {
    const labels = synth()[0].metadata.labels;
    expect(labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'privileged',
      'pod-security.kubernetes.io/enforce-version': 'v1.28',
      'pod-security.kubernetes.io/audit': 'baseline',
      'pod-security.kubernetes.io/audit-version': 'v1.28',
      'pod-security.kubernetes.io/warn': 'baseline',
      'pod-security.kubernetes.io/warn-version': 'v1.28',
      [TRUST_LABEL_KEY]: TRUST_LABEL_VALUE,
    });
    expect(TRUST_LABEL_KEY).toBe('node-services.cdk8s.io/trusted');
    expect(TRUST_LABEL_VALUE).toBe('true');
  });

  test('GIVEN defaults THEN the recommended labels are set with managed-by cdk8s-node-services', () => {
    expect(synth()[0].metadata.labels).toMatchObject({
      'app.kubernetes.io/name': 'node-services',
      'app.kubernetes.io/instance': 'node-services',
      'app.kubernetes.io/component': 'namespace',
      'app.kubernetes.io/part-of': 'node-services',
      'app.kubernetes.io/managed-by': 'cdk8s-node-services',
    });
  });

  test('GIVEN podSecurityLevel RESTRICTED and version v1.30 THEN audit/warn follow while enforce stays privileged', () => {
    const labels = synth({ podSecurityLevel: PodSecurityLevel.RESTRICTED, podSecurityVersion: 'v1.30' })[0].metadata.labels;
    expect(labels['pod-security.kubernetes.io/enforce']).toBe('privileged');
    expect(labels['pod-security.kubernetes.io/warn']).toBe('restricted');
    expect(labels['pod-security.kubernetes.io/audit']).toBe('restricted');
    expect(labels['pod-security.kubernetes.io/warn-version']).toBe('v1.30');
  });

  test('GIVEN trusted false, extra labels and annotations THEN no trust label, extras kept', () => {
    const ns = synth({
      name: 'edge-agents',
      trusted: false,
      labels: { team: 'edge' },
      annotations: { 'example.com/owner': 'edge-team' },
    })[0];
    expect(ns.metadata.labels[TRUST_LABEL_KEY]).toBeUndefined();
    expect(ns.metadata.labels.team).toBe('edge');
    expect(ns.metadata.annotations).toEqual({ 'example.com/owner': 'edge-team' });
  });

  test('GIVEN criticalPriorityClasses WHEN synthesized THEN a ResourceQuota scoped to those classes is emitted in the namespace', () => {
    const manifests = synth({
      criticalPriorityClasses: [SystemPriorityClass.SYSTEM_NODE_CRITICAL, SystemPriorityClass.SYSTEM_CLUSTER_CRITICAL],
    });
    expect(manifests.map((m) => m.kind)).toEqual(['Namespace', 'ResourceQuota']);
    const quota = manifests[1];
    expect(quota.metadata).toMatchObject({ name: 'critical-pods', namespace: 'node-services' });
    expect(quota.spec).toEqual({
      hard: { pods: String(DEFAULT_CRITICAL_PODS_LIMIT) },
      scopeSelector: {
        matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['system-node-critical', 'system-cluster-critical'] }],
      },
    });
    expect(quota.metadata.labels['app.kubernetes.io/managed-by']).toBe('cdk8s-node-services');
    expect(manifests).toMatchSnapshot();
  });

  test('GIVEN a custom criticalPodsLimit THEN hard.pods uses it', () => {
    const quota = synth({ criticalPriorityClasses: [SystemPriorityClass.SYSTEM_NODE_CRITICAL], criticalPodsLimit: 50000 })[1];
    expect(quota.spec.hard.pods).toBe('50000');
  });

  test('GIVEN every variant WHEN validated with kubernetes-models THEN Namespace and ResourceQuota are valid', () => {
    const all = [
      ...synth(),
      ...synth(
        { criticalPriorityClasses: [SystemPriorityClass.SYSTEM_NODE_CRITICAL], podSecurityLevel: PodSecurityLevel.PRIVILEGED },
        undefined,
      ),
      ...synth({ name: 'kube-system', trusted: false }),
    ];
    for (const m of all) {
      const model = m.kind === 'Namespace' ? new Namespace(m) : new ResourceQuota(m);
      expect(() => model.validate()).not.toThrow();
    }
  });

  test('GIVEN kubernetes-models WHEN the quota is broken THEN it does throw (the check above can fail)', () => {
    const quota = synth({ criticalPriorityClasses: [SystemPriorityClass.SYSTEM_NODE_CRITICAL] })[1];
    expect(() => new ResourceQuota({ ...quota, spec: { ...quota.spec, hard: { pods: 'many' } } }).validate()).toThrow(/quantity/);
  });

  test.each<[string, NodeServicesNamespaceProps, string[]]>([
    ['default namespace', { name: 'default' }, ['name = "default"', 'node-services']],
    ['kube- prefix', { name: 'kube-agents' }, ['name = "kube-agents"', 'reserved']],
    ['not a DNS label', { name: 'Node_Services' }, ['name = "Node_Services"', 'DNS-1123']],
    ['unpinned version', { podSecurityVersion: 'latest' }, ['podSecurityVersion = "latest"', 'v1.28']],
    ['malformed version', { podSecurityVersion: '1.28' }, ['podSecurityVersion = "1.28"']],
    ['unknown level', { podSecurityLevel: 'strict' as PodSecurityLevel }, ['podSecurityLevel = "strict"', 'BASELINE']],
    [
      'unknown priority class',
      { criticalPriorityClasses: ['high' as SystemPriorityClass] },
      ['criticalPriorityClasses[0] = "high"', 'SYSTEM_NODE_CRITICAL'],
    ],
    [
      'duplicate priority class',
      { criticalPriorityClasses: [SystemPriorityClass.SYSTEM_NODE_CRITICAL, SystemPriorityClass.SYSTEM_NODE_CRITICAL] },
      ['criticalPriorityClasses', 'twice'],
    ],
    [
      'quota in kube-system',
      { name: 'kube-system', criticalPriorityClasses: [SystemPriorityClass.SYSTEM_NODE_CRITICAL] },
      ['criticalPriorityClasses', 'kube-system'],
    ],
    [
      'zero limit',
      { criticalPriorityClasses: [SystemPriorityClass.SYSTEM_NODE_CRITICAL], criticalPodsLimit: 0 },
      ['criticalPodsLimit = 0', 'positive'],
    ],
    ['limit without classes', { criticalPodsLimit: 10 }, ['criticalPodsLimit = 10', 'no effect']],
    [
      'Pod Security label given directly',
      { labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } },
      ['pod-security.kubernetes.io/enforce', 'podSecurityLevel'],
    ],
    ['trust label given directly', { labels: { [TRUST_LABEL_KEY]: 'true' } }, [TRUST_LABEL_KEY, 'trusted prop']],
    ['bad label value', { labels: { team: 'not valid!' } }, ['labels["team"]', 'not valid!']],
    ['bad partOf', { partOf: 'x'.repeat(64) }, ['partOf', '63']],
  ])('GIVEN %s WHEN constructed THEN it throws naming the construct path, field, value and fix', (_t, props, fragments) => {
    const message = errorOf(props);
    expect(message).toContain('[c/ns]');
    expect(message).toContain('Fix:');
    for (const f of fragments) expect(message).toContain(f);
  });
});
