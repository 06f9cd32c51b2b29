import { importManifests, ImportResult } from '../../src/adopt';
import { parseObjects } from '../../src/manifests';
import { Constants, serviceProps, withResources } from '../../src/adopt/map';
import { ArrayExpr, Expr, ObjectExpr } from '../../src/adopt/model';
import { NodeServiceKind } from '../../src/policy/kinds';
import { RUNTIME } from './support';

const FILE = 'agents/node-agent.yaml';

/** A DaemonSet of one container, with `extra` laid over its metadata, pod template metadata and container. */
function daemonSet(extra: { metadata?: object; labels?: object; container?: object; volumes?: object[] } = {}): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'node-agent', namespace: 'monitoring', ...extra.metadata },
    spec: {
      selector: { matchLabels: { app: 'node-agent' } },
      template: {
        metadata: { labels: { app: 'node-agent', ...extra.labels } },
        spec: {
          containers: [{ name: 'agent', image: 'registry.example.com/node-agent:1.0.0', ...extra.container }],
          ...(extra.volumes ? { volumes: extra.volumes } : {}),
        },
      },
    },
  });
}

async function imported(yaml: string): Promise<ImportResult> {
  return importManifests(parseObjects(yaml, FILE), { runtime: RUNTIME, check: true });
}

/** Imports `yaml`, then the synthesized output of that; returns both. */
async function twice(yaml: string): Promise<[ImportResult, ImportResult]> {
  const first = await imported(yaml);
  const second = await importManifests(
    first.synthesized.map((object) => ({ object, file: FILE })),
    { runtime: RUNTIME, check: true },
  );
  return [first, second];
}

/** The module's text without the lines that say why the kind was chosen (the second input declares it). */
const moduleOf = (r: ImportResult) => r.files.get('node-agent.ts')!.replace(/^ \* (Built with|Chose) .*$/gm, '');
const agentOf = (r: ImportResult) => (r.synthesized.find((o: any) => o.kind === 'DaemonSet') as any).spec.template.spec.containers[0];

describe('an import writes the code a second import of its output writes', () => {
  test('GIVEN a container stating only a CPU request WHEN imported THEN the typed resources carry it over the library defaults, not a patch', async () => {
    const [first, second] = await twice(daemonSet({ container: { resources: { requests: { cpu: '250m' } } } }));
    expect(first.report.unexplained).toBe(0);
    const code = moduleOf(first);
    expect(code).toMatch(/resources: \{\s+cpuRequest: "250m",\s+memoryRequest: "\w+",\s+memoryLimit: "\w+",\s+\}/);
    expect(code).not.toContain('resources/requests');
    expect(agentOf(first).resources.requests.cpu).toBe('250m');
    expect(moduleOf(second)).toBe(code);
  }, 60_000);

  test('GIVEN labels out of alphabetical order WHEN imported THEN the code states them sorted, as cdk8s writes them', async () => {
    const [first, second] = await twice(daemonSet({ labels: { zone: 'edge', team: 'platform' } }));
    const code = moduleOf(first);
    expect(code.indexOf('team: "platform"')).toBeGreaterThan(-1);
    expect(code.indexOf('team: "platform"')).toBeLessThan(code.indexOf('zone: "edge"'));
    expect(moduleOf(second)).toBe(code);
  }, 60_000);

  test('GIVEN a writable host path WHEN imported THEN its reason cites the mount by its mount path, which no reordering changes', async () => {
    const [first, second] = await twice(
      daemonSet({
        container: {
          volumeMounts: [
            { name: 'logs', mountPath: '/var/log', readOnly: true },
            { name: 'state', mountPath: '/var/lib/node-agent' },
          ],
        },
        volumes: [
          { name: 'logs', hostPath: { path: '/var/log' } },
          { name: 'state', hostPath: { path: '/var/lib/node-agent', type: 'DirectoryOrCreate' } },
        ],
      }),
    );
    const code = moduleOf(first);
    expect(code).toContain(
      `imported writable from ${FILE}: spec.template.spec.containers[agent].volumeMounts[/var/lib/node-agent].readOnly is not true`,
    );
    expect(moduleOf(second)).toBe(code);
  }, 60_000);

  test('GIVEN a host-network pod leaving dnsPolicy unset WHEN imported THEN Default is stated with the comment the explicit form gets too', async () => {
    const unset = await imported(daemonSet().replace('"containers"', '"hostNetwork":true,"containers"'));
    const explicit = await imported(daemonSet().replace('"containers"', '"hostNetwork":true,"dnsPolicy":"Default","containers"'));
    expect(moduleOf(unset)).toContain('dnsPolicy: DnsPolicy.DEFAULT,');
    expect(moduleOf(unset)).toBe(moduleOf(explicit));
  }, 60_000);

  test('GIVEN a suppression annotation the input states WHEN imported THEN it is the suppressions prop with the input reason', async () => {
    const reason = 'the agent rewrites the kubelet configuration on purpose (ticket OPS-1234)';
    const yaml = daemonSet({
      metadata: { annotations: { 'ignore-check.node-services.cdk8s.io/sensitive-host-path-writable': reason } },
      container: { volumeMounts: [{ name: 'kubelet', mountPath: '/var/lib/kubelet' }] },
      volumes: [{ name: 'kubelet', hostPath: { path: '/var/lib/kubelet' } }],
    });
    const [first, second] = await twice(yaml);
    expect(first.report.unexplained).toBe(0);
    const code = moduleOf(first);
    expect(code).toContain(`ruleId: "sensitive-host-path-writable",\n          reason:\n            ${JSON.stringify(reason)},`);
    expect(code).not.toContain('/metadata/annotations/ignore-check');
    const ds = first.synthesized.find((o: any) => o.kind === 'DaemonSet') as any;
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/sensitive-host-path-writable']).toBe(reason);
    expect(moduleOf(second)).toBe(code);
  }, 60_000);

  test('GIVEN a kept object with fields before its metadata WHEN imported THEN the code writes apiVersion, kind and metadata first', async () => {
    const account = JSON.stringify({
      automountServiceAccountToken: false,
      kind: 'ServiceAccount',
      apiVersion: 'v1',
      metadata: { name: 'node-agent', namespace: 'monitoring' },
    });
    const [first, second] = await twice(
      `${account}\n---\n${daemonSet({ container: {} }).replace('"containers"', '"serviceAccountName":"node-agent","containers"')}`,
    );
    const code = [...first.files.values()].join('\n');
    expect(code).toMatch(/apiVersion: "v1",\s+kind: "ServiceAccount",\s+metadata: \{[^}]*\},\s+automountServiceAccountToken: false,/);
    expect([...second.files.values()].join('\n').replace(/^ \* (Built with|Chose) .*$/gm, '')).toBe(
      code.replace(/^ \* (Built with|Chose) .*$/gm, ''),
    );
  }, 60_000);
});

