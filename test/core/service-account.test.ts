/**
 * A bring-your-own ServiceAccount (`serviceAccount`, a cdk8s-plus IServiceAccount): the pods run as it, the service's
 * RBAC is bound to it and no ServiceAccount of the service's own is created; its namespace must be the service's.
 */
import { Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ApiPermission, ContainerSpec, LogAgent, NodeService, NodeServiceProps } from '../../src';
import { checkManifests } from '../../src/policy';
import { errorOf, only, synth, testChart } from '../support/synth';

const container: ContainerSpec = { name: 'main', image: 'registry.example.com/agent:1.2.3' };
const NS = 'node-services';

function build(chart: Chart, props: (scope: Construct) => Partial<NodeServiceProps>): any[] {
  new NodeService(chart, 'svc', { name: 'agent', containers: [container], ...props(chart) });
  return synth(chart);
}

/** `namespace` null: the service is built in a chart without a namespace. */
function rejected(props: (scope: Construct) => Partial<NodeServiceProps>, namespace: string | null): string {
  return errorOf((scope) => {
    const chart = namespace ? new Chart(scope, 'ns', { namespace }) : scope;
    new NodeService(chart, 'svc', { name: 'agent', containers: [container], ...props(chart) });
  });
}

test('the pods run as a ServiceAccount the app defines, and no other is created', () => {
  const objects = build(testChart(NS), (scope) => ({
    serviceAccount: new kplus.ServiceAccount(scope, 'sa', { metadata: { name: 'shipper' } }),
  }));
  expect(only(objects, 'DaemonSet').spec.template.spec.serviceAccountName).toBe('shipper');
  expect(only(objects, 'ServiceAccount').metadata).toMatchObject({ name: 'shipper', namespace: NS });
});

test('with apiAccess the ClusterRole is bound to the brought ServiceAccount', () => {
  const objects = build(testChart(NS), (scope) => ({
    serviceAccount: kplus.ServiceAccount.fromServiceAccountName(scope, 'sa', 'platform-agent', { namespaceName: NS }),
    apiAccess: [ApiPermission.read(['pods'])],
  }));
  expect(objects.filter((o) => o.kind === 'ServiceAccount')).toEqual([]);
  const binding = only(objects, 'ClusterRoleBinding');
  expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'platform-agent', namespace: NS }]);
  expect(only(objects, 'ClusterRole').rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }]);
  const ds = only(objects, 'DaemonSet');
  expect(ds.spec.template.spec.serviceAccountName).toBe('platform-agent');
  expect(ds.spec.template.spec.automountServiceAccountToken).toBe(true);
  expect(checkManifests(objects).errorCount).toBe(0);
});

test('every preset takes it: a log agent bound to the platform ServiceAccount', () => {
  const chart = testChart(NS);
  new LogAgent(chart, 'logs', {
    image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
    serviceAccount: kplus.ServiceAccount.fromServiceAccountName(chart, 'sa', 'logging', { namespaceName: NS }),
  });
  const objects = synth(chart);
  expect(objects.filter((o) => o.kind === 'ServiceAccount')).toEqual([]);
  expect(only(objects, 'ClusterRoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'logging', namespace: NS }]);
  expect(only(objects, 'DaemonSet').spec.template.spec.serviceAccountName).toBe('logging');
});

test.each<[string, (scope: Construct) => Partial<NodeServiceProps>, string | null, string[]]>([
  [
    'an imported ServiceAccount of another namespace',
    (scope) => ({ serviceAccount: kplus.ServiceAccount.fromServiceAccountName(scope, 'sa', 'shipper') }),
    NS,
    ['serviceAccount', '"default/shipper"', 'is in namespace "default"', 'namespaceName: "node-services"'],
  ],
  [
    'an app-defined ServiceAccount in another namespace',
    (scope) => ({ serviceAccount: new kplus.ServiceAccount(scope, 'sa', { metadata: { name: 'shipper', namespace: 'logging' } }) }),
    NS,
    ['is in namespace "logging"', 'runs in "node-services"'],
  ],
  [
    'an app-defined ServiceAccount without a namespace',
    (scope) => ({ serviceAccount: new kplus.ServiceAccount(scope, 'sa', { metadata: { name: 'shipper' } }) }),
    null,
    ['has no namespace', 'metadata: { namespace: "node-services" }'],
  ],
  [
    'both serviceAccount and serviceAccountName',
    (scope) => ({
      serviceAccount: kplus.ServiceAccount.fromServiceAccountName(scope, 'sa', 'shipper', { namespaceName: NS }),
      serviceAccountName: 'other',
    }),
    NS,
    ['serviceAccountName', 'cannot be combined with serviceAccount'],
  ],
  [
    'a name instead of a ServiceAccount',
    () => ({ serviceAccount: 'shipper' as any }),
    NS,
    ['serviceAccount', 'must be an object (IServiceAccount', '"shipper"'],
  ],
  [
    'an object that is not an IServiceAccount',
    () => ({ serviceAccount: { name: 'shipper', toSubjectConfiguration: 1 } as any }),
    NS,
    ['serviceAccount', 'must be a cdk8s-plus IServiceAccount', 'kplus.ServiceAccount.fromServiceAccountName'],
  ],
  [
    'an invalid ServiceAccount name',
    (scope) => ({ serviceAccount: kplus.ServiceAccount.fromServiceAccountName(scope, 'sa', 'Shipper_1', { namespaceName: NS }) }),
    NS,
    ['serviceAccount.name', '"Shipper_1"'],
  ],
])('%s is refused', (_name, props, namespace, expected) => {
  const message = rejected(props, namespace);
  for (const text of expected) expect(message).toContain(text);
});
