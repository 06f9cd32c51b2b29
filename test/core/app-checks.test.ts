import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import { Canary, LogAgent, MonitoringAgent, NodeBudget, NodePool, NodeService, Rollout, Variant } from '../../src';
import { planRollouts } from '../../src/day2/plan';
import { app, synthError } from '../support/app';

const image = 'registry.example.com/agent:1.2.3';
const container = { name: 'agent', image };

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

describe('surge rollouts that can only stall', () => {
  test('GIVEN a MonitoringAgent (host network, port 9100) with Rollout.surge(1) WHEN synthesized THEN synthesis fails naming the DaemonSet, the port and Rollout.maxUnavailable', () => {
    const { app: a, chart } = app();
    new MonitoringAgent(chart, 'metrics', { image, rollout: Rollout.surge(1) });
    const message = synthError(a);
    expect(message).toContain(
      '[c/metrics] surge-deadlock: DaemonSet node-services/node-exporter surges (maxSurge 1) with host port TCP/9100 and the host network',
    );
    expect(message).toContain('Fix: roll out with Rollout.maxUnavailable(1)');
  });

  test('GIVEN a MonitoringAgent with Rollout.surge(1) WHEN synthesized THEN the deadlock is reported once: the surge-deadlock error, no surge-with-host-ports beside it', () => {
    const { app: a, chart, warnings } = app();
    new MonitoringAgent(chart, 'metrics', { image, rollout: Rollout.surge(1) });
    const message = synthError(a);
    expect(message.match(/surge-deadlock/g)).toHaveLength(1);
    expect(message).not.toContain('surge-with-host-ports');
    expect(warnings.join('\n')).not.toContain('surge-with-host-ports');
  });

  test('GIVEN a host-network service without ports with Rollout.surge(1) WHEN synthesized THEN only surge-deadlock reports it (not the rule, not even as a warning)', () => {
    const { app: a, chart, warnings } = app();
    new NodeService(chart, 'svc', { name: 'agent', containers: [container], hostNetwork: true, rollout: Rollout.surge(1) });
    const message = synthError(a);
    expect(message).toContain('surge-deadlock: DaemonSet node-services/agent surges (maxSurge 1) with the host network:');
    expect(message).not.toContain('surge-with-host-ports');
    expect(warnings.join('\n')).not.toContain('surge-with-host-ports');
  });

  test('GIVEN a service that declares maxUnavailable and a JSON patch that makes its DaemonSet surge with a hostPort THEN the rule still reports it', () => {
    const { app: a, chart } = app();
    const svc = new NodeService(chart, 'svc', {
      name: 'agent',
      containers: [{ ...container, ports: [{ name: 'http', containerPort: 8080, hostPort: 8080 }] }],
      rollout: Rollout.maxUnavailable(1),
    });
    svc.daemonSet.addJsonPatch(JsonPatch.replace('/spec/updateStrategy/rollingUpdate', { maxUnavailable: 0, maxSurge: 1 }));
    const message = synthError(a);
    expect(message).not.toContain('surge-deadlock');
    expect(message).toMatch(/surge-with-host-ports: maxSurge 1 .* with host port TCP\/8080: the new pod cannot be scheduled/);
  });

  test('GIVEN a host-network service without ports with Rollout.surgePercent(10) WHEN synthesized THEN synthesis fails naming the host network', () => {
    const { app: a, chart } = app();
    new NodeService(chart, 'svc', { name: 'agent', containers: [container], hostNetwork: true, rollout: Rollout.surgePercent(10) });
    expect(synthError(a)).toContain('surge-deadlock: DaemonSet node-services/agent surges (maxSurge 10%) with the host network:');
  });

  test('GIVEN a host port service with a canary and Rollout.surge(1) THEN both DaemonSets are reported', () => {
    const { app: a, chart } = app();
    new NodeService(chart, 'svc', {
      name: 'agent',
      containers: [{ ...container, ports: [{ name: 'http', containerPort: 8080, hostPort: 8080 }] }],
      rollout: Rollout.surge(1),
      canary: Canary.byNodeLabel('canary', 'true', { image: 'registry.example.com/agent:1.2.4' }),
    });
    const message = synthError(a);
    expect(message).toContain('DaemonSet node-services/agent surges (maxSurge 1) with host port TCP/8080');
    expect(message).toContain('DaemonSet node-services/agent-canary surges (maxSurge 1) with host port TCP/8080');
  });

  test('GIVEN surge without host ports or host network, or the host network with maxUnavailable THEN it synthesizes', () => {
    const { app: a, chart } = app();
    new NodeService(chart, 'svc', { name: 'agent', containers: [container], rollout: Rollout.surge(1) });
    new MonitoringAgent(chart, 'metrics', { image, rollout: Rollout.maxUnavailable(1) });
    expect(() => a.synth()).not.toThrow();
  });

  test('GIVEN the same surge with a host port THEN node-services plan reports the rollout stuck on the port, with the same condition in its notes', () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'node-exporter', namespace: 'node-services' },
      spec: {
        selector: { matchLabels: { app: 'x' } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
        template: {
          metadata: { labels: { app: 'x' } },
          spec: { hostNetwork: true, containers: [{ name: 'c', image: 'registry.example.com/x:2', ports: [{ containerPort: 9100 }] }] },
        },
      },
    };
    const old = {
      ...ds,
      spec: {
        ...ds.spec,
        template: {
          ...ds.spec.template,
          spec: { ...ds.spec.template.spec, containers: [{ ...ds.spec.template.spec.containers[0], image: 'registry.example.com/x:1' }] },
        },
      },
    };
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1', labels: { 'kubernetes.io/os': 'linux' } },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    };
    const plan = planRollouts([{ object: ds }], { nodes: [node], old: [{ object: old }] }).daemonSets[0];
    expect(plan.outcome).toBe('stuck');
    expect(plan.notes.join(' ')).toContain(
      'maxSurge 1 with host port TCP/9100 and the host network: the new pod cannot run next to the old one on any node',
    );
  });
});

