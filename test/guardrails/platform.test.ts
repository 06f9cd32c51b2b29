/**
 * The guardrails composed with a real preset: the platform namespace, the admission policies, a LogAgent and its
 * alerts in one chart. The LogAgent's own DaemonSet and pods must pass the policies in the trusted namespace and be
 * denied anywhere else.
 */

import { Chart, Testing } from 'cdk8s';
import { NodeServiceGuardrails, NodeServicesNamespace } from '../../src/guardrails';
import { NodeServiceAlerts } from '../../src/observability';
import { LogAgent } from '../../src/presets';
import { admit, SimRequest } from './admission-simulator';
import { USERS } from './fixtures';

type Json = any;

function platform() {
  const chart = new Chart(Testing.app(), 'platform', { namespace: 'node-services' });
  new NodeServicesNamespace(chart, 'namespace');
  const logs = new LogAgent(chart, 'logs', { image: 'registry.example.com/fluent/fluent-bit:3.1.9' });
  new NodeServiceGuardrails(chart, 'guardrails', {
    contact: '#platform-team',
    platformGroups: ['platform-admins'],
    registryAllowlist: ['registry.example.com'],
    hostPathAllowlist: ['/var/log', logs.stateDir],
  });
  new NodeServiceAlerts(chart, 'alerts', { services: [logs] });
  return { logs, manifests: Testing.synth(chart) as Json[] };
}

const { logs, manifests } = platform();
const find = (kind: string) => manifests.filter((m) => m.kind === kind);
const daemonSet = find('DaemonSet')[0];
const namespaceObject = find('Namespace')[0];

function request(resource: string, object: Json, namespace: string, labels: Record<string, string>, user = USERS.tenant): SimRequest {
  const apps = resource === 'daemonsets';
  return {
    operation: 'CREATE',
    resource: { group: apps ? 'apps' : '', version: 'v1', resource },
    kind: { group: apps ? 'apps' : '', version: 'v1', kind: apps ? 'DaemonSet' : 'Pod' },
    namespace,
    namespaceLabels: labels,
    object: { ...object, metadata: { ...object.metadata, namespace } },
    oldObject: null,
    user,
  };
}

describe('platform composed of namespace, guardrails, a LogAgent and its alerts', () => {
  test('GIVEN the chart THEN cluster-scoped objects carry no namespace and every object is managed by the library', () => {
    for (const m of manifests) {
      const clusterScoped = [
        'Namespace',
        'ValidatingAdmissionPolicy',
        'ValidatingAdmissionPolicyBinding',
        'ClusterRole',
        'ClusterRoleBinding',
      ].includes(m.kind);
      if (clusterScoped) expect({ kind: m.kind, namespace: m.metadata.namespace }).toEqual({ kind: m.kind, namespace: undefined });
      expect(m.metadata.labels['app.kubernetes.io/managed-by']).toBe('cdk8s-node-services');
    }
  });

  test.each([false, true])(
    'GIVEN the LogAgent DaemonSet in the trusted namespace (API server view: %s) THEN the policies admit it',
    (apiServerView) => {
      const decision = admit(
        manifests,
        request('daemonsets', daemonSet, 'node-services', namespaceObject.metadata.labels, USERS.platform),
        { apiServerView },
      );
      expect(decision.errors).toEqual([]);
      expect(decision.denials).toEqual([]);
      expect(decision.evaluated).toContain('node-services-allowlists/node-services-allowlists');
    },
  );

  test('GIVEN a pod the DaemonSet controller creates from the template THEN it is admitted in the trusted namespace', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `${logs.name}-x7k2p` }, spec: daemonSet.spec.template.spec };
    const decision = admit(manifests, request('pods', pod, 'node-services', namespaceObject.metadata.labels, USERS.daemonSetController), {
      apiServerView: true,
    });
    expect(decision).toMatchObject({ allowed: true, errors: [] });
  });

  test('GIVEN the same DaemonSet in a tenant namespace THEN it is denied for its hostPath volumes', () => {
    const decision = admit(manifests, request('daemonsets', daemonSet, 'team-a', {}));
    expect(decision.errors).toEqual([]);
    expect(decision.allowed).toBe(false);
    expect(decision.denials.map((d) => d.policy)).toContain('node-services-host-access');
    expect(decision.denials.map((d) => d.message).join('\n')).toContain('hostPath volumes');
  });

  test('GIVEN the platform Namespace THEN only the platform group may create it with its trust label', () => {
    const ns = (user: typeof USERS.tenant): SimRequest => ({
      operation: 'CREATE',
      resource: { group: '', version: 'v1', resource: 'namespaces' },
      kind: { group: '', version: 'v1', kind: 'Namespace' },
      object: namespaceObject,
      oldObject: null,
      user,
    });
    expect(admit(manifests, ns(USERS.platform))).toMatchObject({ allowed: true, errors: [] });
    expect(admit(manifests, ns(USERS.tenant))).toMatchObject({ allowed: false, errors: [] });
  });

  test('GIVEN the LogAgent passed to NodeServiceAlerts THEN its alerts watch its DaemonSet and runbooks select its pods', () => {
    const rule = find('PrometheusRule')[0];
    expect(rule.metadata).toMatchObject({ name: `${logs.name}-alerts`, namespace: logs.namespace });
    for (const r of rule.spec.groups[0].rules) {
      expect(r.labels).toMatchObject({ node_service: daemonSet.metadata.name, kind: 'log-agent' });
      if (r.expr.includes('kube_daemonset_')) expect(r.expr).toContain(`daemonset="${daemonSet.metadata.name}"`);
    }
    const used = /-l (\S+)/.exec(rule.spec.groups[0].rules[0].annotations.runbook)?.[1] ?? '';
    // The runbooks list the pods of every DaemonSet of the service (stable and canary) by the labels they share.
    const selected = Object.fromEntries(used.split(',').map((kv) => kv.split('=')));
    expect(selected).toEqual(logs.podSelector);
    for (const [k, v] of Object.entries(selected)) expect([k, daemonSet.spec.template.metadata.labels[k]]).toEqual([k, v]);
  });
});
