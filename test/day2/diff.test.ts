import * as fs from 'fs';
import * as path from 'path';
import { ChangeKind, diffManifests, diffMatches, isConfigHashAnnotation } from '../../src/day2/diff';
import { formatDiffMarkdown, formatDiffText } from '../../src/day2/format';
import { daemonSet, inputs, node } from './support';
// The coverage analysis asks the rule catalogue whether the API server accepts a DaemonSet, as the package provides it.
import '../../src/policy/api-validity';

const copy = (o: any) => JSON.parse(JSON.stringify(o));

describe('diffManifests: change kinds', () => {
  test('GIVEN added, removed and unchanged DaemonSets THEN each is classified and unchanged ones are counted', () => {
    const kept = daemonSet({ name: 'kept' });
    const report = diffManifests(inputs(kept, daemonSet({ name: 'gone' })), inputs(kept, daemonSet({ name: 'new' })));
    expect(report.daemonSets.map((d) => [d.name, d.change])).toEqual([
      ['new', ChangeKind.ADDED],
      ['gone', ChangeKind.REMOVED],
    ]);
    expect(report.unchanged).toBe(1);
  });

  test('GIVEN a new image THEN a rollout with the changed field, containers keyed by name', () => {
    const report = diffManifests(inputs(daemonSet()), inputs(daemonSet({ image: 'registry.example.com/agent:1.1.0' })));
    const d = report.daemonSets[0];
    expect(d.change).toBe(ChangeKind.ROLLOUT);
    expect(d.changes).toEqual([
      {
        path: 'spec.template.spec.containers[agent].image',
        old: 'registry.example.com/agent:1.0.0',
        new: 'registry.example.com/agent:1.1.0',
      },
    ]);
    expect(d.selectorChanged).toBe(false);
  });

  test('GIVEN only a config hash annotation moved THEN the change is configuration only; with anything else it is a rollout', () => {
    const before = daemonSet({ podAnnotations: { 'checksum/config': 'a', [`node-services.cdk8s.io/config-hash`]: 'x' } });
    const hashOnly = daemonSet({ podAnnotations: { 'checksum/config': 'b', [`node-services.cdk8s.io/config-hash`]: 'y' } });
    expect(diffManifests(inputs(before), inputs(hashOnly)).daemonSets[0].change).toBe(ChangeKind.CONFIG);
    const more = daemonSet({ image: 'x:2', podAnnotations: { 'checksum/config': 'b' } });
    expect(diffManifests(inputs(before), inputs(more)).daemonSets[0].change).toBe(ChangeKind.ROLLOUT);
    expect(['checksum/secret', 'node-services.cdk8s.io/config-hash', 'config-hash'].map(isConfigHashAnnotation)).toEqual([
      true,
      true,
      false,
    ]);
  });

  test('GIVEN only the update strategy changed THEN no rollout; server-owned fields are ignored', () => {
    const before = daemonSet();
    const after = daemonSet({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } } });
    after.status = { desiredNumberScheduled: 3 };
    after.metadata.resourceVersion = '42';
    const d = diffManifests(inputs(before), inputs(after)).daemonSets[0];
    expect(d.change).toBe(ChangeKind.METADATA);
    expect(d.changes.map((c) => c.path)).toEqual(['spec.updateStrategy']);
    const live = copy(before);
    live.status = { numberReady: 1 };
    live.metadata.generation = 7;
    expect(diffManifests(inputs(before), inputs(live)).unchanged).toBe(1);
  });

  test('GIVEN a selector change THEN it is flagged (the API server refuses it)', () => {
    const after = daemonSet();
    after.spec.selector = { matchLabels: { 'app.kubernetes.io/name': 'agent', 'app.kubernetes.io/version': '2' } };
    after.spec.template.metadata.labels['app.kubernetes.io/version'] = '2';
    const report = diffManifests(inputs(daemonSet()), inputs(after));
    expect(report.daemonSets[0].selectorChanged).toBe(true);
    expect(diffMatches(report, ['selector'])).toBe(true);
    expect(diffMatches(report, ['widening', 'removed'])).toBe(false);
  });

  test('GIVEN an added canary THEN its access is compared with the old version of its stable DaemonSet', () => {
    const stable = daemonSet({ spec: { hostPID: true } });
    const canary = daemonSet({
      name: 'agent-canary',
      annotations: { 'node-services.cdk8s.io/canary-of': 'agent' },
      spec: { hostPID: true },
    });
    expect(diffManifests(inputs(stable), inputs(stable, canary)).daemonSets[0].widenings).toEqual([]);
    const wider = daemonSet({
      name: 'agent-canary',
      annotations: { 'node-services.cdk8s.io/canary-of': 'agent' },
      spec: { hostPID: true, hostIPC: true },
    });
    expect(diffManifests(inputs(stable), inputs(stable, wider)).daemonSets[0].widenings.map((w) => w.path)).toEqual([
      'spec.template.spec.hostIPC',
    ]);
    // AND without its stable in the old input, all of its access is new
    expect(diffManifests(inputs(), inputs(canary)).daemonSets[0].widenings).toHaveLength(1);
  });

  test('GIVEN keys named like Object.prototype members THEN they compare as the own fields they are', () => {
    const after = daemonSet();
    after.spec.selector = { valueOf: false, constructor: 'x' };
    const d = diffManifests(inputs(daemonSet()), inputs(after)).daemonSets[0];
    expect(d.changes.filter((c) => c.path.startsWith('spec.selector'))).toEqual([
      { path: 'spec.selector.constructor', old: undefined, new: 'x' },
      { path: 'spec.selector.matchLabels', old: { 'app.kubernetes.io/name': 'agent' }, new: undefined },
      { path: 'spec.selector.valueOf', old: undefined, new: false },
    ]);
  });

  test('GIVEN DaemonSets with the same name in different namespaces THEN they are different DaemonSets', () => {
    const report = diffManifests(inputs(daemonSet({ namespace: 'a' })), inputs(daemonSet({ namespace: 'b' })));
    expect(report.daemonSets.map((d) => `${d.namespace}/${d.change}`)).toEqual(['b/added', 'a/removed']);
  });
});

