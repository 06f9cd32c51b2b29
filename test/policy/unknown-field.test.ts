/**
 * The `unknown-field` rule: fields the target Kubernetes version does not have, at any depth of DaemonSets and of
 * the objects emitted alongside them, through the engine, the rule configuration and `node-services lint`.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { KubernetesVersion } from '../../src/k8s/api-fields';
import { PolicyConfigError, RuleConfig, ruleConfigFromValue } from '../../src/policy/config';
import { checkManifests, Finding } from '../../src/policy/engine';
import { NodeServicesValidation } from '../../src/policy/plugin';
import { runCli } from '../support/cli';
import { compliantDaemonSet, mainContainer, podOf } from './support';

const POD = 'spec.template.spec';
const CILIUM = path.join(__dirname, '..', 'fixtures', 'api-fields', 'cilium-agent-apparmor.yaml');

function unknownFieldFindings(objects: any[], config?: RuleConfig): Finding[] {
  return checkManifests(objects, config).findings.filter((f) => f.ruleId === 'unknown-field');
}

function tempFile(name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unknown-field-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('unknown-field: a field newer than the target version', () => {
  test('appArmorProfile on 1.28 is an error that names the version that has it', () => {
    // GIVEN the compliant DaemonSet with the pod-level AppArmor field of 1.30
    const ds = compliantDaemonSet();
    podOf(ds).securityContext.appArmorProfile = { type: 'RuntimeDefault' };
    // WHEN it is checked for the default target
    const findings = unknownFieldFindings([ds]);
    // THEN one unsuppressible error names the field, the version that has it and the target
    expect(findings.map((f) => [f.path, f.severity, f.category])).toEqual([
      [`${POD}.securityContext.appArmorProfile`, 'error', 'api-validity'],
    ]);
    expect(findings[0].message).toBe(
      `unknown field "${POD}.securityContext.appArmorProfile": appArmorProfile exists from Kubernetes 1.30; the target is 1.28`,
    );
  });

  test('the same field is fine when the target is 1.30 or later, and still refused on 1.29', () => {
    const ds = compliantDaemonSet();
    mainContainer(ds).securityContext.appArmorProfile = { type: 'Localhost', localhostProfile: 'agent' };
    expect(unknownFieldFindings([ds], { kubernetesVersion: KubernetesVersion.V1_29 }).map((f) => f.path)).toEqual([
      `${POD}.containers[0].securityContext.appArmorProfile`,
    ]);
    for (const v of [KubernetesVersion.V1_30, KubernetesVersion.V1_31, KubernetesVersion.V1_33]) {
      expect(unknownFieldFindings([ds], { kubernetesVersion: v })).toEqual([]);
    }
  });

  test('a container stopSignal (1.33) and a recursiveReadOnly mount (1.30) are reported with their versions', () => {
    const ds = compliantDaemonSet();
    mainContainer(ds).lifecycle = { stopSignal: 'SIGUSR1' };
    mainContainer(ds).volumeMounts[0].recursiveReadOnly = 'IfPossible';
    const messages = (version: KubernetesVersion) => unknownFieldFindings([ds], { kubernetesVersion: version }).map((f) => f.message);
    expect(messages(KubernetesVersion.V1_29)).toEqual([
      expect.stringContaining('recursiveReadOnly exists from Kubernetes 1.30; the target is 1.29'),
      expect.stringContaining('stopSignal exists from Kubernetes 1.33; the target is 1.29'),
    ]);
    expect(messages(KubernetesVersion.V1_32)).toEqual([
      expect.stringContaining('stopSignal exists from Kubernetes 1.33; the target is 1.32'),
    ]);
  });

  test('a newer field without a known first version says only what is known', () => {
    // GIVEN a pod resource claim written the 1.31+ way (the first version of this field is not recorded)
    const ds = compliantDaemonSet();
    podOf(ds).resourceClaims = [{ name: 'gpu', resourceClaimName: 'gpu-claim' }];
    // THEN 1.28 refuses it, 1.33 has it, and the versions in between are not claimed either way
    expect(unknownFieldFindings([ds]).map((f) => f.message)).toEqual([
      `unknown field "${POD}.resourceClaims[0].resourceClaimName": resourceClaimName is not in Kubernetes 1.28 (it exists in 1.33); the target is 1.28`,
    ]);
    expect(unknownFieldFindings([ds], { kubernetesVersion: KubernetesVersion.V1_30 })).toEqual([]);
    expect(unknownFieldFindings([ds], { kubernetesVersion: KubernetesVersion.V1_33 })).toEqual([]);
  });

  test('a field that later versions removed is reported for them', () => {
    const ds = compliantDaemonSet();
    podOf(ds).resourceClaims = [{ name: 'gpu', source: { resourceClaimName: 'gpu-claim' } }];
    expect(unknownFieldFindings([ds])).toEqual([]);
    expect(unknownFieldFindings([ds], { kubernetesVersion: KubernetesVersion.V1_33 }).map((f) => f.message)).toEqual([
      `unknown field "${POD}.resourceClaims[0].source": source is not in Kubernetes 1.33 (it exists in 1.28); the target is 1.33`,
    ]);
  });
});

describe('unknown-field: typos at every depth', () => {
  test.each([
    ['top-level spec', (ds: any) => (ds.spec.minReadySecond = 10), 'spec.minReadySecond', 'minReadySeconds'],
    ['pod spec', (ds: any) => (podOf(ds).hostNetwrok = true), `${POD}.hostNetwrok`, 'hostNetwork'],
    ['container', (ds: any) => (mainContainer(ds).imagePullpolicy = 'Always'), `${POD}.containers[0].imagePullpolicy`, 'imagePullPolicy'],
    [
      'nested securityContext',
      (ds: any) => (mainContainer(ds).securityContext.capabilities.ad = ['NET_ADMIN']),
      `${POD}.containers[0].securityContext.capabilities.ad`,
      'add',
    ],
    ['toleration', (ds: any) => (podOf(ds).tolerations = [{ key: 'gpu', opertor: 'Exists' }]), `${POD}.tolerations[0].opertor`, 'operator'],
    ['volume', (ds: any) => (podOf(ds).volumes[0].hostPath.typ = 'Directory'), `${POD}.volumes[0].hostPath.typ`, 'type'],
    [
      'volume mount (case only)',
      (ds: any) => (mainContainer(ds).volumeMounts[0].readonly = true),
      `${POD}.containers[0].volumeMounts[0].readonly`,
      'readOnly',
    ],
    ['template metadata', (ds: any) => (ds.spec.template.metadata.label = {}), 'spec.template.metadata.label', 'labels'],
  ])('%s', (_where, mutate, fieldPath, suggestion) => {
    // GIVEN the compliant DaemonSet with one misspelt field
    const ds = compliantDaemonSet();
    mutate(ds);
    // WHEN checked THEN the field is reported at its path with the closest known name
    const findings = unknownFieldFindings([ds]);
    expect(findings.map((f) => f.path)).toEqual([fieldPath]);
    expect(findings[0].message).toBe(`unknown field "${fieldPath}" (did you mean "${suggestion}"?)`);
  });

  test('a name close to nothing is reported without a suggestion', () => {
    const ds = compliantDaemonSet();
    podOf(ds).flavour = 'vanilla';
    expect(unknownFieldFindings([ds]).map((f) => f.message)).toEqual([`unknown field "${POD}.flavour"`]);
  });

  test('the suppression annotation does not silence it', () => {
    const ds = compliantDaemonSet();
    ds.metadata.annotations = { 'ignore-check.node-services.cdk8s.io/unknown-field': 'the cluster ignores unknown fields anyway' };
    podOf(ds).hostNetwrok = true;
    const findings = unknownFieldFindings([ds]);
    expect(findings.map((f) => f.suppressed)).toEqual([false]);
  });
});

describe('unknown-field: what is not flagged', () => {
  test('fields 1.28 has, including the newer ones among them', () => {
    // GIVEN fields that arrived shortly before 1.28: hostUsers (1.25), resizePolicy and schedulingGates (1.27),
    // resources.claims (1.26), restartPolicy on an init container (1.28), plus status as kubectl writes it
    const ds = compliantDaemonSet();
    Object.assign(podOf(ds), { hostUsers: false, schedulingGates: [{ name: 'example.com/wait' }], resourceClaims: [{ name: 'gpu' }] });
    mainContainer(ds).resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }];
    mainContainer(ds).resources.claims = [{ name: 'gpu' }];
    podOf(ds).initContainers = [{ name: 'sidecar', image: 'busybox:1.36', restartPolicy: 'Always' }];
    ds.status = { currentNumberScheduled: 0, anything: { goes: true } };
    expect(unknownFieldFindings([ds])).toEqual([]);
  });

  test('free-form maps: labels, annotations, nodeSelector, resource maps, ConfigMap data', () => {
    const ds = compliantDaemonSet();
    ds.metadata.labels['spec'] = 'x';
    ds.metadata.annotations = { 'containers.example.com/imag': 'x', readonly: 'true' };
    podOf(ds).nodeSelector = { opertor: 'x', 'kubernetes.io/os': 'linux' };
    mainContainer(ds).resources.limits['example.com/gpu'] = '1';
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'conf' }, data: { spec: 'x', 'fluent-bit.conf': '[SERVICE]' } };
    expect(unknownFieldFindings([ds, cm])).toEqual([]);
  });

  test('kinds the field data does not know (custom resources) are not checked', () => {
    const rule = { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name: 'r' }, spec: { anything: 1 } };
    const crd = { apiVersion: 'example.com/v1', kind: 'Widget', spce: {} };
    expect(unknownFieldFindings([rule, crd, 'not an object', null])).toEqual([]);
  });
});

describe('unknown-field: the objects emitted alongside DaemonSets', () => {
  test('a typo in a ServiceAccount, a ConfigMap and a RoleBinding subject is reported on that object', () => {
    const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'agent' }, automountServiceAccountTokn: false };
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'conf' }, dat: { a: 'b' } };
    const rb = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'agent', namespace: 'logging' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'agent' },
      subjects: [{ kind: 'ServiceAccount', name: 'agent', namspace: 'logging' }],
    };
    const findings = unknownFieldFindings([sa, cm, rb]);
    expect(findings.map((f) => [f.object.kind, f.path, f.message])).toEqual([
      [
        'ServiceAccount',
        'automountServiceAccountTokn',
        'unknown field "automountServiceAccountTokn" (did you mean "automountServiceAccountToken"?)',
      ],
      ['ConfigMap', 'dat', 'unknown field "dat" (did you mean "data"?)'],
      ['RoleBinding', 'subjects[0].namspace', 'unknown field "subjects[0].namspace" (did you mean "namespace"?)'],
    ]);
  });

  test('an admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy needs 1.30', () => {
    const vap = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'p' },
      spec: { validations: [{ expression: 'true' }] },
    };
    expect(unknownFieldFindings([vap]).map((f) => [f.path, f.message])).toEqual([
      ['apiVersion', 'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy is served from Kubernetes 1.30; the target is 1.28'],
    ]);
    expect(unknownFieldFindings([vap], { kubernetesVersion: KubernetesVersion.V1_30 })).toEqual([]);
  });

  test('the engine still counts only DaemonSets as checked', () => {
    const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'agent' } };
    const report = checkManifests([compliantDaemonSet(), sa]);
    expect([report.checkedObjects, report.skippedObjects, report.findings]).toEqual([1, 1, []]);
  });
});

describe('unknown-field: OpenKruise Advanced DaemonSets', () => {
  function kruise(): any {
    const ds = compliantDaemonSet();
    ds.apiVersion = 'apps.kruise.io/v1alpha1';
    ds.spec.burstReplicas = '10%';
    ds.spec.lifecycle = {
      preDelete: { labelsHandler: { 'example.com/drain': 'true' }, finalizersHandler: ['example.com/x'], markPodNotReady: true },
    };
    ds.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: {
        rollingUpdateType: 'Standard',
        maxUnavailable: 1,
        maxSurge: 0,
        partition: 3,
        paused: false,
        selector: { matchLabels: { 'node-pool': 'canary' } },
      },
    };
    return ds;
  }

  test('its own rollout fields are accepted', () => {
    expect(unknownFieldFindings([kruise()])).toEqual([]);
  });

  test('its pod template is checked like an apps/v1 one', () => {
    const ds = kruise();
    podOf(ds).tolerations = [{ opertor: 'Exists' }];
    expect(unknownFieldFindings([ds]).map((f) => f.path)).toEqual([`${POD}.tolerations[0].opertor`]);
  });

  test('the same fields on an apps/v1 DaemonSet are unknown there', () => {
    const ds = kruise();
    ds.apiVersion = 'apps/v1';
    expect(unknownFieldFindings([ds]).map((f) => f.path)).toEqual([
      'spec.updateStrategy.rollingUpdate.rollingUpdateType',
      'spec.updateStrategy.rollingUpdate.partition',
      'spec.updateStrategy.rollingUpdate.paused',
      'spec.updateStrategy.rollingUpdate.selector',
      'spec.burstReplicas',
      'spec.lifecycle',
    ]);
  });
});

describe('unknown-field: the target version', () => {
  test('the configuration validates it and lists the supported versions', () => {
    expect(() => checkManifests([], { kubernetesVersion: '1.27' as KubernetesVersion })).toThrow(
      new PolicyConfigError("kubernetesVersion: '1.27' is not a supported Kubernetes version (one of 1.28, 1.29, 1.30, 1.31, 1.32, 1.33)"),
    );
    expect(() => checkManifests([], { kubernetesVersion: 'v1.30.2' as KubernetesVersion })).toThrow(/written as '1.30'/);
    expect(() => checkManifests([], { kubernetesVersion: 1.3 as unknown as KubernetesVersion })).toThrow(/string such as '1.30'/);
  });

  test('a configuration file may set it; an unquoted YAML number is refused with the reason', () => {
    expect(ruleConfigFromValue({ kubernetesVersion: '1.31' }, 'policy.yaml')).toEqual(
      expect.objectContaining({ kubernetesVersion: '1.31' }),
    );
    expect(() => ruleConfigFromValue({ kubernetesVersion: 1.3 }, 'policy.yaml')).toThrow(
      /^policy\.yaml: kubernetesVersion: 1\.3 is the number 1\.3; write the version as a string such as '1\.30' \(YAML reads 1\.30 unquoted as 1\.3\)/,
    );
  });
});

describe('node-services lint --kubernetes-version', () => {
  const appArmorFindings = (out: string) =>
    (JSON.parse(out).findings as Array<{ ruleId: string; path: string; message: string }>).filter((f) => f.ruleId === 'unknown-field');

  test('the Cilium-style agent with appArmorProfile fails on the default target, naming 1.30', async () => {
    // GIVEN a manifest modelled on the Cilium agent DaemonSet rendered for 1.30+ WHEN linted with the default target
    const run = await runCli(['lint', '-f', 'json', CILIUM]);
    // THEN the run fails on the AppArmor field, saying which version has it
    expect(run.code).toBe(1);
    expect(appArmorFindings(run.out)).toEqual([
      expect.objectContaining({
        path: `${POD}.securityContext.appArmorProfile`,
        message: `unknown field "${POD}.securityContext.appArmorProfile": appArmorProfile exists from Kubernetes 1.30; the target is 1.28`,
      }),
    ]);
    const text = await runCli(['lint', CILIUM]);
    expect(text.out).toMatch(/error +unknown-field {2}spec\.template\.spec\.securityContext\.appArmorProfile/);
  });

  test('--kubernetes-version 1.30 accepts it', async () => {
    const run = await runCli(['lint', '-f', 'json', '--kubernetes-version', '1.30', CILIUM]);
    expect(appArmorFindings(run.out)).toEqual([]);
  });

  test('the config file sets the version, and the flag overrides it', async () => {
    const config = tempFile('policy.yaml', "kubernetesVersion: '1.30'\n");
    const fromConfig = await runCli(['lint', '-f', 'json', '-c', config, CILIUM]);
    expect(appArmorFindings(fromConfig.out)).toEqual([]);
    const overridden = await runCli(['lint', '-f', 'json', '-c', config, '--kubernetes-version', '1.29', CILIUM]);
    expect(appArmorFindings(overridden.out).map((f) => f.message)).toEqual([
      `unknown field "${POD}.securityContext.appArmorProfile": appArmorProfile exists from Kubernetes 1.30; the target is 1.29`,
    ]);
  });

  test('an unsupported version is a usage error listing the supported ones', async () => {
    const run = await runCli(['lint', '--kubernetes-version', '1.34', CILIUM]);
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(run.err).toBe(
      'node-services lint: --kubernetes-version "1.34" is not a supported Kubernetes version (one of 1.28, 1.29, 1.30, 1.31, 1.32, 1.33)\n',
    );
    const badConfig = tempFile('policy.yaml', 'kubernetesVersion: 1.30\n');
    const fromConfig = await runCli(['lint', '-c', badConfig, CILIUM]);
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.err).toMatch(/kubernetesVersion: 1\.3 is the number 1\.3; write the version as a string/);
  });
});

describe('the cdk8s CLI validation plugin and the target version', () => {
  const context = (manifests: string[]) => {
    const violations: string[] = [];
    return {
      violations,
      context: {
        manifests,
        report: { addViolation: (v: { ruleName: string }) => void violations.push(v.ruleName), submit: () => undefined },
      },
    };
  };

  test('takes kubernetesVersion from its properties, over the config file', async () => {
    const ds = compliantDaemonSet();
    podOf(ds).securityContext.appArmorProfile = { type: 'RuntimeDefault' };
    const file = tempFile('app.k8s.yaml', JSON.stringify(ds));
    const configFile = path.join(path.dirname(file), 'policy.yaml');
    fs.writeFileSync(configFile, "kubernetesVersion: '1.29'\n");
    const onFile = context([file]);
    await new NodeServicesValidation({ configFile }).validate(onFile.context as any);
    expect(onFile.violations).toEqual(['unknown-field']);
    const onProps = context([file]);
    await new NodeServicesValidation({ configFile, kubernetesVersion: KubernetesVersion.V1_30 }).validate(onProps.context as any);
    expect(onProps.violations).toEqual([]);
    expect(() => new NodeServicesValidation({ kubernetesVersion: '1.27' as KubernetesVersion })).toThrow(
      /properties: kubernetesVersion: '1\.27' is not a supported Kubernetes version/,
    );
  });
});
