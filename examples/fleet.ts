/**
 * A fleet of three clusters built by the same program as the example platform: a production cluster with a GPU pool
 * (Kubernetes 1.28), an application cluster on Kubernetes 1.30 and an edge site with small nodes. The node services
 * are declared once and built per cluster from its facts (pools, version, size); each cluster is verified at synth
 * like a single-cluster app and written to `dist/clusters/<name>/`; an Argo CD ApplicationSet in `dist/gitops/` rolls
 * them out wave by wave (the 1.30 cluster first, the edge last).
 */

import { Construct } from 'constructs';
import {
  Fleet,
  FleetCluster,
  FleetClusterOptions,
  GitOps,
  GpuMonitor,
  KubernetesVersion,
  LogAgent,
  MonitoringAgent,
  NodeBudget,
  NodePool,
  NodeService,
  NodeServiceAlerts,
  NodeServiceGuardrails,
  NodeServiceNamespace,
  Taint,
} from '../src';

/** The namespace of the fleet's node services. */
export const FLEET_NAMESPACE = 'node-services';

/** The fleet's clusters. */
export const FLEET_CLUSTERS: FleetClusterOptions[] = [
  {
    name: 'apps-us',
    kubernetesVersion: KubernetesVersion.V1_30,
    labels: { region: 'us-east-1', environment: 'staging' },
    wave: 0,
    pools: [
      NodePool.of({ name: 'general', labels: { 'node.example.com/pool': 'general' }, allocatable: { cpu: '4', memory: '16Gi' } }),
      NodePool.controlPlane(),
    ],
  },
  {
    name: 'prod-eu',
    kubernetesVersion: KubernetesVersion.V1_28,
    labels: { region: 'eu-west-1', environment: 'production', accelerators: 'nvidia' },
    wave: 1,
    pools: [
      NodePool.of({ name: 'general', labels: { 'node.example.com/pool': 'general' }, allocatable: { cpu: '8', memory: '32Gi' } }),
      NodePool.gpu(),
      NodePool.controlPlane(),
    ],
  },
  {
    name: 'edge-eu',
    kubernetesVersion: KubernetesVersion.V1_28,
    labels: { region: 'eu-west-1', environment: 'production', site: 'edge' },
    wave: 2,
    pools: [
      // Small nodes in remote sites: the node services may take at most a fifth of them together.
      NodePool.of({
        name: 'edge',
        labels: { 'node-role.kubernetes.io/edge': '' },
        taints: [Taint.noSchedule('node-role.kubernetes.io/edge')],
        allocatable: { cpu: '2', memory: '4Gi' },
        budget: NodeBudget.of({ cpuPercent: 20, memoryPercent: 20 }),
      }),
    ],
  },
];

/** Builds the example fleet (written to `<outdir>/clusters/<name>/` and `<outdir>/gitops/` by `fleet.synth()`). */
export function buildFleet(outdir?: string): Fleet {
  const fleet = new Fleet({
    outdir,
    clusters: FLEET_CLUSTERS,
    gitops: GitOps.argoCd({ repoUrl: 'https://git.example.com/platform/node-services.git', repoPath: 'dist', targetRevision: 'main' }),
  });
  // Every cluster: a log agent and a node metrics exporter on every pool, sized for the cluster's nodes.
  fleet.addServices({ define: (_scope, cluster) => addAgents(cluster) });
  // Clusters with NVIDIA GPUs: a GPU monitor on the GPU pool only.
  fleet.addServices({ define: (_scope, cluster) => addGpuMonitor(cluster) }, { matchLabels: { accelerators: 'nvidia' } });
  // Every cluster, last: the coverage alerts of all the cluster's services, the namespace (its Pod Security level
  // derived from them) and the admission guardrails, for the cluster's Kubernetes version
  // (admissionregistration.k8s.io/v1 on 1.30).
  fleet.addServices({ define: (scope, cluster) => addGuardrails(scope, cluster) });
  return fleet;
}

function addAgents(cluster: FleetCluster): void {
  const agents = cluster.chart('node-agents', { namespace: FLEET_NAMESPACE, disableResourceNameHashes: true });
  const edge = cluster.hasPool('edge');
  new LogAgent(agents, 'logs', {
    name: 'fluent-bit',
    image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
    pools: cluster.pools,
    // Edge nodes are small: a leaner agent there.
    resources: edge ? { cpuRequest: '50m', memoryRequest: '64Mi', memoryLimit: '128Mi' } : undefined,
  });
  new MonitoringAgent(agents, 'metrics', {
    image: 'quay.io/prometheus/node-exporter:v1.8.2',
    pools: cluster.pools,
  });
}

function addGpuMonitor(cluster: FleetCluster): void {
  const gpu = cluster.chart('gpu', { namespace: FLEET_NAMESPACE, disableResourceNameHashes: true });
  new GpuMonitor(gpu, 'gpu-metrics', {
    image: 'nvcr.io/nvidia/k8s/dcgm-exporter:4.5.3-4.8.2-distroless',
    pools: [cluster.pool('gpu')],
    excludePools: cluster.pools.filter((p) => p.name !== 'gpu'),
  });
}

function addGuardrails(scope: Construct, cluster: FleetCluster): void {
  const services = scope.node.findAll().filter((c): c is NodeService => c instanceof NodeService);
  // Every node service's coverage is monitored, on every cluster.
  const alerts = cluster.chart('alerts', { namespace: FLEET_NAMESPACE, disableResourceNameHashes: true });
  new NodeServiceAlerts(alerts, 'alerts', { services, ruleLabels: { release: 'kube-prometheus-stack' } });
  const charts = cluster.app.charts;
  const guardrails = cluster.chart('guardrails', { disableResourceNameHashes: true });
  new NodeServiceNamespace(guardrails, 'namespace', { name: FLEET_NAMESPACE, services });
  new NodeServiceGuardrails(guardrails, 'admission', {
    contact: '#platform-team',
    platformGroups: ['platform-admins'],
    platformUsers: ['system:serviceaccount:argocd:argocd-application-controller'],
    registryAllowlist: ['cr.fluentbit.io/fluent', 'quay.io/prometheus', 'nvcr.io/nvidia/k8s'],
  });
  // Applied first: the namespace and the policies before the services.
  for (const chart of charts) chart.addDependency(guardrails);
}