describe('pool budgets count every DaemonSet of a service', () => {
  const pool = NodePool.of({
    name: 'small',
    labels: { pool: 'small' },
    allocatable: { cpu: '1', memory: '1Gi', pods: '110' },
    budget: NodeBudget.of({ memoryPercent: 20 }),
  });
  /** A service within the budget whose canary DaemonSet is patched to request `canaryMemory`. */
  function build(chart: Chart, canaryMemory: string): void {
    const svc = new NodeService(chart, 'svc', {
      name: 'agent',
      pools: [pool],
      containers: [{ ...container, resources: { cpuRequest: '10m', memoryRequest: '128Mi', memoryLimit: '128Mi' } }],
      canary: Canary.byNodeLabel('example.com/canary', 'true', { image: 'registry.example.com/agent:1.3.0' }),
    });
    svc.canaryDaemonSet!.addJsonPatch(
      JsonPatch.replace('/spec/template/spec/containers/0/resources', {
        requests: { cpu: '10m', memory: canaryMemory },
        limits: { memory: canaryMemory },
      }),
    );
  }

  test('GIVEN a canary DaemonSet that requests more than the pool budget on the nodes it runs on WHEN synthesized THEN synthesis fails naming the pool', () => {
    const { app: a, chart } = app();
    build(chart, '512Mi');
    expect(synthError(a)).toContain(
      'node tax: the node services landing on node pool "small" request more than it can give: memory 512Mi is 50% of allocatable, over the budget of 20%',
    );
  });

  test('GIVEN the canary within the budget THEN it synthesizes', () => {
    const { app: a, chart } = app();
    build(chart, '160Mi');
    expect(() => a.synth()).not.toThrow();
  });
});
