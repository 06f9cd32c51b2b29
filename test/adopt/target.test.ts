import { importManifests } from '../../src/adopt';
import { targetVersion } from '../../src/adopt/target';
import { KubernetesVersion } from '../../src/k8s/api-fields/versions';
import { agentDaemonSet, RUNTIME } from './support';

const FILE = 'vendor/agent.yaml';

const daemonSet = agentDaemonSet;

/** A pod-level AppArmor profile: a field from Kubernetes 1.30. */
const APPARMOR_1_30 = { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } };
/** A `preStop.sleep` handler: a field from Kubernetes 1.29. */
const SLEEP_1_29 = { lifecycle: { preStop: { sleep: { seconds: 5 } } } };
/** A container's `lifecycle.stopSignal`: a field from Kubernetes 1.33. */
const STOP_SIGNAL_1_33 = { lifecycle: { stopSignal: 'SIGTERM' } };

describe('the Kubernetes version an import targets', () => {
  test('GIVEN a DaemonSet of 1.28 fields WHEN its target is inferred THEN it is 1.28, required by nothing, missing nothing', () => {
    const target = targetVersion([{ object: daemonSet(), file: FILE }]);
    expect(target).toMatchObject({ version: KubernetesVersion.V1_28, source: 'inferred', requiredBy: [], missing: [] });
  });

  test('GIVEN a 1.29 field WHEN the target is inferred THEN it is 1.29, and the reason names the field, the object and the file', () => {
    const target = targetVersion([{ object: daemonSet(SLEEP_1_29), file: FILE }]);
    expect(target.version).toBe(KubernetesVersion.V1_29);
    expect(target.missing).toEqual([]);
    const path = 'spec.template.spec.containers[0].lifecycle.preStop.sleep';
    expect(target.requiredBy.map((n) => [n.file, n.object, n.path, n.version])).toEqual([[FILE, 'DaemonSet obs/agent', path, '1.29']]);
    expect(target.reason).toContain(`${path} of DaemonSet obs/agent (${FILE})`);
  });

  test('GIVEN a 1.33-only field beside a 1.29 one WHEN the target is inferred THEN it is 1.33, required by the 1.33 field alone', () => {
    const target = targetVersion([
      { object: daemonSet({ ...STOP_SIGNAL_1_33 }), file: FILE },
      { object: { ...daemonSet(SLEEP_1_29), metadata: { name: 'other', namespace: 'obs' } }, file: 'b.yaml' },
    ]);
    expect(target.version).toBe(KubernetesVersion.V1_33);
    expect(target.requiredBy.map((n) => n.path)).toEqual(['spec.template.spec.containers[0].lifecycle.stopSignal']);
    expect(target.missing).toEqual([]);
  });

  test('GIVEN a field no version knows WHEN the target is inferred THEN it stays 1.28 and the field is reported, with where it is', () => {
    const target = targetVersion([{ object: daemonSet({}, { tolerations: [{ key: 'a', opertor: 'Exists' }] }), file: FILE }]);
    expect(target.version).toBe(KubernetesVersion.V1_28);
    expect(target.missing.map((n) => [n.file, n.object, n.path, n.version])).toEqual([
      [FILE, 'DaemonSet obs/agent', 'spec.template.spec.tolerations[0].opertor', undefined],
    ]);
    expect(target.missing[0].message).toContain('did you mean "operator"?');
    expect(target.missing[0].message).toContain('no Kubernetes version from 1.28 to 1.33 has it');
    expect(target.reason).toBe("Kubernetes 1.28, the library's default: its API has every field of the input that some version has");
  });

  test('GIVEN a 1.30 field and 1.28 asked for WHEN the target is resolved THEN it is 1.28 and the field is missing, with 1.30 as the version that has it', () => {
    const target = targetVersion([{ object: daemonSet({}, APPARMOR_1_30), file: FILE }], KubernetesVersion.V1_28);
    expect(target).toMatchObject({ version: KubernetesVersion.V1_28, source: 'option' });
    expect(target.missing.map((n) => [n.file, n.object, n.path, n.version])).toEqual([
      [FILE, 'DaemonSet obs/agent', 'spec.template.spec.securityContext.appArmorProfile', '1.30'],
    ]);
    expect(target.reason).toContain('the lowest version whose API has every field of the input is 1.30');
  });

  test('GIVEN a kind served from 1.30 WHEN the target is inferred THEN it is 1.30, required by its apiVersion', () => {
    const policy = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, spec: {} };
    const target = targetVersion([
      { object: daemonSet(), file: FILE },
      { object: policy, file: 'policy.yaml' },
    ]);
    expect(target.version).toBe(KubernetesVersion.V1_30);
    expect(target.requiredBy.map((n) => [n.object, n.path])).toEqual([['ValidatingAdmissionPolicy p', 'apiVersion']]);
  });
});

