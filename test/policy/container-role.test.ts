/**
 * Container roles (main, init, known sidecars such as the CSI livenessprobe) and the rules whose answer depends on
 * them, on hand-made pods and on the real-world fixtures.
 */

import * as fs from 'fs';
import * as path from 'path';
import { ContainerRole, containerRole } from '../../src/k8s/container-role';
import { parseManifests } from '../../src/manifests';
import { checkManifests, Finding } from '../../src/policy/engine';
import { compliantDaemonSet } from './support';

const DIR = path.join(__dirname, '..', 'fixtures', 'real-world');
const POD = 'spec.template.spec';

describe('containerRole', () => {
  test.each([
    ['registry.k8s.io/sig-storage/livenessprobe:v2.15.0', false, ContainerRole.CSI_LIVENESS_PROBE],
    ['public.ecr.aws/eks-distro/kubernetes-csi/livenessprobe:v2.16.0-eks-1-33-4', false, ContainerRole.CSI_LIVENESS_PROBE],
    ['mcr.microsoft.com/oss/kubernetes-csi/livenessprobe@sha256:' + 'a'.repeat(64), false, ContainerRole.CSI_LIVENESS_PROBE],
    ['registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.13.0', false, ContainerRole.CSI_NODE_DRIVER_REGISTRAR],
    ['public.ecr.aws/eks-distro/kubernetes-csi/node-driver-registrar:v2.14.0', false, ContainerRole.CSI_NODE_DRIVER_REGISTRAR],
    ['registry.k8s.io/sig-storage/csi-provisioner:v5.2.0', false, ContainerRole.CSI_CONTROLLER_SIDECAR],
    ['registry.k8s.io/sig-storage/livenessprobe:v2.15.0', true, ContainerRole.INIT],
    ['cr.fluentbit.io/fluent/fluent-bit:3.0.7', false, ContainerRole.MAIN],
    ['example.com/livenessprobe-exporter:1', false, ContainerRole.MAIN],
    ['busybox:1.36', true, ContainerRole.INIT],
  ])('GIVEN image %s (init: %s) THEN %s', (image, init, role) => {
    expect(containerRole({ name: 'x', image }, init)).toBe(role);
  });

  test('GIVEN a restartable init container THEN a sidecar, a known role when its image is known', () => {
    expect(containerRole({ name: 'x', image: 'busybox:1.36', restartPolicy: 'Always' }, true)).toBe(ContainerRole.SIDECAR);
    expect(containerRole({ image: 'registry.k8s.io/sig-storage/livenessprobe:v2', restartPolicy: 'Always' }, true)).toBe(
      ContainerRole.CSI_LIVENESS_PROBE,
    );
  });

  test('GIVEN a main container merely named like a sidecar, or hostile values THEN main (a name is no evidence)', () => {
    expect(containerRole({ name: 'liveness-probe', image: 'example.com/agent:1' }, false)).toBe(ContainerRole.MAIN);
    expect(containerRole({ name: 'liveness-probe', image: 42 }, false)).toBe(ContainerRole.MAIN);
    expect(containerRole(null, false)).toBe(ContainerRole.MAIN);
    expect(containerRole('livenessprobe', true)).toBe(ContainerRole.INIT);
  });
});

/** The compliant log agent with its probes removed and `sidecars` appended to its containers. */
function podWith(sidecars: any[], mainProbes: { liveness?: boolean; readiness?: boolean } = {}): any {
  const ds = compliantDaemonSet();
  const main = ds.spec.template.spec.containers[0];
  if (!mainProbes.liveness) delete main.livenessProbe;
  if (!mainProbes.readiness) delete main.readinessProbe;
  ds.spec.template.spec.containers.push(...sidecars);
  return ds;
}