describe('diffManifests: configuration the pods use', () => {
  const cm = (data: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'agent-config', namespace: 'ops' },
    data,
  });
  const secret = (data: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'agent-token', namespace: 'ops' },
    data,
  });
  const ds = daemonSet({
    spec: { volumes: [{ name: 'config', configMap: { name: 'agent-config' } }] },
    container: { env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'agent-token', key: 'token' } } }] },
  });

  test('GIVEN a mounted ConfigMap and an env Secret that changed without a template change THEN both are listed and no pod restarts', () => {
    const report = diffManifests(
      inputs(ds, cm({ a: '1' }), secret({ token: 'eA==' })),
      inputs(ds, cm({ a: '2' }), secret({ token: 'eQ==' })),
    );
    const d = report.daemonSets[0];
    expect([d.change, d.configChanged, d.changes]).toEqual([ChangeKind.METADATA, ['ConfigMap agent-config', 'Secret agent-token'], []]);
  });

  test('GIVEN the same data, or a ConfigMap of another namespace THEN nothing is reported', () => {
    expect(diffManifests(inputs(ds, cm({ a: '1' })), inputs(ds, cm({ a: '1' }))).unchanged).toBe(1);
    const elsewhere = { ...cm({ a: '2' }), metadata: { name: 'agent-config', namespace: 'other' } };
    expect(diffManifests(inputs(ds, { ...elsewhere, data: { a: '1' } }), inputs(ds, elsewhere)).unchanged).toBe(1);
  });
});

describe('diffManifests: nodes per pool', () => {
  const cluster = [
    node('g1', { labels: { 'eks.amazonaws.com/nodegroup': 'general' } }),
    node('g2', { labels: { 'eks.amazonaws.com/nodegroup': 'general' } }),
    node('gpu1', { labels: { 'eks.amazonaws.com/nodegroup': 'gpu', gpu: 'true' } }),
    node('cp', {
      labels: { 'node-role.kubernetes.io/control-plane': '' },
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    }),
  ];

  test('GIVEN a rollout that also adds the control plane THEN restarts per pool and the start on the new node', () => {
    const after = daemonSet({
      image: 'x:2',
      spec: { tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] },
    });
    const d = diffManifests(inputs(daemonSet()), inputs(after), { nodes: cluster }).daemonSets[0];
    expect(d.nodes).toEqual({
      restart: [
        { pool: 'eks.amazonaws.com/nodegroup=general', nodes: ['g1', 'g2'] },
        { pool: 'eks.amazonaws.com/nodegroup=gpu', nodes: ['gpu1'] },
      ],
      start: [{ pool: 'node-role.kubernetes.io/control-plane', nodes: ['cp'] }],
      stop: [],
    });
  });

  test('GIVEN a narrower nodeSelector and --group-by THEN the dropped nodes stop, grouped by that label', () => {
    const after = daemonSet({ spec: { nodeSelector: { gpu: 'true' } } });
    const d = diffManifests(inputs(daemonSet()), inputs(after), { nodes: cluster, groupBy: 'gpu' }).daemonSets[0];
    expect(d.nodes?.restart).toEqual([{ pool: 'gpu=true', nodes: ['gpu1'] }]);
    expect(d.nodes?.stop).toEqual([{ pool: '(no gpu label)', nodes: ['g1', 'g2'] }]);
  });

  test('GIVEN only metadata changed THEN no node list', () => {
    const after = daemonSet({ annotations: { owner: 'team' } });
    expect(diffManifests(inputs(daemonSet()), inputs(after), { nodes: cluster }).daemonSets[0].nodes).toBeUndefined();
  });
});

