import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { importManifests, ImportResult } from '../../src/adopt';
import { CniPlugin, CsiNode, GpuMonitor, LogAgent, MonitoringAgent, SecurityAgent } from '../../src/index';
import { importFixture, REAL_WORLD, RUNTIME } from './support';

/** The objects one preset synthesizes, as an input to import. */
function presetOutput(build: (chart: Chart) => void): Array<{ object: any; file: string }> {
  const chart = new Chart(Testing.app(), 'input');
  build(chart);
  return Testing.synth(chart).map((object) => ({ object, file: 'input.yaml' }));
}

const PRESETS: ReadonlyArray<[string, (chart: Chart) => void]> = [
  ['LogAgent', (c) => new LogAgent(c, 'logs', { name: 'fluent-bit', namespace: 'logging', image: 'fluent/fluent-bit:3.1.4' })],
  [
    'MonitoringAgent',
    (c) => new MonitoringAgent(c, 'metrics', { namespace: 'monitoring', image: 'quay.io/prometheus/node-exporter:v1.8.2' }),
  ],
  ['GpuMonitor', (c) => new GpuMonitor(c, 'gpu', { namespace: 'gpu', image: 'nvcr.io/nvidia/k8s/dcgm-exporter:3.3.7-3.5.0-ubuntu22.04' })],
  [
    'CsiNode',
    (c) =>
      new CsiNode(c, 'ebs', {
        namespace: 'kube-system',
        image: 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.34.0',
        driverName: 'ebs.csi.aws.com',
      }),
  ],
  ['SecurityAgent', (c) => new SecurityAgent(c, 'falco', { namespace: 'falco', image: 'falcosecurity/falco:0.38.2' })],
  [
    'CniPlugin',
    (c) =>
      new CniPlugin(c, 'calico', {
        namespace: 'kube-system',
        image: 'calico/node:v3.28.1',
        healthPort: 9099,
        install: { image: 'calico/cni:v3.28.1', command: ['/opt/cni/bin/install'] },
      }),
  ],
];

describe('the construct an import chooses', () => {
  test.each(PRESETS)(
    'GIVEN what %s synthesizes WHEN imported with --check THEN it is built with that preset again, checks clean and synthesizes the same objects',
    async (preset, build) => {
      const input = presetOutput(build);
      const result = await importManifests(input, { runtime: RUNTIME, check: true });
      const [service] = result.report.services;
      expect(service.construct).toBe(preset);
      expect(service.constructReason).toMatch(/as cleanly as NodeService/);
      expect(result.report.unexplained).toBe(0);
      expect(result.report.problems).toEqual([]);
      expect(service.escapeHatch).toEqual([]);
      // The objects come out as the preset wrote them.
      expect(result.synthesized).toEqual(input.map((o) => o.object));
      const code = [...result.files.values()].join('\n');
      expect(code).toContain(`new ${preset}(this, "service", {`);
      expect(code).not.toContain('new NodeService(');
    },
    60_000,
  );

  test('GIVEN a LogAgent output whose main container is renamed WHEN imported THEN NodeService is chosen and the reason names the container', async () => {
    const input = presetOutput(PRESETS[0][1]);
    const ds = input.find((o) => o.object.kind === 'DaemonSet')!.object;
    ds.spec.template.spec.containers[0].name = 'fluent-bit';
    const result = await importManifests(input, { runtime: RUNTIME, check: true });
    const [service] = result.report.services;
    expect(service.construct).toBe('NodeService');
    expect(service.constructReason).toBe(
      "LogAgent names its containers `agent`, the input's are `fluent-bit` (a preset has no prop for the names of its own containers)",
    );
    expect(result.report.unexplained).toBe(0);
    expect(result.files.get('fluent-bit.ts')).toContain(`* Chose NodeService: ${service.constructReason}.`);
  }, 60_000);

  test('GIVEN a LogAgent output with a readiness probe the preset does not write WHEN imported THEN NodeService is chosen: LogAgent would change the probe', async () => {
    const input = presetOutput(PRESETS[0][1]);
    const ds = input.find((o) => o.object.kind === 'DaemonSet')!.object;
    delete ds.spec.template.spec.containers[0].readinessProbe;
    const result = await importManifests(input, { runtime: RUNTIME, check: true });
    const [service] = result.report.services;
    expect(service.construct).toBe('NodeService');
    expect(service.constructReason).toMatch(/^LogAgent would change spec\.template\.spec\.containers\[agent\]\.readinessProbe/);
    expect(result.report.unexplained).toBe(0);
  }, 60_000);

  test.each<[string, RegExp]>([
    ['fluent-bit-helm.yaml', /^the log-agent allowlists refuse its host path \/var\/log \(writable\)$/],
    ['node-exporter-helm.yaml', /^MonitoringAgent names its containers `exporter`, the input's are `node-exporter`/],
    ['kube-proxy.yaml', /^the library has no preset for the kind kube-proxy$/],
    ['dcgm-exporter.yaml', /^GpuMonitor would change spec\.template\.spec\.containers\[exporter\]\.volumeMounts/],
  ])(
    'GIVEN the real-world %s WHEN imported THEN NodeService is chosen, with the reason',
    async (f, reason) => {
      const result: ImportResult = await importFixture(path.join(REAL_WORLD, f));
      expect(result.report.services.map((s) => [s.construct, s.constructReason])).toEqual([['NodeService', expect.stringMatching(reason)]]);
    },
    60_000,
  );
});