const LIVENESS_SIDECAR = { name: 'liveness-probe', image: 'registry.k8s.io/sig-storage/livenessprobe:v2.15.0' };
const REGISTRAR = { name: 'node-driver-registrar', image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.13.0' };

function findings(ds: any, rule: string): Finding[] {
  return checkManifests([ds]).findings.filter((f) => f.ruleId === rule);
}

describe('liveness-probe-missing by role', () => {
  test('GIVEN the CSI livenessprobe sidecar without a probe THEN no finding on it; the main container still gets its own', () => {
    const got = findings(podWith([LIVENESS_SIDECAR]), 'liveness-probe-missing');
    expect(got.map((f) => f.path)).toEqual([`${POD}.containers[0].livenessProbe`]);
  });

  test('GIVEN a main container named liveness-probe THEN it still gets the finding', () => {
    const got = findings(
      podWith([{ name: 'liveness-probe', image: 'example.com/health:1' }], { liveness: true }),
      'liveness-probe-missing',
    );
    expect(got.map((f) => f.path)).toEqual([`${POD}.containers[1].livenessProbe`]);
  });

  test('GIVEN the node-driver-registrar without a probe THEN the finding names its role and how upstream probes it', () => {
    const got = findings(podWith([REGISTRAR], { liveness: true }), 'liveness-probe-missing');
    expect(got.map((f) => [f.path, f.message])).toEqual([
      [
        `${POD}.containers[1].livenessProbe`,
        expect.stringMatching(
          /^container 'node-driver-registrar' \(the CSI node-driver-registrar sidecar\) has no liveness probe; .*--http-endpoint/,
        ),
      ],
    ]);
  });
});

describe('readiness-probe-missing by role', () => {
  test('GIVEN a registrar listed first and no probe THEN the finding is at the main container and names it', () => {
    const ds = podWith([]);
    ds.spec.template.spec.containers.unshift(REGISTRAR);
    const got = findings(ds, 'readiness-probe-missing');
    expect(got.map((f) => f.path)).toEqual([`${POD}.containers[1].readinessProbe`]);
    expect(got[0].message).toContain("probe 'fluent-bit'");
  });

  test('GIVEN a readiness probe on the registrar only THEN still a finding: it says the sidecar is up, not the driver', () => {
    const got = findings(
      podWith([{ ...REGISTRAR, readinessProbe: { httpGet: { path: '/healthz', port: 9809 } } }]),
      'readiness-probe-missing',
    );
    expect(got.map((f) => f.path)).toEqual([`${POD}.containers[0].readinessProbe`]);
    expect(got[0].message).toMatch(/^only the sidecar 'node-driver-registrar' has a readiness probe/);
  });

  test('GIVEN a readiness probe on the main container THEN no finding, whatever the sidecars have', () => {
    expect(findings(podWith([REGISTRAR, LIVENESS_SIDECAR], { readiness: true }), 'readiness-probe-missing')).toEqual([]);
  });
});

describe('container roles on the real-world fixtures', () => {
  const lint = (file: string) => {
    const { objects } = parseManifests(fs.readFileSync(path.join(DIR, file), 'utf8'), file);
    const ds = objects.map((o) => o.object).find((o) => o.kind === 'DaemonSet');
    return { ds, report: checkManifests(objects.map((o) => o.object)) };
  };
  const containerAt = (ds: any, p: string) => {
    const m = /^spec\.template\.spec\.(containers|initContainers)\[(\d+)\]/.exec(p);
    return m ? ds.spec.template.spec[m[1]][Number(m[2])] : undefined;
  };
  const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.yaml'));

  test('GIVEN every fixture THEN no probe finding is put on a CSI livenessprobe or registrar sidecar, except liveness advice to the registrar', () => {
    let sidecars = 0;
    for (const file of files) {
      const { ds, report } = lint(file);
      for (const c of ds.spec.template.spec.containers) if (containerRole(c, false) !== ContainerRole.MAIN) sidecars++;
      for (const f of report.findings.filter((x) => /probe-missing$/.test(x.ruleId))) {
        const role = containerRole(containerAt(ds, f.path), f.path.includes('initContainers'));
        const allowed =
          role === ContainerRole.MAIN || (f.ruleId === 'liveness-probe-missing' && role === ContainerRole.CSI_NODE_DRIVER_REGISTRAR);
        expect({ file, rule: f.ruleId, path: f.path, role, allowed }).toEqual({ file, rule: f.ruleId, path: f.path, role, allowed: true });
      }
    }
    // THEN the fixtures do hold such sidecars (the check above is not vacuous)
    expect(sidecars).toBeGreaterThanOrEqual(8);
  });

  test('GIVEN the GCP PD node plugin (registrar first) THEN readiness is asked of the driver, and liveness still of the driver', () => {
    const { report } = lint('gcp-pd-csi-node.yaml');
    const of = (rule: string) => report.findings.filter((f) => f.ruleId === rule).map((f) => f.path);
    expect(of('readiness-probe-missing')).toEqual([`${POD}.containers[1].readinessProbe`]);
    expect(of('liveness-probe-missing')).toEqual([`${POD}.containers[0].livenessProbe`, `${POD}.containers[1].livenessProbe`]);
  });

  test('GIVEN the AWS EBS node plugin THEN no liveness advice to its livenessprobe sidecar (which serves the driver probe)', () => {
    const { ds, report } = lint('aws-ebs-csi-node.yaml');
    expect(ds.spec.template.spec.containers[2].image).toMatch(/\/livenessprobe:/);
    expect(report.findings.filter((f) => f.ruleId === 'liveness-probe-missing')).toEqual([]);
  });
});
