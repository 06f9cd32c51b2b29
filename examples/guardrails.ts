/**
 * Multi-tenant guardrails and coverage monitoring for the example platform: the platform namespace with Pod Security
 * and trust labels, admission policies that keep host access out of tenant namespaces, and coverage alerts for every
 * node service.
 */

import { Construct } from 'constructs';
import { NodeService, NodeServiceAlerts, NodeServiceGuardrails, NodeServiceNamespace, SystemPriorityClass } from '../src';

/**
 * Adds the platform namespace and admission guardrails to `scope`. The namespace's Pod Security audit/warn level is
 * the strictest level all of `services` (the node services running in it) meet.
 */
export function addGuardrails(scope: Construct, namespace: string, services: NodeService[]): void {
  new NodeServiceNamespace(scope, 'namespace', {
    name: namespace,
    services,
    criticalPriorityClasses: [SystemPriorityClass.SYSTEM_NODE_CRITICAL, SystemPriorityClass.SYSTEM_CLUSTER_CRITICAL],
  });
  new NodeServiceGuardrails(scope, 'admission', {
    contact: '#platform-team',
    platformGroups: ['platform-admins'],
    // The one service account Argo CD applies with, not the whole argocd namespace (system:serviceaccounts:argocd).
    platformUsers: ['system:serviceaccount:argocd:argocd-application-controller'],
    // node-exporter mounts "/" read-only, so a host-path allowlist could not narrow this namespace; the per-kind
    // host-path allowlists are checked at synth instead.
    registryAllowlist: [
      'cr.fluentbit.io/fluent',
      'quay.io/prometheus',
      'docker.io/flannel',
      'public.ecr.aws/ebs-csi-driver',
      'registry.k8s.io/sig-storage',
      'docker.io/falcosecurity',
      'nvcr.io/nvidia/k8s',
      'registry.example.com/platform',
    ],
  });
}

/** Adds coverage alerts for `services` to `scope`. */
export function addAlerts(scope: Construct, services: NodeService[]): void {
  // The log agent's metrics are scraped by a PodMonitor that selects the pods of its stable and canary DaemonSets.
  const targets = services.map((s) =>
    s.name === 'fluent-bit'
      ? {
          name: s.name,
          namespace: s.namespace,
          kind: s.kind,
          podSelector: s.podSelector,
          daemonSetNames: s.daemonSetNames,
          metrics: { port: 'http', path: '/api/v2/metrics/prometheus' },
        }
      : s,
  );
  new NodeServiceAlerts(scope, 'alerts', { services: targets, ruleLabels: { release: 'kube-prometheus-stack' } });
}
