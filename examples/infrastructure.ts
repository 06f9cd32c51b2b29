/**
 * Node infrastructure as a platform team would declare it: a flannel CNI, the AWS EBS CSI node plugin, a Falco
 * runtime sensor and the NVIDIA DCGM exporter on GPU nodes.
 */

import { createHash } from 'crypto';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ApiPermission, CniPlugin, CsiNode, EnvField, GpuMonitor, ImagePullSecret, Mount, SecurityAgent, SecurityAgentMode } from '../src';
import { POOLS } from './pools';

const FLANNEL_CNI_CONF = `{
  "name": "cbr0",
  "cniVersion": "0.3.1",
  "plugins": [
    { "type": "flannel", "delegate": { "hairpinMode": true, "isDefaultGateway": true } },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}
`;

const FLANNEL_NET_CONF = `{
  "Network": "10.244.0.0/16",
  "Backend": { "Type": "vxlan" }
}
`;

/** Adds one realistic instance of each infrastructure preset to `scope`. */
export function addInfrastructure(scope: Construct): void {
  new k8s.KubeConfigMap(scope, 'flannel-config', {
    metadata: {
      name: 'kube-flannel-cfg',
      labels: { 'app.kubernetes.io/name': 'kube-flannel', 'app.kubernetes.io/managed-by': 'cdk8s-node-services' },
    },
    data: { 'cni-conf.json': FLANNEL_CNI_CONF, 'net-conf.json': FLANNEL_NET_CONF },
  });

  new CniPlugin(scope, 'network', {
    name: 'kube-flannel',
    image: 'docker.io/flannel/flannel:v0.25.6',
    install: {
      // The flannel CNI plugin image carries the plugin binary (and a shell); the configuration comes from the ConfigMap.
      image: 'docker.io/flannel/flannel-cni-plugin:v1.5.1-flannel2',
      command: ['sh', '-c'],
      args: ['cp -f /flannel /host/opt/cni/bin/flannel && cp -f /etc/kube-flannel/cni-conf.json /host/etc/cni/net.d/10-flannel.conflist'],
      mounts: [Mount.configMap('kube-flannel-cfg', '/etc/kube-flannel')],
    },
    command: ['/opt/bin/flanneld'],
    args: ['--ip-masq', '--kube-subnet-mgr', '--healthz-port=8081'],
    env: { EVENT_QUEUE_DEPTH: '5000' },
    fieldEnv: { POD_NAME: EnvField.POD_NAME, POD_NAMESPACE: EnvField.POD_NAMESPACE, NODE_NAME: EnvField.NODE_NAME },
    healthPort: 8081,
    stateDir: '/run/flannel',
    // A node without its CNI never becomes Ready: every pool, the control plane included.
    pools: [POOLS.general, POOLS.gpu, POOLS.edge, POOLS.controlPlane],
    mounts: [Mount.configMap('kube-flannel-cfg', '/etc/kube-flannel')],
    resources: { cpuRequest: '100m', memoryRequest: '50Mi', memoryLimit: '256Mi' },
    // Roll the agents when the network configuration changes.
    podAnnotations: {
      'checksum/config': createHash('sha256')
        .update(FLANNEL_CNI_CONF + FLANNEL_NET_CONF)
        .digest('hex'),
    },
  });

  new CsiNode(scope, 'storage', {
    driverName: 'ebs.csi.aws.com',
    image: 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.46.0',
    args: [
      'node',
      '--endpoint=$(CSI_ENDPOINT)',
      '--csi-mount-point-prefix=/var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/',
      '--logging-format=text',
      '--v=2',
    ],
    // The driver waits until the node's volumes are detached before it stops.
    preStop: ['/bin/aws-ebs-csi-driver', 'pre-stop-hook'],
    // It also removes its startup taint from the node once it is ready.
    apiAccess: [...CsiNode.defaultApiAccess(), ApiPermission.of('', ['nodes'], ['patch'])],
    // Storage must follow workloads: every pool that runs them.
    pools: [POOLS.general, POOLS.gpu, POOLS.edge],
  });

  new SecurityAgent(scope, 'runtime-security', {
    name: 'falco',
    image: 'docker.io/falcosecurity/falco:0.44.1',
    mode: SecurityAgentMode.RUNTIME,
    args: ['/usr/bin/falco', '-o', 'engine.kind=modern_ebpf', '-o', 'webserver.enabled=true', '-o', 'webserver.listen_port=8765'],
    runtimeSocket: '/run/containerd/containerd.sock',
    // The nodes run AppArmor (Ubuntu): without this the sensor cannot read the processes it watches.
    appArmorUnconfined: true,
    priorityClassName: 'system-node-critical',
    mounts: [Mount.emptyDir('/tmp', { sizeLimit: '64Mi' })],
    // A sensor that skips nodes leaves blind spots.
    pools: [POOLS.general, POOLS.gpu, POOLS.edge, POOLS.controlPlane],
  });

  new GpuMonitor(scope, 'gpu-metrics', {
    image: 'nvcr.io/nvidia/k8s/dcgm-exporter:4.5.3-4.8.2-distroless',
    profilingMetrics: true,
    // GPU nodes only: verified at synth, both ways.
    pools: [POOLS.gpu],
    excludePools: [POOLS.general, POOLS.edge, POOLS.controlPlane],
    // NGC registry credentials (a kubernetes.io/dockerconfigjson Secret created out of band).
    imagePullSecrets: [ImagePullSecret.fromName('ngc-registry')],
  });
}
