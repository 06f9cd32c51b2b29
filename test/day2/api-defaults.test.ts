import { ChangeKind, diffManifests } from '../../src/day2/diff';
import { formatDiffText } from '../../src/day2/format';
import { isApiDefault } from '../../src/k8s/api-defaults';
import { daemonSet, inputs } from './support';

/** The manifest as the API server stores it: every defaulted field written out (a `kubectl get -o yaml` dump). */
function stored(ds: any): any {
  const s = JSON.parse(JSON.stringify(ds));
  s.spec.revisionHistoryLimit = 10;
  s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } };
  s.spec.template.metadata.creationTimestamp = null;
  Object.assign(s.spec.template.spec, {
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
    securityContext: {},
    terminationGracePeriodSeconds: 30,
  });
  for (const c of s.spec.template.spec.containers) {
    Object.assign(c, {
      imagePullPolicy: 'IfNotPresent',
      resources: c.resources ?? {},
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    });
  }
  return s;
}

describe('diff of a stored DaemonSet against its manifest', () => {
  test('GIVEN a live dump with the API defaults written out WHEN diffed with the manifest it came from THEN nothing changed, and the text says how many defaults it set aside', () => {
    const manifest = daemonSet();
    const report = diffManifests(inputs(stored(manifest)), inputs(manifest));
    expect(report.daemonSets).toEqual([]);
    expect(report.unchanged).toBe(1);
    // revisionHistoryLimit, updateStrategy (one object), creationTimestamp, five pod fields, three container fields
    expect(report.apiDefaults).toBe(11);
    expect(formatDiffText(report)).toContain('11 fields stated on one side only at their Kubernetes default');
    // and the other way round
    expect(diffManifests(inputs(manifest), inputs(stored(manifest))).daemonSets).toEqual([]);
  });

  test('GIVEN no defaulted field on either side THEN the report carries no count', () => {
    const manifest = daemonSet();
    const report = diffManifests(inputs(manifest), inputs(manifest));
    expect(report.apiDefaults).toBeUndefined();
    expect(formatDiffText(report)).not.toContain('Kubernetes default');
  });

  test('GIVEN a default changed to another value THEN it is a rollout', () => {
    const manifest = daemonSet();
    const live = stored(manifest);
    live.spec.template.spec.terminationGracePeriodSeconds = 31;
    const [d] = diffManifests(inputs(live), inputs(manifest)).daemonSets;
    expect(d.change).toBe(ChangeKind.ROLLOUT);
    expect(d.changes.map((c) => c.path)).toEqual(['spec.template.spec.terminationGracePeriodSeconds']);
  });

  test('GIVEN an image without a tag THEN imagePullPolicy IfNotPresent is no default (the API server sets Always): a rollout', () => {
    const manifest = daemonSet();
    manifest.spec.template.spec.containers[0].image = 'registry.example.com/agent';
    const [d] = diffManifests(inputs(stored(manifest)), inputs(manifest)).daemonSets;
    expect(d.change).toBe(ChangeKind.ROLLOUT);
    expect(d.changes.map((c) => c.path)).toEqual([
      `spec.template.spec.containers[${manifest.spec.template.spec.containers[0].name}].imagePullPolicy`,
    ]);
  });

  test('GIVEN a pointer field written at its effective default (automountServiceAccountToken: true) THEN it is a change: the server stores it as written', () => {
    const manifest = daemonSet();
    const live = stored(manifest);
    live.spec.template.spec.automountServiceAccountToken = true;
    const [d] = diffManifests(inputs(live), inputs(manifest)).daemonSets;
    expect(d.change).toBe(ChangeKind.ROLLOUT);
  });
});

describe('isApiDefault', () => {
  const noImage = () => undefined;
  test.each([
    ['spec.template.spec.dnsPolicy', 'ClusterFirst', true],
    ['spec.template.spec.dnsPolicy', 'Default', false],
    ['spec.template.spec.containers[a].ports[8080/TCP].protocol', 'TCP', true],
    ['spec.template.spec.containers[a].securityContext.privileged', false, false],
    ['spec.template.spec.containers[a].resources', {}, true],
    ['spec.template.spec.containers[a].resources', { limits: {} }, false],
    ['spec.updateStrategy', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }, true],
    ['spec.updateStrategy', { type: 'OnDelete' }, false],
    ['spec.template.metadata.creationTimestamp', null, true],
    ['spec.template.spec.nodeName', null, false],
  ])('GIVEN %s = %j THEN %s', (path, value, expected) => {
    expect(isApiDefault(path, value, noImage)).toBe(expected);
  });

  test.each([
    ['registry.example.com/agent:1.2.3', true],
    ['registry.example.com/agent@sha256:' + 'a'.repeat(64), true],
    ['registry.example.com/agent:latest', false],
    ['registry.example.com/agent', false],
  ])('GIVEN the image %s THEN imagePullPolicy IfNotPresent is its default: %s', (image, expected) => {
    expect(isApiDefault('spec.template.spec.containers[a].imagePullPolicy', 'IfNotPresent', () => image)).toBe(expected);
  });
});
