/**
 * A realistic platform of node services, as a platform team would write it: the platform namespace and admission
 * guardrails; a log agent on every node including the control plane; a node metrics exporter on every node; a CNI, a
 * CSI node plugin, a runtime-security sensor and a GPU monitor; coverage targets on the cluster's node pools, verified
 * at synth; and coverage alerts for every node service.
 */

import { App, Chart } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Canary, LogAgent, MonitoringAgent, Mount, NetworkPeer, NodeService, Probe, Variant } from '../src';
import { addAlerts, addGuardrails } from './guardrails';
import { addInfrastructure } from './infrastructure';
import { POOLS } from './pools';

/** The charts of the example platform. */
export interface Platform {
  /** The namespace and admission guardrails (applied first). */
  readonly guardrails: Chart;
  /** The node services and their alerts. */
  readonly agents: Chart;
}

/** The namespace of the example node services. */
export const PLATFORM_NAMESPACE = 'node-services';

/** Builds the example platform into `app`. */
export function buildPlatform(app: App): Platform {
  const guardrails = new Chart(app, 'guardrails', { disableResourceNameHashes: true });
  const agents = new Chart(app, 'node-agents', { namespace: PLATFORM_NAMESPACE, disableResourceNameHashes: true });
  addAgents(agents);
  addInfrastructure(agents);
  const services = agents.node.findAll().filter((c): c is NodeService => c instanceof NodeService);
  // The namespace is built after the services so that its Pod Security audit/warn level can be derived from them.
  addGuardrails(guardrails, PLATFORM_NAMESPACE, services);
  addAlerts(agents, services);
  agents.addDependency(guardrails);
  return { guardrails, agents };
}

const FLUENT_BIT_CONFIG = `[SERVICE]
    Flush         5
    Log_Level     info
    HTTP_Server   On
    HTTP_Listen   0.0.0.0
    HTTP_Port     2020
    Health_Check  On

[INPUT]
    Name              tail
    Path              /var/log/containers/*.log
    multiline.parser  cri
    Tag               kube.*
    DB                /var/lib/fluent-bit/tail.db
    Mem_Buf_Limit     32MB
    Skip_Long_Lines   On

[FILTER]
    Name                kubernetes
    Match               kube.*
    Use_Kubelet         Off
    Kube_Tag_Prefix     kube.var.log.containers.
    Merge_Log           On
    Keep_Log            Off
    Labels              On
    Annotations         Off

[OUTPUT]
    Name   forward
    Match  *
    Host   log-aggregator.logging.svc.cluster.local
    Port   24224
`;