describe('importManifests at a target version', () => {
  test('GIVEN a DaemonSet with a 1.30 field WHEN imported with --check THEN main.ts declares 1.30 before any construct, naming the field and the file, and the check is clean', async () => {
    const result = await importManifests([{ object: daemonSet({}, APPARMOR_1_30), file: FILE }], { runtime: RUNTIME, check: true });
    expect(result.report.target?.version).toBe(KubernetesVersion.V1_30);
    expect(result.report.problems).toEqual([]);
    expect(result.report.unexplained).toBe(0);
    const main = result.files.get('main.ts')!;
    const declared = main.indexOf('NodeServiceChecks.of(app, { kubernetesVersion: KubernetesVersion.V1_30 });');
    expect(declared).toBeGreaterThan(0);
    expect(declared).toBeLessThan(main.indexOf('new Chart('));
    expect(main).toMatch(
      /^\/\/ Target Kubernetes 1\.30.*spec\.template\.spec\.securityContext\.appArmorProfile of DaemonSet obs\/agent \(vendor\/agent\.yaml\)/m,
    );
    // The field is carried (no prop of the library writes the pod-level profile), and the output has it.
    const ds = result.synthesized.find((o: any) => o.kind === 'DaemonSet') as any;
    expect(ds.spec.template.spec.securityContext.appArmorProfile).toEqual({ type: 'RuntimeDefault' });
  });

  test('GIVEN a DaemonSet of 1.28 fields WHEN imported THEN main.ts declares no version', async () => {
    const result = await importManifests([{ object: daemonSet(), file: FILE }], { runtime: RUNTIME });
    expect(result.report.target?.version).toBe(KubernetesVersion.V1_28);
    expect(result.files.get('main.ts')).not.toContain('NodeServiceChecks');
  });

  test('GIVEN a 1.30 field WHEN imported with kubernetesVersion 1.28 THEN the field is a problem naming the file, the field and 1.30, the import fails, and nothing is dropped', async () => {
    const result = await importManifests([{ object: daemonSet({}, APPARMOR_1_30), file: FILE }], {
      runtime: RUNTIME,
      check: true,
      kubernetesVersion: KubernetesVersion.V1_28,
    });
    expect(result.report.problems[0]).toBe(
      'DaemonSet obs/agent in vendor/agent.yaml: unknown field "spec.template.spec.securityContext.appArmorProfile": appArmorProfile exists from Kubernetes 1.30; the target is 1.28. Fix: target a version that has it (--kubernetes-version 1.30), or remove the field from the input',
    );
    expect(result.report.unexplained).toBeGreaterThan(0);
    expect(result.files.get('main.ts')).not.toContain('NodeServiceChecks');
    // The generated module still carries the field (the app then fails synthesis at 1.28, as the report says).
    expect(result.files.get('agent.ts')).toContain('/spec/template/spec/securityContext/appArmorProfile');
  });

  test('GIVEN a higher version asked for WHEN imported THEN main.ts declares it and says it was asked for', async () => {
    const result = await importManifests([{ object: daemonSet(), file: FILE }], {
      runtime: RUNTIME,
      kubernetesVersion: KubernetesVersion.V1_32,
    });
    expect(result.report.target).toMatchObject({ version: '1.32', source: 'option', missing: [] });
    expect(result.files.get('main.ts')).toContain(
      '// Target Kubernetes 1.32, the version the import was asked to target.\nNodeServiceChecks.of(app, { kubernetesVersion: KubernetesVersion.V1_32 });',
    );
  });
});

describe('the arguments of importManifests', () => {
  test('GIVEN an unsupported kubernetesVersion and a runtime without the library WHEN imported THEN one error lists both, before anything runs', async () => {
    const error = await importManifests([{ object: daemonSet() }], {
      runtime: { ...RUNTIME, library: {} },
      kubernetesVersion: '1.27' as KubernetesVersion,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'NodeServiceError', code: 'INVALID_ARGUMENTS' });
    const fields = (error as { problems: Array<{ field: string }> }).problems.map((p) => p.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'importManifests(options.runtime.library.NodeService)',
        'importManifests(options.runtime.library.NodeServiceChecks)',
        'importManifests(options.runtime.library.PolicyLoggers)',
        'importManifests(options.kubernetesVersion)',
      ]),
    );
    expect(fields).toHaveLength(4);
  });

  test('GIVEN a runtime whose library lacks a factory the generated code calls WHEN imported with --check THEN the report names the missing export and the fix, not a TypeError', async () => {
    const { HostPath, ...library } = RUNTIME.library;
    void HostPath;
    const withHostPath = daemonSet(
      { volumeMounts: [{ name: 'logs', mountPath: '/var/log', readOnly: true }] },
      { volumes: [{ name: 'logs', hostPath: { path: '/var/log', type: 'Directory' } }] },
    );
    const result = await importManifests([{ object: withHostPath, file: FILE }], { runtime: { ...RUNTIME, library }, check: true });
    expect(result.report.problems).toHaveLength(1);
    expect(result.report.problems[0]).toContain('importManifests(options.runtime)');
    expect(result.report.problems[0]).toContain('has no export HostPath');
    expect(result.report.problems[0]).toContain("Fix: pass { library: require('cdk8s-node-services')");
    expect(result.report.problems[0]).not.toContain('TypeError');
  });
});
