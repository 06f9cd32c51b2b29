/**
 * A realistic platform of node services, as a platform team would write it: a log agent on every node including the
 * control plane, and a node metrics exporter on every node.
 */

import { createHash } from 'crypto';
import { App, Chart } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { LogAgent, MonitoringAgent, Mount } from '../src';

/** The charts of the example platform. */
export interface Platform {
  /** The chart with the node agents. */
  readonly agents: Chart;
}

/** The namespace of the example node services. */
export const PLATFORM_NAMESPACE = 'node-services';

/** Builds the example platform into `app`. */
export function buildPlatform(app: App): Platform {
  const agents = new Chart(app, 'node-agents', { namespace: PLATFORM_NAMESPACE, disableResourceNameHashes: true });
  addAgents(agents);
  return { agents };
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
  new k8s.KubeConfigMap(scope, 'fluent-bit-config', {
    metadata: {
      name: 'fluent-bit-config',
      labels: { 'app.kubernetes.io/name': 'fluent-bit', 'app.kubernetes.io/managed-by': 'cdk8s-node-services' },
    },
    data: { 'fluent-bit.conf': FLUENT_BIT_CONFIG },
  });

  new LogAgent(scope, 'logs', {
    name: 'fluent-bit',
    image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
    controlPlane: true,
    args: ['--config=/fluent-bit/etc/fluent-bit.conf'],
    mounts: [Mount.configMap('fluent-bit-config', '/fluent-bit/etc')],
    // Roll the pods when the configuration changes.
    podAnnotations: { 'checksum/config': createHash('sha256').update(FLUENT_BIT_CONFIG).digest('hex') },
  });

  new MonitoringAgent(scope, 'metrics', {
    image: 'quay.io/prometheus/node-exporter:v1.8.2',
  });
}