function addAgents(scope: Construct): void {
  const config = new k8s.KubeConfigMap(scope, 'fluent-bit-config', {
    metadata: {
      name: 'fluent-bit-config',
      labels: { 'app.kubernetes.io/name': 'fluent-bit', 'app.kubernetes.io/managed-by': 'cdk8s-node-services' },
    },
    data: { 'fluent-bit.conf': FLUENT_BIT_CONFIG },
  });
  // The next configuration, tried on the canary nodes first (promote it by mounting it on the stable service).
  const nextConfig = new k8s.KubeConfigMap(scope, 'fluent-bit-config-next', {
    metadata: {
      name: 'fluent-bit-config-next',
      labels: { 'app.kubernetes.io/name': 'fluent-bit', 'app.kubernetes.io/managed-by': 'cdk8s-node-services' },
    },
    data: { 'fluent-bit.conf': FLUENT_BIT_CONFIG.replace('Mem_Buf_Limit     32MB', 'Mem_Buf_Limit     64MB') },
  });

  // Edge sites buffer on disk and forward to the site's own aggregator.
  const edgeConfig = new k8s.KubeConfigMap(scope, 'fluent-bit-config-edge', {
    metadata: {
      name: 'fluent-bit-config-edge',
      labels: { 'app.kubernetes.io/name': 'fluent-bit', 'app.kubernetes.io/managed-by': 'cdk8s-node-services' },
    },
    data: {
      'fluent-bit.conf': FLUENT_BIT_CONFIG.replace('log-aggregator.logging.svc.cluster.local', 'site-aggregator.edge.example.com'),
    },
  });
  // Windows nodes: the Windows container log paths.
  const windowsConfig = new k8s.KubeConfigMap(scope, 'fluent-bit-config-windows', {
    metadata: {
      name: 'fluent-bit-config-windows',
      labels: { 'app.kubernetes.io/name': 'fluent-bit', 'app.kubernetes.io/managed-by': 'cdk8s-node-services' },
    },
    data: {
      'fluent-bit.conf': FLUENT_BIT_CONFIG.replace('/var/log/containers/*.log', 'C:\\var\\log\\containers\\*.log').replace(
        '/var/lib/fluent-bit/tail.db',
        'C:\\var\\lib\\fluent-bit\\tail.db',
      ),
    },
  });

  new LogAgent(scope, 'logs', {
    name: 'fluent-bit',
    image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
    // Every node, the control plane and the Windows workers included (an explicit decision), verified at synth.
    pools: [POOLS.general, POOLS.gpu, POOLS.edge, POOLS.controlPlane, POOLS.windows],
    args: ['--config=/fluent-bit/etc/fluent-bit.conf'],
    // A ConfigMap of the app: the pod template carries a hash of its content, so changing it rolls the pods.
    mounts: [Mount.fromConfigMapObject(config, '/fluent-bit/etc')],
    // Applications reach the agent's HTTP endpoint on their own node: fluent-bit-local.node-services.svc:2020.
    localService: { name: 'fluent-bit-local' },
    // Only Prometheus (monitoring namespace) and the node's applications reach the HTTP port; everything else is denied.
    networkPolicy: {
      ingress: [
        {
          ports: ['http'],
          from: [NetworkPeer.namespace('monitoring'), NetworkPeer.namespacesWithLabels({ 'example.com/tenant': 'true' })],
        },
      ],
      // The Windows variant's HostProcess pods use the host network, which NetworkPolicy does not govern.
      hostNetworkReason: "the Windows nodes' host firewall admits only the monitoring and tenant subnets to port 2020",
    },
    // Nodes labelled node-services.example.com/canary=true run the next configuration first.
    canary: Canary.byNodeLabel('node-services.example.com/canary', 'true', {
      mounts: [Mount.fromConfigMapObject(nextConfig, '/fluent-bit/etc')],
    }),
    // One DaemonSet per kind of node, with disjoint node affinity: every node runs exactly one of them.
    variants: [
      // GPU nodes run training jobs that log heavily: more memory for the buffers.
      Variant.forPool('gpu', POOLS.gpu, { resources: { cpuRequest: '200m', memoryRequest: '256Mi', memoryLimit: '512Mi' } }),
      // Edge nodes forward to their site's aggregator.
      Variant.forPool('edge', POOLS.edge, { mounts: [Mount.fromConfigMapObject(edgeConfig, '/fluent-bit/etc')] }),
      // Windows nodes: the Windows build as a HostProcess container, reading C:\var\log on the node.
      Variant.windows('windows', {
        image: 'cr.fluentbit.io/fluent/fluent-bit:windows-2022-3.1.9',
        version: '3.1.9',
        reason: 'reads the container logs under C:\\var\\log on the node, as upstream Fluent Bit for Windows does',
        command: ['powershell.exe', '-NoProfile', '-Command'],
        args: [
          '& "$env:CONTAINER_SANDBOX_MOUNT_POINT/fluent-bit/bin/fluent-bit.exe" -c "$env:CONTAINER_SANDBOX_MOUNT_POINT/fluent-bit/etc/fluent-bit.conf"',
        ],
        mounts: [Mount.fromConfigMapObject(windowsConfig, '/fluent-bit/etc')],
      }),
    ],
  });

  // node-exporter's textfile collector reads metrics a sidecar writes to a shared scratch directory.
  const textfile = Mount.emptyDir('/textfile', { volumeName: 'textfile', sizeLimit: '16Mi' });
  new MonitoringAgent(scope, 'metrics', {
    image: 'quay.io/prometheus/node-exporter:v1.8.2',
    pools: [POOLS.general, POOLS.gpu, POOLS.edge, POOLS.controlPlane],
    extraArgs: ['--collector.textfile.directory=/textfile'],
    mounts: [textfile],
    sidecars: [
      {
        name: 'textfile-metrics',
        image: 'registry.example.com/platform/node-textfile-metrics:1.4.0',
        args: ['--output=/textfile', '--interval=60s'],
        readiness: Probe.exec(['/node-textfile-metrics', '--check', '--output=/textfile']),
        liveness: Probe.exec(['/node-textfile-metrics', '--check', '--output=/textfile'], { periodSeconds: 60 }),
        resources: { cpuRequest: '5m', memoryRequest: '16Mi', memoryLimit: '32Mi' },
        mounts: [textfile],
        runAsUser: 65534,
      },
    ],
  });
}
