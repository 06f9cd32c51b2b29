/**
 * One namespace rule for every construct that names a namespace (`k8s/namespaces.ts`): node services and the
 * NodeServicesNamespace refuse `default` with the same words; only the namespace construct refuses to create a
 * reserved `kube-` name (vendors run node agents in existing ones such as `kube-flannel`).
 */

import { Construct } from 'constructs';
import { NodeService, NodeServicesNamespace } from '../../src';
import { errorOf, only, synth, testChart } from '../support/synth';

const containers = [{ name: 'agent', image: 'registry.example.com/agent:1.2.3' }];

function serviceError(namespace: string): string {
  return errorOf((scope: Construct) => {
    new NodeService(scope, 'svc', { name: 'agent', namespace, containers });
  });
}

function namespaceError(name: string): string {
  return errorOf((scope: Construct) => {
    new NodeServicesNamespace(scope, 'ns', { name });
  });
}

describe('namespace rule', () => {
  test('GIVEN a node service in default WHEN synthesized THEN it is refused with the rule the namespace construct uses', () => {
    const words = 'must not share the default namespace with ordinary workloads';
    const service = serviceError('default');
    expect(service).toContain('namespace = "default"');
    expect(service).toContain(words);
    expect(namespaceError('default')).toContain(words);
  });

  test.each(['kube-system', 'kube-flannel'])('GIVEN a node service in %s WHEN synthesized THEN it runs there', (ns) => {
    const chart = testChart();
    new NodeService(chart, 'svc', { name: 'agent', namespace: ns, containers });
    expect(only(synth(chart), 'DaemonSet').metadata.namespace).toBe(ns);
  });

  test('GIVEN a NodeServicesNamespace named kube-flannel WHEN synthesized THEN creating it is refused', () => {
    expect(namespaceError('kube-flannel')).toContain('the kube- prefix is reserved for Kubernetes system namespaces');
  });
});
