import { ApiObject, App, Chart } from 'cdk8s';
import { Canary, LogAgent, NodePool, NodeService, NodeServiceChecks, Variant } from '../../src';

const image = 'registry.example.com/agent:1.2.3';
const container = { name: 'agent', image };

/** A fresh App whose warning summaries are captured. */
function app(): { app: App; chart: Chart; warnings: string[] } {
  const a = new App({ outdir: require('os').tmpdir() + '/cdk8s-node-services-test' });
  const warnings: string[] = [];
  NodeServiceChecks.of(a, { logger: { log: (m: string) => void warnings.push(m) } });
  return { app: a, chart: new Chart(a, 'c'), warnings };
}

function synthError(a: App): string {
  try {
    a.synth();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected synthesis to fail');
}

describe('app-level problems at synth', () => {
  test('GIVEN two services with the same name THEN synthesis fails once for the clash, naming both construct paths and every shared object', () => {
    const { app: a, chart } = app();
    new LogAgent(chart, 'logs', { image, name: 'fluent-bit' });
    new LogAgent(chart, 'logs2', { image, name: 'fluent-bit' });
    const message = synthError(a);
    const lines = message.split('\n').filter((l) => l.includes('duplicate object'));
    expect(lines).toEqual([
      '  [c/logs2] duplicate objects: DaemonSet node-services/fluent-bit, ServiceAccount node-services/fluent-bit, ClusterRole node-services-fluent-bit, ClusterRoleBinding node-services-fluent-bit are also defined by c/logs. Fix: give one of the services another name (or instance and name), or put it in another namespace',
    ]);
  });

  test('GIVEN a service and a plain ApiObject with the same identity THEN the service reports it, naming the object', () => {
    const { app: a, chart } = app();
    new NodeService(chart, 'a', { name: 'agent', containers: [container] });
    new ApiObject(chart, 'raw', { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'node-services' } });
    expect(synthError(a)).toContain('[c/a] duplicate object: DaemonSet node-services/agent is also defined by c/raw.');
  });

  test('GIVEN the same name in two namespaces THEN it synthesizes', () => {
    const { app: a, chart } = app();
    new NodeService(chart, 'a', { name: 'agent', namespace: 'ns-a', containers: [container] });
    new NodeService(chart, 'b', { name: 'agent', namespace: 'ns-b', containers: [container] });
    expect(() => a.synth()).not.toThrow();
  });

  test('GIVEN controlPlane with pools that exclude the control plane THEN synthesis fails saying it has no effect', () => {
    const { app: a, chart } = app();
    new NodeService(chart, 'svc', { name: 'agent', containers: [container], controlPlane: true, pools: [NodePool.gpu()] });
    expect(synthError(a)).toContain('[c/svc] controlPlane: true has no effect: the pods still stay off control-plane nodes');
  });

  test('GIVEN controlPlane with the control-plane pool THEN it synthesizes', () => {
    const { app: a, chart } = app();
    new NodeService(chart, 'svc', {
      name: 'agent',
      containers: [container],
      controlPlane: true,
      pools: [NodePool.gpu(), NodePool.controlPlane()],
    });
    expect(() => a.synth()).not.toThrow();
  });

  test('GIVEN a canary that changes nothing THEN synthesis warns once', () => {
    const { app: a, chart, warnings } = app();
    new NodeService(chart, 'svc', { name: 'agent', containers: [container], canary: Canary.byNodeLabel('canary', 'true', { image }) });
    a.synth();
    expect(warnings.join('').match(/canary-changes-nothing: \[c\/svc\]/g)).toHaveLength(1);
  });

  test('GIVEN a variant whose pods are the default ones THEN synthesis warns once, naming it; variants that change a pod field do not', () => {
    const { app: a, chart, warnings } = app();
    const label = 'node.kubernetes.io/instance-type';
    new NodeService(chart, 'svc', {
      name: 'agent',
      containers: [{ ...container, resources: { cpuRequest: '100m', memoryRequest: '128Mi', memoryLimit: '256Mi' } }],
      variants: [
        Variant.byNodeLabel('same', label, ['m5.large'], { image }),
        Variant.byNodeLabel('same-resources', label, ['m5.xlarge'], {
          resources: { cpuRequest: '100m', memoryRequest: '128Mi', memoryLimit: '256Mi' },
        }),
        Variant.byNodeLabel('bigger', label, ['m5.4xlarge'], {
          resources: { cpuRequest: '200m', memoryRequest: '256Mi', memoryLimit: '512Mi' },
        }),
        Variant.byNodeLabel('newer', label, ['m5.8xlarge'], { image: 'registry.example.com/agent:1.2.4' }),
        Variant.byNodeLabel('flags', label, ['c5.large'], { args: ['--verbose'] }),
        Variant.byNodeLabel('canaried', label, ['c5.xlarge'], {
          canary: Canary.byNodeLabel('canary', 'true', { image: 'registry.example.com/agent:1.3.0' }),
        }),
      ],
    });
    a.synth();
    const text = warnings.join('');
    expect(text.match(/variant-changes-nothing: \[c\/svc\]/g)).toHaveLength(2);
    expect(text).toContain('variant-changes-nothing: [c/svc] variants[0] ("same") runs the same pods as the default DaemonSet');
    expect(text).toContain('variant-changes-nothing: [c/svc] variants[1] ("same-resources") runs the same pods');
    for (const name of ['bigger', 'newer', 'flags', 'canaried']) expect(text).not.toContain(`("${name}")`);
  });

  test('GIVEN an unknown priority class THEN synthesis warns; a built-in or defined one does not', () => {
    const { app: a, chart, warnings } = app();
    new NodeService(chart, 'svc', { name: 'agent', containers: [container], priorityClassName: 'system-node-critcal' });
    new NodeService(chart, 'ok', { name: 'ok', containers: [container], priorityClassName: 'system-node-critical' });
    a.synth();
    expect(warnings.join('')).toContain("priority-class-unknown: [c/svc] priorityClassName 'system-node-critcal' is neither built in");
    expect(warnings.join('')).not.toContain('priority-class-unknown: [c/ok]');
  });

  test('GIVEN a duplicate added after a clean synthesis THEN the next synthesis of the same App finds it', () => {
    const { app: a, chart } = app();
    new NodeService(chart, 'a', { name: 'agent', containers: [container] });
    expect(() => a.synthYaml()).not.toThrow();
    new NodeService(chart, 'b', { name: 'agent', containers: [container] });
    expect(synthError(a)).toContain('[c/b] duplicate object: DaemonSet node-services/agent is also defined by c/a');
  });

  test('GIVEN a PriorityClass defined after a synthesis that warned THEN the next synthesis no longer warns', () => {
    const { app: a, chart, warnings } = app();
    new NodeService(chart, 'svc', { name: 'agent', containers: [container], priorityClassName: 'agents' });
    a.synthYaml();
    expect(warnings.join('')).toContain("priority-class-unknown: [c/svc] priorityClassName 'agents'");
    warnings.length = 0;
    new ApiObject(chart, 'pc', {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'agents' },
      value: 1000,
    } as any);
    a.synthYaml();
    expect(warnings.join('')).not.toContain('priority-class-unknown');
  });
});
