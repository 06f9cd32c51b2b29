/**
 * A realistic platform of node services, as a platform team would write it: a log agent on every node including the
 * control plane, and a node metrics exporter on every node.
 */

import { App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { LogAgent, MonitoringAgent, Mount } from '../src';

/** The charts of the example platform. */
export interface Platform {
  /** The chart with the node agents. */
  readonly agents: Chart;
}

/** Builds the example platform into `app`. */
export function buildPlatform(app: App): Platform {
  const agents = new Chart(app, 'node-agents', { namespace: 'node-services', disableResourceNameHashes: true });
  addAgents(agents);
  return { agents };
}

function addAgents(scope: Construct): void {
  new LogAgent(scope, 'logs', {
    name: 'fluent-bit',
    image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
    controlPlane: true,
    mounts: [Mount.configMap('fluent-bit-config', '/fluent-bit/etc')],
    podAnnotations: { 'checksum/config': 'v1' },
  });

  new MonitoringAgent(scope, 'metrics', {
    image: 'quay.io/prometheus/node-exporter:v1.8.2',
  });
}
