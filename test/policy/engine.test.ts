import fc from 'fast-check';
import { mergeConfigs, PolicyConfigError, resolveConfig, RuleLevel, ruleConfigFromValue } from '../../src/policy/config';
import { checkInputFingerprint, checkManifests, describeObject } from '../../src/policy/engine';
import { Severity } from '../../src/policy/types';
import { compliantDaemonSet, mainContainer, podOf } from './support';

const SUPPRESS = 'ignore-check.node-services.cdk8s.io/';

describe('checkManifests', () => {
  test('checks DaemonSets and counts everything else as skipped', () => {
    // GIVEN a DaemonSet between a ConfigMap, a Deployment, a scalar and null
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: {} };
    const manifests = [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, compliantDaemonSet(), deployment, 'text', null];
    // WHEN checked
    const report = checkManifests(manifests);
    // THEN only the DaemonSet is checked
    expect(report.checkedObjects).toBe(1);
    expect(report.skippedObjects).toBe(4);
    expect(report.findings).toEqual([]);
  });

  test('findings name the object, its index, the field, the message and the fix', () => {
    // GIVEN two DaemonSets, the second with a ':latest' image
    const bad = compliantDaemonSet();
    bad.metadata.name = 'vector';
    mainContainer(bad).image = 'timberio/vector:latest';
    // WHEN checked
    const report = checkManifests([compliantDaemonSet(), bad]);
    // THEN one error points at the second object's image
    expect(report.findings).toHaveLength(1);
    const [f] = report.findings;
    expect(f).toMatchObject({
      ruleId: 'image-not-pinned',
      severity: Severity.ERROR,
      category: 'reliability',
      objectIndex: 1,
      object: { apiVersion: 'apps/v1', kind: 'DaemonSet', namespace: 'logging', name: 'vector' },
      path: 'spec.template.spec.containers[0].image',
      suppressed: false,
    });
    expect(f.message).toContain('timberio/vector:latest');
    expect(f.fix).toMatch(/tag/);
    expect(report.errorCount).toBe(1);
    expect(describeObject(f.object)).toBe('DaemonSet logging/vector');
  });

  test('uses the Namespace objects of the same input for cross-object rules', () => {
    // GIVEN the DaemonSet's namespace without Pod Security labels, checked in the same list
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'logging' } };
    // WHEN checked together, and alone
    const together = checkManifests([ns, compliantDaemonSet()]);
    const alone = checkManifests([compliantDaemonSet()]);
    // THEN only the combined check reports the missing labels
    expect(together.findings.map((f) => f.ruleId)).toEqual(['namespace-pod-security-labels']);
    expect(alone.findings).toEqual([]);
  });

  test('objects of different kinds, declared or inferred, Linux or Windows, checked together get the findings each gets alone', () => {
    // GIVEN DaemonSets whose rules and severities differ by kind, by declaration and by OS, in one input
    const socket = (ds: any) => {
      podOf(ds).volumes.push({ name: 'sock', hostPath: { path: '/run/containerd/containerd.sock', type: 'Socket' } });
      mainContainer(ds).volumeMounts.push({ name: 'sock', mountPath: '/run/containerd/containerd.sock' });
      delete mainContainer(ds).resources.limits;
      delete mainContainer(ds).securityContext.readOnlyRootFilesystem;
      return ds;
    };
    const security = socket(compliantDaemonSet('security-agent'));
    const log = socket(compliantDaemonSet('log-agent'));
    const cni = socket(compliantDaemonSet('cni-plugin'));
    const inferred = socket(compliantDaemonSet());
    delete inferred.metadata.annotations;
    const windows = socket(compliantDaemonSet('security-agent'));
    podOf(windows).os = { name: 'windows' };
    delete podOf(windows).securityContext;
    const manifests = [
      security,
      log,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, dta: {} },
      cni,
      inferred,
      windows,
      log,
    ];
    // WHEN checked together, and each alone
    const together = checkManifests(manifests).findings;
    const alone = manifests.flatMap((m, i) => checkManifests([m]).findings.map((f) => ({ ...f, objectIndex: i })));
    // THEN the findings are the same, and they do differ between the objects
    expect(together).toEqual(alone);
    const of = (i: number) => together.filter((f) => f.objectIndex === i).map((f) => `${f.ruleId} ${f.severity}`);
    expect(new Set([0, 1, 3, 4, 5].map((i) => of(i).join()))).toHaveProperty('size', 5);
    expect(of(2)).toEqual(['unknown-field error']);
  });

  test('a hole in the input list is neither checked nor counted', () => {
    const manifests: any[] = [];
    manifests[1] = compliantDaemonSet();
    const report = checkManifests(manifests);
    expect([report.checkedObjects, report.skippedObjects, report.objects.map((o) => o.objectIndex)]).toEqual([1, 0, [1]]);
  });

  test('never throws on malformed DaemonSets', () => {
    // GIVEN DaemonSets whose fields hold arbitrary JSON values
    const anything = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(anything, anything, anything, anything, anything, (spec, pod, container, volumes, metadata) => {
        const shapes = [
          { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata, spec },
          { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'x' }, spec: { selector: {}, template: { spec: pod } } },
          {
            apiVersion: 'apps/v1',
            kind: 'DaemonSet',
            metadata: { name: 'x' },
            spec: { template: { spec: { containers: [container], volumes } } },
          },
        ];
        // WHEN checked THEN no rule fails on them
        const report = checkManifests(shapes);
        expect(report.findings.filter((f) => f.message.includes('could not check'))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('suppressions', () => {
  function writableStateDir() {
    // a generic node service: no kind whose allowlist grants the write
    const ds = compliantDaemonSet('node-service');
    podOf(ds).securityContext.runAsUser = 65534;
    podOf(ds).volumes.push({ name: 'state', hostPath: { path: '/var/lib/fluent-bit', type: 'DirectoryOrCreate' } });
    mainContainer(ds).volumeMounts.push({ name: 'state', mountPath: '/var/lib/fluent-bit' });
    return ds;
  }

  test('an annotation with a reason suppresses the rule, and the finding is still reported as suppressed', () => {
    // GIVEN a writable host path with a reasoned suppression
    const ds = writableStateDir();
    ds.metadata.annotations[`${SUPPRESS}host-path-writable`] = 'position database for tailed log files';
    // WHEN checked
    const report = checkManifests([ds]);
    // THEN the finding is marked suppressed with its reason and not counted as a warning
    expect(report.findings).toHaveLength(1);
    expect(report.findings[0]).toMatchObject({
      ruleId: 'host-path-writable',
      suppressed: true,
      suppressionReason: 'position database for tailed log files',
    });
    expect(report.warningCount).toBe(0);
    expect(report.suppressedCount).toBe(1);
  });

  test('a suppression of another rule does not hide the finding', () => {
    const ds = writableStateDir();
    ds.metadata.annotations[`${SUPPRESS}privileged-container`] = 'the driver needs device access';
    const report = checkManifests([ds]);
    expect(report.findings.map((f) => [f.ruleId, f.suppressed])).toEqual([['host-path-writable', false]]);
    expect(report.warningCount).toBe(1);
  });

  test('a reason shorter than 10 characters is refused: the finding stays and the suppression is an error', () => {
    // GIVEN a suppression whose reason is 'needed' (6 characters)
    const ds = writableStateDir();
    ds.metadata.annotations[`${SUPPRESS}host-path-writable`] = 'needed';
    // WHEN checked
    const report = checkManifests([ds]);
    // THEN the warning is not suppressed and invalid-suppression is an error
    expect(report.findings.map((f) => [f.ruleId, f.severity, f.suppressed])).toEqual([
      ['host-path-writable', Severity.WARNING, false],
      ['invalid-suppression', Severity.ERROR, false],
    ]);
    expect(report.errorCount).toBe(1);
  });

  test('API-validity findings cannot be suppressed', () => {
    // GIVEN an invalid label and an annotation trying to suppress label-invalid
    const ds = compliantDaemonSet();
    ds.metadata.labels.team = 'log team';
    ds.metadata.annotations[`${SUPPRESS}label-invalid`] = 'our tooling needs the space';
    // WHEN checked
    const report = checkManifests([ds]);
    // THEN the label finding stays an unsuppressed error, and the suppression itself is an error
    const byRule = Object.fromEntries(report.findings.map((f) => [f.ruleId, f]));
    expect(byRule['label-invalid']).toMatchObject({ severity: Severity.ERROR, suppressed: false });
    expect(byRule['invalid-suppression'].message).toMatch(/cannot be suppressed/);
    expect(report.suppressedCount).toBe(0);
  });

  test('invalid-suppression cannot suppress itself', () => {
    const ds = compliantDaemonSet();
    ds.metadata.annotations[`${SUPPRESS}no-such-rule`] = 'a long enough reason';
    ds.metadata.annotations[`${SUPPRESS}invalid-suppression`] = 'silence the unknown id above';
    const report = checkManifests([ds]);
    expect(report.findings.filter((f) => f.ruleId === 'invalid-suppression').map((f) => f.suppressed)).toEqual([false, false]);
  });
});

describe('rule configuration', () => {
  function warningsAndInfo() {
    const ds = compliantDaemonSet();
    delete mainContainer(ds).livenessProbe;
    delete mainContainer(ds).readinessProbe;
    return ds;
  }

  test('switches a rule off', () => {
    const report = checkManifests([warningsAndInfo()], { rules: { 'readiness-probe-missing': RuleLevel.OFF } });
    expect(report.findings.map((f) => f.ruleId)).toEqual(['liveness-probe-missing']);
  });

  test('raises a warning to an error and info to a warning', () => {
    const report = checkManifests([warningsAndInfo()], {
      rules: { 'readiness-probe-missing': RuleLevel.ERROR, 'liveness-probe-missing': RuleLevel.WARNING },
    });
    expect(report.findings.map((f) => [f.ruleId, f.severity]).sort()).toEqual([
      ['liveness-probe-missing', Severity.WARNING],
      ['readiness-probe-missing', Severity.ERROR],
    ]);
    expect([report.errorCount, report.warningCount, report.infoCount]).toEqual([1, 1, 0]);
  });

  test.each([
    [{ rules: { 'label-invalid': RuleLevel.OFF } }, /label-invalid.*cannot be set to 'off'.*API server/],
    [{ rules: { 'probe-invalid': RuleLevel.WARNING } }, /probe-invalid.*cannot be set to 'warning'/],
    [{ rules: { 'invalid-suppression': RuleLevel.OFF } }, /guards suppressions/],
    [{ rules: { 'host-path-writeable': RuleLevel.OFF } }, /unknown rule id 'host-path-writeable'.*did you mean 'host-path-writable'/],
    [{ rules: { 'host-path-writable': 'ignore' as RuleLevel } }, /host-path-writable: level 'ignore' is not one of off, warning, error/],
    [{ imageRegistries: ['registry.example.com/', ''] }, /imageRegistries\[1\]/],
  ])('refuses %j', (config, message) => {
    expect(() => resolveConfig(config)).toThrow(PolicyConfigError);
    expect(() => checkManifests([compliantDaemonSet()], config)).toThrow(message);
  });

  test('API-validity rules may be stated as error', () => {
    expect(() => resolveConfig({ rules: { 'label-invalid': RuleLevel.ERROR } })).not.toThrow();
  });

  test('reads a config file value and names the file in errors', () => {
    expect(ruleConfigFromValue({ rules: { 'liveness-probe-missing': 'off' }, imageRegistries: ['quay.io/'] }, 'lint.yaml')).toEqual({
      rules: { 'liveness-probe-missing': 'off' },
      imageRegistries: ['quay.io/'],
    });
    expect(ruleConfigFromValue(null, 'empty.yaml')).toEqual({});
    expect(() => ruleConfigFromValue({ rule: {} }, 'lint.yaml')).toThrow(/lint.yaml: unknown key 'rule'/);
    expect(() => ruleConfigFromValue(['x'], 'lint.yaml')).toThrow(/lint.yaml: must be a mapping/);
    expect(() => ruleConfigFromValue({ rules: ['off'] }, 'lint.yaml')).toThrow(/'rules' must map rule ids/);
    expect(() => ruleConfigFromValue({ rules: { nope: 'off' } }, 'lint.yaml')).toThrow(/lint.yaml: rules: unknown rule id 'nope'/);
  });

  test('merges configurations: later levels win, registries are joined', () => {
    const merged = mergeConfigs(
      { rules: { 'liveness-probe-missing': RuleLevel.OFF, 'host-path-writable': RuleLevel.ERROR }, imageRegistries: ['a.example.com/'] },
      { rules: { 'host-path-writable': RuleLevel.WARNING }, imageRegistries: ['b.example.com/', 'a.example.com/'] },
    );
    expect(merged).toEqual({
      rules: { 'liveness-probe-missing': 'off', 'host-path-writable': 'warning' },
      imageRegistries: ['a.example.com/', 'b.example.com/'],
    });
  });
});

describe('RuleCatalogue and PolicyEngine (class API)', () => {
  test('expose the catalogue as data and run the same checks', () => {
    const { RuleCatalogue, PolicyEngine } = require('../../src/policy/engine') as typeof import('../../src/policy/engine');
    const all = RuleCatalogue.all();
    expect(all.length).toBeGreaterThanOrEqual(35);
    expect(Object.keys(all[0]).sort()).toEqual([
      'category',
      'configurable',
      'example',
      'fix',
      'id',
      'kindSeverities',
      'linuxOnly',
      'rationale',
      'severity',
      'suppressible',
      'title',
    ]);
    expect(RuleCatalogue.find('host-path-not-allowed')).toMatchObject({ severity: 'error', category: 'host-access', suppressible: true });
    expect(RuleCatalogue.find('nope')).toBeUndefined();
    const ds = compliantDaemonSet();
    mainContainer(ds).image = 'fluent/fluent-bit';
    expect(PolicyEngine.check([ds]).findings.map((f) => f.ruleId)).toEqual(['image-not-pinned']);
  });
});

/** Whether two values are the same as the rules see them: same types, keys in the same order, -0/NaN/holes told apart. */
function sameInput(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a !== 'object' || a === null || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (i in a !== i in other) return false;
      if (i in a && !sameInput(a[i], other[i])) return false;
    }
    return true;
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameInput((a as any)[k], (b as any)[k]));
}

/** A copy built from scratch in this realm: new arrays (holes kept) and objects (prototype kept), same primitives. */
function rebuild(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) if (i in value) out[i] = rebuild(value[i]);
    return out;
  }
  const out = Object.create(Object.getPrototypeOf(value));
  for (const key of Object.keys(value)) out[key] = rebuild((value as any)[key]);
  return out;
}

