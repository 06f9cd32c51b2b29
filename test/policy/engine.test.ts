import fc from 'fast-check';
import { mergeConfigs, PolicyConfigError, resolveConfig, RuleLevel, ruleConfigFromValue } from '../../src/policy/config';
import { checkManifests, describeObject } from '../../src/policy/engine';
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

  test('never throws on malformed DaemonSets', () => {
    // GIVEN DaemonSets whose fields hold arbitrary JSON values
    const anything = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(anything, anything, anything, anything, anything, (spec, pod, container, volumes, metadata) => {
        const shapes = [
          { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata, spec },
          { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'x' }, spec: { selector: {}, template: { spec: pod } } },
          { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'x' }, spec: { template: { spec: { containers: [container], volumes } } } },
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
    const ds = compliantDaemonSet();
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
    expect(report.findings[0]).toMatchObject({ ruleId: 'host-path-writable', suppressed: true, suppressionReason: 'position database for tailed log files' });
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
    expect(Object.keys(all[0]).sort()).toEqual(['category', 'configurable', 'example', 'fix', 'id', 'rationale', 'severity', 'suppressible', 'title']);
    expect(RuleCatalogue.find('host-path-not-allowed')).toMatchObject({ severity: 'error', category: 'host-access', suppressible: true });
    expect(RuleCatalogue.find('nope')).toBeUndefined();
    const ds = compliantDaemonSet();
    mainContainer(ds).image = 'fluent/fluent-bit';
    expect(PolicyEngine.check([ds]).findings.map((f) => f.ruleId)).toEqual(['image-not-pinned']);
  });
});