describe('diffManifests on the examples app', () => {
  const read = (dir: string) => {
    // The fixtures are the examples' synthesized output before and after a change (see test/fixtures/day2/README.md).
    const { parseObjects } = require('../../src/cli/io') as typeof import('../../src/cli/io');
    const full = path.join(__dirname, '..', 'fixtures', 'day2', dir);
    return fs
      .readdirSync(full)
      .sort()
      .flatMap((f) => parseObjects(fs.readFileSync(path.join(full, f), 'utf8'), f));
  };

  test('GIVEN the config change, the image bump and the new RBAC verb THEN each DaemonSet is classified', () => {
    const report = diffManifests(read('examples-old'), read('examples-new'));
    expect(report.daemonSets.map((d) => [d.name, d.change, d.widenings.map((w) => w.category)])).toEqual([
      ['fluent-bit', ChangeKind.CONFIG, []],
      ['node-exporter', ChangeKind.ROLLOUT, []],
      ['ebs-csi-node', ChangeKind.METADATA, ['rbac']],
    ]);
    expect(report.unchanged).toBe(3);
  });
});

describe('diffManifests: lists with keys', () => {
  const CP = { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' };
  const GPU = { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' };

  test('GIVEN one toleration added in front THEN one toleration added (a rollout), in the report and its text', () => {
    const before = daemonSet({ spec: { tolerations: [CP] } });
    const after = daemonSet({ spec: { tolerations: [GPU, CP] } });
    const report = diffManifests(inputs(before), inputs(after));
    const d = report.daemonSets[0];
    expect(d.change).toBe(ChangeKind.ROLLOUT);
    expect(d.changes).toEqual([
      { path: 'spec.template.spec.tolerations[key=nvidia.com/gpu,operator=Exists,effect=NoSchedule]', old: undefined, new: GPU },
    ]);
    const text = formatDiffText(report);
    expect(text).toContain(
      '  + spec.template.spec.tolerations[key=nvidia.com/gpu,operator=Exists,effect=NoSchedule]: {"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}',
    );
    expect(text).not.toContain('tolerations[0]');
  });

  test('GIVEN a removed env var THEN a "-" line under its name', () => {
    const env = [
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ];
    const report = diffManifests(inputs(daemonSet({ container: { env } })), inputs(daemonSet({ container: { env: [env[1]] } })));
    expect(formatDiffText(report)).toContain('  - spec.template.spec.containers[agent].env[A]: {"name":"A","value":"1"}');
  });

  test('GIVEN only the tolerations reordered THEN a rollout shown as a reorder whose order means nothing to Kubernetes', () => {
    const report = diffManifests(
      inputs(daemonSet({ spec: { tolerations: [CP, GPU] } })),
      inputs(daemonSet({ spec: { tolerations: [GPU, CP] } })),
    );
    expect(report.unchanged).toBe(0);
    expect(report.daemonSets[0].change).toBe(ChangeKind.ROLLOUT);
    const text = formatDiffText(report);
    expect(text).toMatch(
      / {2}~ spec\.template\.spec\.tolerations: reordered \[.*\] → \[.*\] \(any matching toleration tolerates a taint, whatever its place, but the pod template changed, so the pods are replaced\)/,
    );
    const md = formatDiffMarkdown(report);
    expect(md).toContain('- reordered `spec.template.spec.tolerations`: any matching toleration');
  });

  test('GIVEN only the env reordered THEN a reorder that says why the order matters', () => {
    const env = [
      { name: 'HOST', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      { name: 'URL', value: 'http://$(HOST):2020' },
    ];
    const report = diffManifests(inputs(daemonSet({ container: { env } })), inputs(daemonSet({ container: { env: [env[1], env[0]] } })));
    expect(formatDiffText(report)).toContain(
      '~ spec.template.spec.containers[agent].env: reordered ["HOST","URL"] → ["URL","HOST"] (the order matters: $(VAR) references expand only variables defined earlier',
    );
  });
});