/** Small JSON-like values over a tiny alphabet, so that generated pairs are often equal and often nearly equal. */
const smallValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<unknown>(0, -0, 1, 1.5, NaN, Infinity, '', 'a', 'b', 'ab', '1', ':', '"', '\\', 'é', true, false, null, undefined),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.sparseArray(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'ab', '1', '', '"'), tie('value'), { maxKeys: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b'), tie('value'), { maxKeys: 2, noNullPrototype: false }),
  ),
})).value;

describe('checkInputFingerprint', () => {
  test('when both inputs have one, the fingerprints are equal exactly when the rules would see the same input', () => {
    fc.assert(
      fc.property(smallValue, smallValue, (a, b) => {
        const fa = checkInputFingerprint([a], undefined);
        const fb = checkInputFingerprint([b], undefined);
        fc.pre(fa !== undefined && fb !== undefined);
        expect(fa === fb).toBe(sameInput(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  test('a value and a separately built copy of it get the same fingerprint, or none at all', () => {
    fc.assert(
      fc.property(smallValue, (a) => {
        expect(checkInputFingerprint([a], undefined)).toBe(checkInputFingerprint([rebuild(a)], undefined));
      }),
      { numRuns: 1000 },
    );
  });

  test.each([
    ['string boundaries', ['ab', 'c'], ['a', 'bc']],
    ['strings containing quotes', ['a","b'], ['a', 'b']],
    ['key order', { a: 1, b: 2 }, { b: 2, a: 1 }],
    ['a number and its text', 1, '1'],
    ['an empty map and an empty list', {}, []],
    ['null and a missing entry', [null], []],
  ])('tells apart %s', (_what, a, b) => {
    const fa = checkInputFingerprint([a], undefined);
    expect(fa).toBeDefined();
    expect(fa).not.toBe(checkInputFingerprint([b], undefined));
  });

  test('is equal for a separately built copy, and differs after any one change to a DaemonSet', () => {
    // GIVEN a DaemonSet and a copy built from scratch
    const original = checkInputFingerprint([compliantDaemonSet()], {});
    // WHEN compared with the copy, and with copies changed in one field each
    const changes: Array<(ds: any) => void> = [
      (ds) => (mainContainer(ds).image = 'fluent/fluent-bit:latest'),
      (ds) => (ds.metadata.labels['app.kubernetes.io/version'] = '3.0.8'),
      (ds) => (podOf(ds).volumes[0].hostPath.type = 'DirectoryOrCreate'),
      (ds) => (mainContainer(ds).ports[0].containerPort = '2020'),
      (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxSurge: 0, maxUnavailable: 1 }),
      (ds) => (ds.metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable'] = 'reason long enough'),
    ];
    // THEN the copy has the same fingerprint and every changed copy another one
    expect(original).toBeDefined();
    expect(checkInputFingerprint([compliantDaemonSet()], {})).toBe(original);
    for (const change of changes) {
      const ds = compliantDaemonSet();
      change(ds);
      expect(checkInputFingerprint([ds], {})).not.toBe(original);
    }
  });

  test('covers the configuration', () => {
    const manifests = [compliantDaemonSet()];
    const plain = checkInputFingerprint(manifests, {});
    expect(checkInputFingerprint(manifests, { rules: { 'liveness-probe-missing': RuleLevel.OFF } })).not.toBe(plain);
    expect(checkInputFingerprint(manifests, { imageRegistries: ['cr.fluentbit.io/'] })).not.toBe(plain);
  });

  test.each([
    ['-0', () => -0],
    ['NaN', () => NaN],
    ['Infinity', () => Infinity],
    ['undefined', () => undefined],
    ['an array hole', () => [, 1]], // eslint-disable-line no-sparse-arrays
    ['a bigint', () => BigInt(1)],
    ['a class instance', () => new Date(0)],
    ['an object without prototype', () => Object.create(null)],
    ['a function', () => () => 'value'],
    ['a symbol', () => Symbol('value')],
    ['a non-enumerable property', () => Object.defineProperty({}, 'hostPath', { value: { path: '/' }, enumerable: false })],
    [
      'a getter that throws',
      () =>
        Object.defineProperty({}, 'name', {
          get: () => {
            throw new Error('no');
          },
          enumerable: true,
        }),
    ],
    [
      'a cycle',
      () => {
        const o: any = {};
        o.self = o;
        return o;
      },
    ],
  ])('has none for input containing %s, so that such input is always checked afresh', (_what, make) => {
    const ds = compliantDaemonSet();
    ds.spec.template.spec.extra = make();
    expect(checkInputFingerprint([ds], {})).toBeUndefined();
  });
});

describe('kind inference', () => {
  const { inferKind, resolveKind } = require('../../src/policy/kind-inference') as typeof import('../../src/policy/kind-inference');
  const { KIND_ANNOTATION } = require('../../src/policy/kinds') as typeof import('../../src/policy/kinds');
  const ds = (pod: any) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'x' }, spec: { template: { spec: pod } } });
  const vol = (name: string, p: string) => ({ name, hostPath: { path: p } });
  /** A pod that mounts each host path writable (`mounts`) into one container. */
  const writes = (pod: any, ...paths: string[]) => ({
    ...pod,
    volumes: paths.map((p, i) => vol(`w${i}`, p)),
    containers: [{ name: 'w', volumeMounts: paths.map((_, i) => ({ name: `w${i}`, mountPath: `/w${i}` })) }],
  });

  test.each([
    [
      'a node-driver-registrar sidecar',
      { containers: [{ name: 'd', image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.13.0' }] },
      'csi-node',
    ],
    ['writing the kubelet plugin registry', writes({}, '/var/lib/kubelet/plugins_registry/'), 'csi-node'],
    [
      'Bidirectional propagation with /dev',
      {
        volumes: [vol('d', '/dev'), vol('s', '/var/lib/longhorn')],
        containers: [{ name: 'm', volumeMounts: [{ name: 's', mountPath: '/s', mountPropagation: 'Bidirectional' }] }],
      },
      'csi-node',
    ],
    ['writing the device-plugin directory', writes({}, '/var/lib/kubelet/device-plugins'), 'device-plugin'],
    ['the kube-proxy image', { containers: [{ name: 'p', image: 'registry.k8s.io/kube-proxy:v1.28.15' }] }, 'kube-proxy'],
    ['host network writing /etc/cni/net.d', writes({ hostNetwork: true }, '/etc/cni/net.d'), 'cni-plugin'],
    [
      'a CNI agent image on the host network (Windows, no CNI paths)',
      { hostNetwork: true, containers: [{ name: 'a', image: 'antrea/antrea-windows:v2.2.0' }] },
      'cni-plugin',
    ],
    ['pod-resources', { volumes: [vol('p', '/var/lib/kubelet/pod-resources')] }, 'gpu-monitor'],
    ['kernel tracing', { volumes: [vol('t', '/sys/kernel/tracing')] }, 'security-agent'],
    ['/var/log', { volumes: [vol('l', '/var/log')] }, 'log-agent'],
    ['the host root', { volumes: [vol('r', '/')] }, 'monitoring-agent'],
  ])('%s → %s', (_name, pod, kind) => {
    expect(inferKind(ds(pod))?.kind).toBe(kind);
  });

  test('/opt/cni/bin without the host network is not a CNI (a compliance scanner reads it)', () => {
    expect(inferKind(ds(writes({}, '/opt/cni/bin')))).toBeUndefined();
  });

  test.each([
    ['/opt/cni/bin on the host network', { hostNetwork: true }, '/opt/cni/bin'],
    ['the kubelet plugin registry', {}, '/var/lib/kubelet/plugins_registry'],
    ['the device-plugin directory', {}, '/var/lib/kubelet/device-plugins'],
  ])('reading %s (or declaring the volume without mounting it) infers no kind that writes it', (_what, pod, p) => {
    const readOnly = ds({
      ...pod,
      volumes: [vol('v', p)],
      containers: [{ name: 'r', volumeMounts: [{ name: 'v', mountPath: '/v', readOnly: true }] }],
    });
    expect(inferKind(readOnly)).toBeUndefined();
    expect(inferKind(ds({ ...pod, volumes: [vol('v', p)] }))).toBeUndefined();
  });

  test('a kind shown by an image or command is marked byImage, one shown by host paths is not', () => {
    const registrar = { containers: [{ name: 'd', image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.13.0' }] };
    expect(inferKind(ds(registrar))).toMatchObject({ kind: 'csi-node', byImage: true });
    expect(inferKind(ds({ hostNetwork: true, containers: [{ name: 'a', image: 'quay.io/cilium/cilium:v1.16.0' }] }))).toMatchObject({
      kind: 'cni-plugin',
      byImage: true,
    });
    expect(inferKind(ds(writes({ hostNetwork: true }, '/opt/cni/bin')))).toMatchObject({ kind: 'cni-plugin', byImage: false });
  });

  test('the annotation overrides the shape; an unknown annotation value falls back to inference', () => {
    const cni = ds(writes({ hostNetwork: true }, '/etc/cni/net.d')) as any;
    cni.metadata.annotations = { [KIND_ANNOTATION]: 'security-agent' };
    expect(resolveKind(cni)).toEqual({ kind: 'security-agent', source: 'annotation', evidence: '', byImage: false });
    cni.metadata.annotations = { [KIND_ANNOTATION]: 'router' };
    expect(resolveKind(cni)).toMatchObject({ kind: 'cni-plugin', source: 'inferred' });
    expect(resolveKind(ds({}))).toEqual({ kind: 'node-service', source: 'default', evidence: '', byImage: false });
  });

  test('an inferred kind gets no allowlist and no allowance; the declared kind adds its allowlist and its allowances', () => {
    // GIVEN a CNI-shaped manifest that also mounts a path outside the CNI allowlist
    const cni = ds({
      hostNetwork: true,
      volumes: [
        { name: 'c', hostPath: { path: '/etc/cni/net.d', type: 'Directory' } },
        { name: 'x', hostPath: { path: '/srv/data', type: 'Directory' } },
      ],
      containers: [
        {
          name: 'a',
          image: 'example/cni:1.0',
          resources: { requests: { cpu: '100m', memory: '64Mi' } },
          volumeMounts: [
            { name: 'c', mountPath: '/c' },
            { name: 'x', mountPath: '/x', readOnly: true },
          ],
        },
      ],
    }) as any;
    cni.spec.selector = { matchLabels: { app: 'x' } };
    cni.spec.template.metadata = { labels: { app: 'x' } };
    const inferred = checkManifests([cni]);
    // THEN inferred: no allowlist finding, and the missing memory limit (deliberate for a declared CNI) stays a
    // warning that says how to declare the kind
    expect(inferred.findings.map((f) => f.ruleId)).not.toContain('host-path-not-allowed');
    const limit = inferred.findings.find((f) => f.ruleId === 'memory-limit-missing');
    expect(limit?.severity).toBe('warning');
    expect(limit?.message).toContain(`declare it with the annotation ${KIND_ANNOTATION}: cni-plugin`);
    cni.metadata.annotations = { [KIND_ANNOTATION]: 'cni-plugin' };
    const declared = checkManifests([cni]);
    expect(declared.findings.find((f) => f.ruleId === 'memory-limit-missing')?.severity).toBe('info');
    expect(declared.findings.filter((f) => f.ruleId === 'host-path-not-allowed').map((f) => f.message)).toEqual([
      expect.stringMatching(/'\/srv\/data'/),
    ]);
  });
});
