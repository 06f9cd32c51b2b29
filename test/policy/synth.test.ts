import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Include, JsonPatch, Lazy, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { RuleLevel } from '../../src/policy/config';
import * as engine from '../../src/policy/engine';
import { IPolicyLogger, NodeServiceChecks, PolicyLoggers, Suppressions } from '../../src/policy/synth';
import { compliantDaemonSet, mainContainer } from './support';

class CollectingLogger implements IPolicyLogger {
  public readonly messages: string[] = [];
  public log(message: string): void {
    this.messages.push(message);
  }
}

function rawDaemonSet(scope: Construct, id: string, mutate: (ds: any) => void = () => undefined): ApiObject {
  const ds = compliantDaemonSet();
  ds.metadata.name = id;
  mutate(ds);
  return new ApiObject(scope, id, ds);
}

function expectSynthError(chart: Chart): string {
  try {
    Testing.synth(chart);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected synthesis to fail');
}

describe('NodeServiceChecks at synth', () => {
  test('an error in a raw ApiObject and in a cdk8s-plus DaemonSet fails Testing.synth with path, id and fix', () => {
    // GIVEN a raw DaemonSet with a ':latest' image and a cdk8s-plus DaemonSet with an untagged image
    const chart = Testing.chart();
    rawDaemonSet(chart, 'raw', (ds) => (mainContainer(ds).image = 'fluent/fluent-bit:latest'));
    new kplus.DaemonSet(chart, 'plus', { containers: [{ image: 'fluent/fluent-bit' }] });
    NodeServiceChecks.of(chart, { logger: PolicyLoggers.silent() });
    // WHEN synthesized
    const message = expectSynthError(chart);
    // THEN both errors name the construct path, the rule, the field and the fix
    expect(message).toContain(
      "[test/raw] image-not-pinned: container 'fluent-bit' image 'fluent/fluent-bit:latest' uses the mutable ':latest' tag, so every node may pull a different version at spec.template.spec.containers[0].image. Fix: Use a version tag",
    );
    expect(message).toMatch(
      /\[test\/plus\] image-not-pinned: container 'main' image 'fluent\/fluent-bit' has no tag or digest.* at spec\.template\.spec\.containers\[0\]\.image\. Fix: /,
    );
  });

  test('a reasoned suppression lets synthesis pass and is written into the manifest', () => {
    // GIVEN the same ':latest' image, suppressed on the construct with a reason
    const chart = Testing.chart();
    const ds = rawDaemonSet(chart, 'raw', (d) => (mainContainer(d).image = 'fluent/fluent-bit:latest'));
    Suppressions.add(ds, 'image-not-pinned', 'pinned by digest in the deploy pipeline');
    const checks = NodeServiceChecks.of(chart, { logger: PolicyLoggers.silent() });
    // WHEN synthesized
    const manifests = Testing.synth(chart);
    // THEN it passes, the annotation is in the output, and the report marks the finding suppressed
    expect(manifests[0].metadata.annotations['ignore-check.node-services.cdk8s.io/image-not-pinned']).toBe(
      'pinned by digest in the deploy pipeline',
    );
    const finding = checks.lastReport!.findings.find((f) => f.ruleId === 'image-not-pinned');
    expect(finding).toMatchObject({ suppressed: true, suppressionReason: 'pinned by digest in the deploy pipeline' });
  });

  test('checks DaemonSets brought in with Include', () => {
    // GIVEN a YAML file with a DaemonSet missing its selector, included into the chart
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-include-'));
    const file = path.join(dir, 'agent.yaml');
    const ds = compliantDaemonSet();
    delete ds.spec.selector;
    fs.writeFileSync(file, JSON.stringify(ds));
    const chart = Testing.chart();
    new Include(chart, 'vendor', { url: file });
    NodeServiceChecks.of(chart, { logger: PolicyLoggers.silent() });
    // WHEN synthesized THEN the included object's error names its construct path
    expect(expectSynthError(chart)).toMatch(/\[test\/vendor\/fluent-bit-daemonset-logging\] selector-invalid: spec\.selector is missing/);
  });

  test('warnings never fail synthesis and are printed once per synthesis, summarized per rule and object', () => {
    // GIVEN a DaemonSet with two writable host mounts (two findings of one warning rule)
    const chart = Testing.chart();
    rawDaemonSet(chart, 'raw', (ds) => {
      ds.metadata.annotations['node-services.cdk8s.io/kind'] = 'node-service';
      ds.spec.template.spec.securityContext.runAsUser = 65534;
      ds.spec.template.spec.volumes.push({ name: 'pos', hostPath: { path: '/var/lib/fluent-bit', type: 'DirectoryOrCreate' } });
      ds.spec.template.spec.volumes.push({ name: 'buffer', hostPath: { path: '/var/lib/fluent-bit-buffer', type: 'DirectoryOrCreate' } });
      mainContainer(ds).volumeMounts.push({ name: 'pos', mountPath: '/pos' }, { name: 'buffer', mountPath: '/buffer' });
    });
    const logger = new CollectingLogger();
    NodeServiceChecks.of(chart, { logger });
    // WHEN synthesized
    Testing.synth(chart);
    // THEN one summary is printed, counting both findings on one line
    expect(logger.messages).toHaveLength(1);
    expect(logger.messages[0]).toMatch(/^node-services: 2 policy warnings/);
    expect(logger.messages[0]).toContain('host-path-writable: DaemonSet logging/raw [test/raw] (2 findings)');
  });

  test('is registered once per App; later calls merge configuration', () => {
    // GIVEN checks obtained three times, the last one raising a warning rule to error
    const chart = Testing.chart();
    const other = new Chart(chart.node.root as Construct, 'other');
    rawDaemonSet(chart, 'raw', (ds) => delete mainContainer(ds).readinessProbe);
    const first = NodeServiceChecks.of(chart, { logger: PolicyLoggers.silent() });
    const second = NodeServiceChecks.of(other);
    const third = NodeServiceChecks.of(chart, {
      rules: { 'readiness-probe-missing': RuleLevel.ERROR },
      imageRegistries: ['cr.fluentbit.io/'],
    });
    // WHEN synthesized
    const message = expectSynthError(chart);
    // THEN it is one object, the raised rule fails synthesis, and the error appears once
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(first.config).toEqual({ rules: { 'readiness-probe-missing': 'error' }, imageRegistries: ['cr.fluentbit.io/'] });
    expect(message.match(/readiness-probe-missing/g)).toHaveLength(1);
  });

  test('an unusable configuration throws at once, naming the construct', () => {
    const chart = Testing.chart();
    expect(() => NodeServiceChecks.of(chart, { rules: { 'selector-invalid': RuleLevel.OFF } })).toThrow(
      /^\[test\] NodeServiceChecks: rules\.selector-invalid: cannot be set to 'off'/,
    );
  });

  test('DaemonSets that cannot be rendered are reported, not skipped', () => {
    const chart = Testing.chart();
    const broken = rawDaemonSet(chart, 'broken');
    broken.addJsonPatch({ op: 'remove', path: '/spec/missing' } as any);
    NodeServiceChecks.of(chart, { logger: PolicyLoggers.silent() });
    expect(expectSynthError(chart)).toMatch(/\[test\/broken\] node-services checks could not render this object/);
  });
});

/** A DaemonSet with one writable host mount (a warning finding), in a chart of its own. */
function warningDaemonSet(scope: Construct, id: string): ApiObject {
  return rawDaemonSet(scope, id, (ds) => {
    // a generic node service: no kind whose allowlist grants the write
    ds.metadata.annotations['node-services.cdk8s.io/kind'] = 'node-service';
    ds.spec.template.spec.securityContext.runAsUser = 65534;
    ds.spec.template.spec.volumes.push({ name: 'pos', hostPath: { path: '/var/lib/fluent-bit', type: 'DirectoryOrCreate' } });
    mainContainer(ds).volumeMounts.push({ name: 'pos', mountPath: '/pos' });
  });
}

/** An App with two charts (so cdk8s validates it three times per synthesis) and checks that count their runs. */
function twoChartApp(logger: IPolicyLogger): {
  app: App;
  first: Chart;
  second: Chart;
  checks: NodeServiceChecks;
  runs: () => number;
  checked: () => number;
} {
  const app = Testing.app();
  const first = new Chart(app, 'first', { namespace: 'logging' });
  const second = new Chart(app, 'second', { namespace: 'logging' });
  const checks = NodeServiceChecks.of(app, { logger });
  const validate = jest.spyOn(checks, 'validate');
  const check = jest.spyOn(engine, 'checkManifests');
  return { app, first, second, checks, runs: () => validate.mock.calls.length, checked: () => check.mock.calls.length };
}

function synthError(synthesize: () => unknown): string {
  try {
    synthesize();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected synthesis to fail');
}

describe('NodeServiceChecks across repeated validation runs', () => {
  afterEach(() => jest.restoreAllMocks());

  test('app.synthYaml() prints the warning summary once, although cdk8s validates the App once per chart plus once', () => {
    // GIVEN a warning finding in an App with two charts
    const logger = new CollectingLogger();
    const { app, first, second, runs } = twoChartApp(logger);
    warningDaemonSet(first, 'raw');
    rawDaemonSet(second, 'other');
    // WHEN the App is synthesized once
    app.synthYaml();
    // THEN the checks ran three times and the summary was printed once
    expect(runs()).toBe(3);
    expect(logger.messages).toHaveLength(1);
    expect(logger.messages[0]).toContain('host-path-writable: DaemonSet logging/raw [first/raw]');
  });

  test('app.synth() prints one summary per synthesis, also when synthesis fails on an error', () => {
    // GIVEN an App writing to a temporary folder, with a warning finding
    const logger = new CollectingLogger();
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-synth-'));
    const app = new App({ outdir });
    const chart = new Chart(app, 'agents', { namespace: 'logging' });
    warningDaemonSet(chart, 'raw');
    NodeServiceChecks.of(app, { logger });
    // WHEN it is synthesized twice, then once more after an error is introduced
    app.synth();
    app.synth();
    rawDaemonSet(chart, 'broken', (ds) => (mainContainer(ds).image = 'fluent/fluent-bit:latest'));
    const message = synthError(() => app.synth());
    // THEN each of the three syntheses printed exactly one summary, and the failing one still reported its error
    expect(logger.messages).toHaveLength(3);
    expect(message).toContain('[agents/broken] image-not-pinned');
  });

  test('an App whose methods cannot be replaced still synthesizes and prints its warnings', () => {
    // GIVEN a frozen App with a warning finding
    const logger = new CollectingLogger();
    const app = Testing.app();
    warningDaemonSet(new Chart(app, 'agents', { namespace: 'logging' }), 'raw');
    Object.freeze(app);
    NodeServiceChecks.of(app, { logger });
    // WHEN it is synthesized THEN the output is produced and the warning printed (once per validation run)
    expect(app.synthYaml()).toContain('kind: DaemonSet');
    expect(logger.messages.length).toBeGreaterThanOrEqual(1);
    expect(logger.messages.every((m) => m.includes('host-path-writable: DaemonSet logging/raw [agents/raw]'))).toBe(true);
  });

  test('the rules run once per synthesis while the rendered manifests stay unchanged', () => {
    // GIVEN an App with two charts
    const { app, first, second, runs, checked } = twoChartApp(PolicyLoggers.silent());
    rawDaemonSet(first, 'a');
    rawDaemonSet(second, 'b');
    // WHEN it is synthesized twice without changes
    app.synthYaml();
    app.synthYaml();
    // THEN the checks ran six times, the rule catalogue once
    expect(runs()).toBe(6);
    expect(checked()).toBe(1);
  });

  test('a synthesis that is not followed by another computes no input fingerprint; later ones compare with the last', () => {
    // GIVEN an App with a DaemonSet, the fingerprint function observed
    const { app, first, checked } = twoChartApp(PolicyLoggers.silent());
    rawDaemonSet(first, 'a');
    const fingerprint = jest.spyOn(engine, 'checkInputFingerprint');
    // WHEN synthesized once THEN the rules ran and no fingerprint was taken
    app.synthYaml();
    expect([checked(), fingerprint.mock.calls.length]).toEqual([1, 0]);
    // WHEN synthesized again unchanged THEN both runs' inputs were fingerprinted once and the report reused
    app.synthYaml();
    expect([checked(), fingerprint.mock.calls.length]).toEqual([1, 2]);
    // WHEN synthesized a third time THEN only the new run's inputs are fingerprinted
    app.synthYaml();
    expect([checked(), fingerprint.mock.calls.length]).toEqual([1, 3]);
  });

  test.each([
    [
      'a JSON patch',
      (ds: ApiObject) => ds.addJsonPatch(JsonPatch.replace('/spec/template/spec/containers/0/image', 'fluent/fluent-bit:latest')),
    ],
    ['a metadata change', (ds: ApiObject) => ds.metadata.addLabel('app.kubernetes.io/version', '-not-a-label-value-')],
  ])('%s made between two syntheses is seen by the second', (_what, mutate) => {
    // GIVEN an App that synthesizes cleanly
    const { app, first, checked } = twoChartApp(PolicyLoggers.silent());
    const ds = rawDaemonSet(first, 'raw');
    app.synthYaml();
    // WHEN the DaemonSet is changed in the same synchronous block and the App synthesized again
    mutate(ds);
    const message = synthError(() => app.synthYaml());
    // THEN the second synthesis checked the changed manifest and failed on it
    expect(checked()).toBe(2);
    expect(message).toMatch(/\[first\/raw\] (image-not-pinned|label-invalid): /);
  });

  test('a lazy value that changes between syntheses is seen', () => {
    // GIVEN a DaemonSet whose image is produced lazily from a variable
    let image = 'cr.fluentbit.io/fluent/fluent-bit:3.0.7';
    const { app, first } = twoChartApp(PolicyLoggers.silent());
    rawDaemonSet(first, 'raw', (ds) => (mainContainer(ds).image = Lazy.any({ produce: () => image })));
    app.synthYaml();
    // WHEN the variable changes and the App is synthesized again
    image = 'cr.fluentbit.io/fluent/fluent-bit';
    // THEN the second synthesis fails on the untagged image
    expect(synthError(() => app.synthYaml())).toContain(
      "[first/raw] image-not-pinned: container 'fluent-bit' image 'cr.fluentbit.io/fluent/fluent-bit' has no tag or digest",
    );
  });

  test('within one synthesis the DaemonSets are rendered and checked once, although cdk8s validates once per chart plus once', () => {
    // GIVEN an App with two charts and a DaemonSet whose rendering is counted
    const { app, first, runs, checked } = twoChartApp(PolicyLoggers.silent());
    const ds = rawDaemonSet(first, 'raw');
    const render = jest.spyOn(ds, 'toJson');
    // WHEN the App is synthesized
    app.synthYaml();
    // THEN cdk8s validated three times, the checks ran once, and the DaemonSet was rendered for them once (plus once for the output)
    expect(runs()).toBe(3);
    expect(checked()).toBe(1);
    expect(render.mock.calls.length).toBe(2);
  });

  test('a change between two syntheses is seen by the second', () => {
    // GIVEN a compliant App that synthesizes
    const { app, first } = twoChartApp(PolicyLoggers.silent());
    const ds = rawDaemonSet(first, 'raw');
    app.synthYaml();
    // WHEN a JSON patch breaks the DaemonSet and the App is synthesized again
    ds.addJsonPatch(JsonPatch.replace('/spec/template/spec/containers/0/image', 'fluent/fluent-bit:latest'));
    // THEN the second synthesis fails on it
    expect(synthError(() => app.synthYaml())).toContain('[first/raw] image-not-pinned');
  });

  test('a configuration change between syntheses is seen', () => {
    // GIVEN a DaemonSet without readiness probe (a warning) that synthesizes
    const { app, first } = twoChartApp(PolicyLoggers.silent());
    rawDaemonSet(first, 'raw', (ds) => delete mainContainer(ds).readinessProbe);
    app.synthYaml();
    // WHEN the rule is raised to error and the App synthesized again
    NodeServiceChecks.of(app, { rules: { 'readiness-probe-missing': RuleLevel.ERROR } });
    // THEN the second synthesis fails on it
    expect(synthError(() => app.synthYaml())).toContain('[first/raw] readiness-probe-missing');
  });

  test('changing the published report does not change the results of later runs', () => {
    // GIVEN a synthesis that failed on an error, and its report emptied by the caller
    const { app, first, checks } = twoChartApp(PolicyLoggers.silent());
    rawDaemonSet(first, 'raw', (ds) => (mainContainer(ds).image = 'fluent/fluent-bit:latest'));
    const before = synthError(() => app.synthYaml());
    const published = checks.lastReport!;
    const count = published.findings.length;
    published.findings.splice(0);
    // WHEN the unchanged App is synthesized again
    const after = synthError(() => app.synthYaml());
    // THEN it fails with the same error, and the new report has the findings again
    expect(after).toBe(before);
    expect(count).toBeGreaterThan(0);
    expect(checks.lastReport!.findings).toHaveLength(count);
  });
});

describe('Suppressions.add', () => {
  test.each([
    [
      'host-path-writeable',
      'a reason that is long enough',
      /\[test\/raw\] invalid arguments \(1 problem\):\n\s+- Suppressions\.add\(ruleId\) = "host-path-writeable": unknown rule id 'host-path-writeable' \(did you mean 'host-path-writable'\?\).*\. Fix: name a rule/,
    ],
    [
      'selector-invalid',
      'the API server will cope',
      /\[test\/raw\] invalid arguments \(1 problem\):\n\s+- Suppressions\.add\(ruleId\) = "selector-invalid": rule 'selector-invalid' cannot be suppressed .*\. Fix: fix the object instead/,
    ],
    [
      'host-path-writable',
      'needed',
      /\[test\/raw\] invalid arguments \(1 problem\):\n\s+- Suppressions\.add\(reason\) = "needed": the reason for suppressing 'host-path-writable' must be at least 10 characters\. Fix: say why/,
    ],
  ])(
    'GIVEN Suppressions.add(%s, %j) WHEN the app is synthesized THEN synthesis reports it under the construct path',
    (ruleId, reason, message) => {
      const chart = Testing.chart();
      const ds = rawDaemonSet(chart, 'raw');
      // WHEN the call is made, nothing is thrown yet and no annotation is written
      Suppressions.add(ds, ruleId, reason);
      expect(ds.toJson().metadata.annotations?.[Suppressions.annotationKey(ruleId)]).toBeUndefined();
      // THEN synthesis fails with the problem
      expect(expectSynthError(chart)).toMatch(message);
    },
  );

  test('GIVEN an unknown rule id and a short reason WHEN synthesized THEN one error lists both, beside the other problems of the app', () => {
    const chart = Testing.chart();
    const ds = rawDaemonSet(chart, 'raw');
    rawDaemonSet(chart, 'latest', (d) => (mainContainer(d).image = 'fluent/fluent-bit:latest'));
    NodeServiceChecks.of(chart, { logger: PolicyLoggers.silent() });
    Suppressions.add(ds, 'no-such-rule', 'short');
    const message = expectSynthError(chart);
    expect(message).toMatch(/\[test\/raw\] invalid arguments \(2 problems\)/);
    expect(message).toContain('Suppressions.add(ruleId) = "no-such-rule": unknown rule id');
    expect(message).toContain('Suppressions.add(reason) = "short": the reason for suppressing');
    expect(message).toMatch(/\[test\/latest\] image-not-pinned/);
  });

  test('annotates every ApiObject at or below the construct, also ones added later, and joins reasons', () => {
    // GIVEN a suppression on a parent construct before its DaemonSets exist, then a second reason for the same rule
    const chart = Testing.chart();
    const group = new Construct(chart, 'agents');
    Suppressions.add(group, 'privileged-container', 'device plugins need /dev access');
    rawDaemonSet(group, 'a');
    Suppressions.add(group, 'privileged-container', 'reviewed by the platform team');
    rawDaemonSet(group, 'b');
    rawDaemonSet(chart, 'outside');
    // WHEN synthesized (without NodeServiceChecks, so only the suppression's own validation applies it)
    const manifests = Testing.synth(chart);
    // THEN both DaemonSets below the construct carry the joined reasons, the one outside carries none
    const key = 'ignore-check.node-services.cdk8s.io/privileged-container';
    const byName = Object.fromEntries(manifests.map((m) => [m.metadata.name, m.metadata.annotations[key]]));
    expect(byName).toEqual({
      a: 'device plugins need /dev access; reviewed by the platform team',
      b: 'device plugins need /dev access; reviewed by the platform team',
      outside: undefined,
    });
  });

  test('with the checks attached, annotates ApiObjects added after the suppression and marks their findings suppressed', () => {
    // GIVEN a suppression declared on a group before the checks are attached and before its DaemonSet exists
    const chart = Testing.chart();
    const group = new Construct(chart, 'agents');
    Suppressions.add(group, 'image-not-pinned', 'pinned by digest in the deploy pipeline');
    const checks = NodeServiceChecks.of(chart, { logger: PolicyLoggers.silent() });
    rawDaemonSet(group, 'late', (ds) => (mainContainer(ds).image = 'fluent/fluent-bit:latest'));
    // WHEN synthesized
    const [manifest] = Testing.synth(chart);
    // THEN the late DaemonSet carries the annotation and its finding is suppressed, so synthesis passed
    expect(manifest.metadata.annotations['ignore-check.node-services.cdk8s.io/image-not-pinned']).toBe(
      'pinned by digest in the deploy pipeline',
    );
    expect(checks.lastReport!.findings.filter((f) => f.ruleId === 'image-not-pinned').map((f) => f.suppressed)).toEqual([true]);
  });

  test('is idempotent across repeated synthesis and repeated calls', () => {
    const chart = Testing.chart();
    const ds = rawDaemonSet(chart, 'raw');
    Suppressions.add(ds, 'host-path-writable', 'position database for tailed log files');
    Suppressions.add(ds, 'host-path-writable', 'position database for tailed log files');
    NodeServiceChecks.of(chart, { logger: PolicyLoggers.silent() });
    Testing.synth(chart);
    const manifests = Testing.synth(chart);
    expect(manifests[0].metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable']).toBe(
      'position database for tailed log files',
    );
  });

  test('works on cdk8s-plus constructs (annotates their L1 child)', () => {
    const chart = Testing.chart();
    const ds = new kplus.DaemonSet(chart, 'plus', { containers: [{ image: 'nginx:1.25.3' }] });
    Suppressions.add(ds, 'no-node-local-need', 'serves a node-local cache on the pod network');
    const checks = NodeServiceChecks.of(chart, { logger: PolicyLoggers.silent() });
    const [manifest] = Testing.synth(chart);
    expect(manifest.metadata.annotations['ignore-check.node-services.cdk8s.io/no-node-local-need']).toBe(
      'serves a node-local cache on the pod network',
    );
    expect(checks.lastReport!.findings.filter((f) => f.ruleId === 'no-node-local-need').map((f) => f.suppressed)).toEqual([true]);
  });
});

describe('NodeServiceChecks with the library constructs', () => {
  test('checks NodeService DaemonSets: the example platform synthesizes with no error finding', () => {
    // GIVEN the example platform (log and metrics agents, infrastructure presets) with the checks attached
    const { buildPlatform } = require('../../examples/platform') as typeof import('../../examples/platform');
    const app = Testing.app();
    const { agents } = buildPlatform(app);
    const logger = new CollectingLogger();
    const checks = NodeServiceChecks.of(agents, { logger });
    // WHEN the whole app is synthesized
    const daemonSets = app.charts.flatMap((c) => Testing.synth(c)).filter((m) => m.kind === 'DaemonSet');
    // THEN every DaemonSet of the app was checked and none has an unsuppressed error
    const report = checks.lastReport!;
    expect(daemonSets.length).toBeGreaterThanOrEqual(2);
    expect(report.checkedObjects).toBe(daemonSets.length);
    expect(report.findings.filter((f) => f.severity === 'error' && !f.suppressed)).toEqual([]);
  });
});
