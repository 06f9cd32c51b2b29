/**
 * The API field knowledge used by the constructs: what they emit is known to the target version, a prop that needs a
 * newer version is refused at construction, and synth-time checks use the App's target version.
 */

import { ApiObject, App, Chart, Testing } from 'cdk8s';
import { AdmissionPolicyApiVersion, NodeServiceGuardrails, NodeServicesNamespace, SystemPriorityClass } from '../../src/guardrails';
import { KubernetesVersion, versionProblems } from '../../src/k8s/api-fields';
import { NodeServiceChecks, PolicyLoggers } from '../../src/policy/synth';
import { NodeServiceError } from '../../src/k8s/problems';
import { CORPUS_PROPS } from '../guardrails/fixtures';
import { compliantDaemonSet, podOf } from '../policy/support';
import { propsErrorIn } from '../support/synth';

function chartIn(app: App): Chart {
  return new Chart(app, 'c', { namespace: 'node-services' });
}

describe('NodeServiceGuardrails apiVersion and the target version', () => {
  test('V1 without a target of 1.30 or later is refused, naming the prop and the version that serves it', () => {
    // GIVEN an App with the default target (1.28)
    const chart = chartIn(Testing.app());
    // WHEN guardrails are asked for admissionregistration.k8s.io/v1 (and the App is synthesized)
    new NodeServiceGuardrails(chart, 'g', { ...CORPUS_PROPS, apiVersion: AdmissionPolicyApiVersion.V1 });
    const error = propsErrorIn(chart);
    // THEN one NodeServiceError names apiVersion, the value, 1.30 and how to declare the target
    expect(error).toBeInstanceOf(NodeServiceError);
    expect((error as NodeServiceError).problems).toEqual([
      {
        field: 'apiVersion',
        value: '"admissionregistration.k8s.io/v1"',
        problem: 'is served from Kubernetes 1.30; the target is 1.28',
        fix: "use AdmissionPolicyApiVersion.V1BETA1, or declare the target first: NodeServiceChecks.of(app, { kubernetesVersion: '1.30' })",
      },
    ]);
  });

  test('V1 with a target of 1.30 is accepted, and every emitted object is known to 1.30', () => {
    const app = Testing.app();
    NodeServiceChecks.of(app, { kubernetesVersion: KubernetesVersion.V1_30, logger: PolicyLoggers.silent() });
    const chart = chartIn(app);
    new NodeServiceGuardrails(chart, 'g', { ...CORPUS_PROPS, apiVersion: AdmissionPolicyApiVersion.V1 });
    const objects = Testing.synth(chart);
    expect(objects.length).toBeGreaterThan(0);
    expect(objects.flatMap((o) => versionProblems(o, KubernetesVersion.V1_30))).toEqual([]);
    // the same objects are refused by a 1.28 cluster, on their apiVersion
    expect(versionProblems(objects[0], KubernetesVersion.V1_28)).toEqual([
      'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy is served from Kubernetes 1.30; the target is 1.28',
    ]);
  });

  test('the default (v1beta1) guardrails and the namespace are known to 1.28', () => {
    const chart = chartIn(Testing.app());
    new NodeServiceGuardrails(chart, 'g', CORPUS_PROPS);
    new NodeServicesNamespace(chart, 'ns', { name: 'node-services', criticalPriorityClasses: [SystemPriorityClass.SYSTEM_NODE_CRITICAL] });
    const objects = Testing.synth(chart);
    expect(new Set(objects.map((o) => o.kind))).toEqual(
      new Set(['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'Namespace', 'ResourceQuota']),
    );
    expect(objects.flatMap((o) => versionProblems(o, KubernetesVersion.V1_28))).toEqual([]);
  });
});

describe('NodeServiceChecks and the target version', () => {
  test('an unsupported version is refused with the supported ones', () => {
    expect(() => NodeServiceChecks.of(Testing.app(), { kubernetesVersion: '1.27' as KubernetesVersion })).toThrow(
      /kubernetesVersion: '1\.27' is not a supported Kubernetes version \(one of 1\.28, 1\.29, 1\.30, 1\.31, 1\.32, 1\.33\)/,
    );
  });

  test('kubernetesVersionOf reads the declared target without registering checks', () => {
    const app = Testing.app();
    expect(NodeServiceChecks.kubernetesVersionOf(app)).toBe('1.28');
    NodeServiceChecks.of(app, { kubernetesVersion: KubernetesVersion.V1_31, logger: PolicyLoggers.silent() });
    expect(NodeServiceChecks.kubernetesVersionOf(chartIn(app))).toBe('1.31');
  });

  test('synthesis fails on a field the target lacks and passes once the target has it', () => {
    // GIVEN a DaemonSet with the 1.30 AppArmor field, in an App targeting 1.28
    const app = Testing.app();
    NodeServiceChecks.of(app, { logger: PolicyLoggers.silent() });
    const ds = compliantDaemonSet();
    podOf(ds).securityContext.appArmorProfile = { type: 'RuntimeDefault' };
    new ApiObject(chartIn(app), 'agent', ds);
    // WHEN synthesized THEN the unknown-field error fails synthesis
    expect(() => app.synthYaml()).toThrow(
      /unknown-field: unknown field "spec\.template\.spec\.securityContext\.appArmorProfile": appArmorProfile exists from Kubernetes 1\.30; the target is 1\.28/,
    );
    // AND raising the target lets it through
    NodeServiceChecks.of(app, { kubernetesVersion: KubernetesVersion.V1_30 });
    expect(() => app.synthYaml()).not.toThrow();
  });
});
