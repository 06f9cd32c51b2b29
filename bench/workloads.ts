/**
 * The two synthesis workloads compared by the synth benchmarks, built with the compiled library (`lib/`, what users
 * load): `count` node services with every rule enabled, and `count` plain cdk8s-plus-28 DaemonSets with the same
 * containers, mounts, labels and tolerations. Each builds a fresh App and returns its YAML.
 */

import * as os from 'os';
import * as path from 'path';
import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';

const lib: typeof import('../src') = require(path.join(__dirname, '..', 'lib'));

const OUT = path.join(os.tmpdir(), 'node-services-bench-synth');

/** `count` node services, synthesized to YAML. */
export function nodeServices(count: number): string {
  return nodeServicesApp(count).synthYaml();
}

/** The App of {@link nodeServices}, constructed and not yet synthesized. */
export function nodeServicesApp(count: number): App {
  const { HostPath, NodeService, Probe, Toleration } = lib;
  const app = new App({ outdir: OUT });
  const chart = new Chart(app, 'bench', { namespace: 'node-services' });
  for (let i = 0; i < count; i++) {
    new NodeService(chart, `agent-${i}`, {
      name: `agent-${i}`,
      containers: [
        {
          name: 'agent',
          image: `registry.example.com/agent:1.0.${i}`,
          ports: [{ name: 'http', containerPort: 2020 }],
          readiness: Probe.tcpSocket('http'),
          resources: { cpuRequest: '100m', memoryRequest: '128Mi', memoryLimit: '256Mi' },
          hostPaths: [HostPath.readOnly('/var/log')],
          runAsUser: 65534,
        },
      ],
      tolerations: [Toleration.all()],
      suppressions: [{ ruleId: 'tolerates-all-taints', reason: 'benchmark agents run on every node' }],
    });
  }
  return app;
}

/** `count` cdk8s-plus-28 DaemonSets, synthesized to YAML. */
export function plainDaemonSets(count: number): string {
  return plainDaemonSetsApp(count).synthYaml();
}

/** The App of {@link plainDaemonSets}, constructed and not yet synthesized. */
export function plainDaemonSetsApp(count: number): App {
  const app = new App({ outdir: OUT });
  const chart = new Chart(app, 'bench', { namespace: 'node-services' });
  for (let i = 0; i < count; i++) {
    // The same container (image, port, probe, resources, security context, mount), labels and toleration as the
    // node service above; only what cdk8s-plus has no API for (update strategy, node selector, annotations) differs.
    const labels = {
      'app.kubernetes.io/name': `agent-${i}`,
      'app.kubernetes.io/instance': `agent-${i}`,
      'app.kubernetes.io/version': `1.0.${i}`,
      'app.kubernetes.io/component': 'node-service',
      'app.kubernetes.io/part-of': 'node-services',
      'app.kubernetes.io/managed-by': 'cdk8s-node-services',
    };
    const ds = new kplus.DaemonSet(chart, `agent-${i}`, { metadata: { name: `agent-${i}`, labels }, podMetadata: { labels } });
    const c = ds.addContainer({
      name: 'agent',
      image: `registry.example.com/agent:1.0.${i}`,
      ports: [{ name: 'http', number: 2020 }],
      readiness: kplus.Probe.fromTcpSocket({ port: 2020 }),
      resources: {
        cpu: { request: kplus.Cpu.millis(100) },
        memory: { request: Size.mebibytes(128), limit: Size.mebibytes(256) },
      },
      securityContext: {
        ensureNonRoot: true,
        user: 65534,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        privileged: false,
        capabilities: { drop: [kplus.Capability.ALL] },
        seccompProfile: { type: kplus.SeccompProfileType.RUNTIME_DEFAULT },
      },
    });
    const volume = kplus.Volume.fromHostPath(chart, `varlog-${i}`, 'host-var-log', {
      path: '/var/log',
      type: kplus.HostPathVolumeType.DIRECTORY,
    });
    c.mount('/var/log', volume, { readOnly: true });
    ds.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.any()));
  }
  return app;
}

/** Throws unless `yaml` holds `count` DaemonSets. */
export function checkOutput(yaml: string, count: number): void {
  const found = yaml.match(/^kind: DaemonSet$/gm)?.length ?? 0;
  if (found !== count) throw new Error(`synthesis produced ${found} DaemonSets, expected ${count}`);
}