describe('withResources', () => {
  /** A container with a prop of every group containerExpr writes: before resources and after it. */
  const CONTAINER = {
    name: 'agent',
    image: 'registry.example.com/node-agent:1.0.0',
    command: ['/agent'],
    env: [{ name: 'MODE', value: 'node' }],
    ports: [{ name: 'metrics', containerPort: 9100 }],
    volumeMounts: [{ name: 'logs', mountPath: '/var/log', readOnly: true }],
    readinessProbe: { httpGet: { path: '/ready', port: 9100 } },
    livenessProbe: { httpGet: { path: '/healthz', port: 9100 } },
    lifecycle: { preStop: { exec: { command: ['/agent', 'stop'] } } },
    securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] }, runAsUser: 0, runAsNonRoot: false },
  };
  const RESOURCES = { requests: { cpu: '250m', memory: '64Mi' }, limits: { memory: '128Mi' } };

  function containerOf(container: object): Expr {
    const ds = JSON.parse(daemonSet({ container, volumes: [{ name: 'logs', hostPath: { path: '/var/log' } }] }));
    const ctx = { file: FILE, kind: NodeServiceKind.GENERIC, kept: new Map(), numbers: new Constants() };
    const props = serviceProps(ds, ctx) as ObjectExpr;
    const containers = props.properties.find((p) => p.key === 'containers')!.value;
    return (containers as ArrayExpr).items[0];
  }

  test('GIVEN a mapped container without resources WHEN given them THEN the prop stands where the mapping writes it', () => {
    expect(withResources(containerOf(CONTAINER), RESOURCES)).toEqual(containerOf({ ...CONTAINER, resources: RESOURCES }));
  });

  test('GIVEN a container that has resources, or resources the typed prop cannot carry WHEN given them THEN nothing is added', () => {
    expect(withResources(containerOf({ ...CONTAINER, resources: RESOURCES }), RESOURCES)).toBeUndefined();
    expect(withResources(containerOf(CONTAINER), { requests: { cpu: '1' } })).toBeUndefined();
  });
});
