/**
 * The real-world fixtures: DaemonSets written after what upstream manifests and Helm charts ship (each file's
 * header names the upstream it models). Every one must lint without a false error; the kind each is checked as, and
 * the warnings each gets, are asserted here.
 */

import * as fs from 'fs';
import * as path from 'path';
import { parseManifests, fieldPosition } from '../../src/manifests';
import { checkManifests, Finding } from '../../src/policy/engine';
import { KubernetesVersion } from '../../src/k8s/api-fields/versions';
import { RULES } from '../../src/policy/rules';
import { KIND_ANNOTATION } from '../../src/policy/kinds';

const DIR = path.join(__dirname, '..', 'fixtures', 'real-world');

/** The words of a finding the declared kind would be allowed (`declareKindHint`). */
const DECLARE_HINT = 'an inferred one is not';

/** Fixtures rendered for a newer cluster than the 1.28 default, with the version they are linted for. */
const TARGET_VERSION: { [file: string]: KubernetesVersion } = {
  'cilium-agent-helm-k8s-1.30.yaml': KubernetesVersion.V1_30,
};

function lintFile(file: string, version: KubernetesVersion | undefined = TARGET_VERSION[file]) {
  const text = fs.readFileSync(path.join(DIR, file), 'utf8');
  const { objects, problems } = parseManifests(text, file);
  expect(problems).toEqual([]);
  const report = checkManifests(
    objects.map((o) => o.object),
    version ? { kubernetesVersion: version } : undefined,
  );
  return { text, objects, report };
}

/**
 * [file, kind checked as, where the kind came from, the warning rules it gets (each cause once)]. The warnings an
 * inferred kind gets where the declared kind would be allowed (they say how to declare the kind) are checked apart.
 */
const EXPECTED: Array<[string, string, string, string[]]> = [
  ['antrea-agent-windows.yaml', 'cni-plugin', 'inferred', ['host-path-type-missing', 'memory-request-missing', 'readiness-probe-missing']],
  [
    'antrea-agent.yaml',
    'cni-plugin',
    'inferred',
    [
      'capabilities-not-dropped',
      'dangerous-capability',
      'host-path-type-missing',
      'host-path-writable',
      'memory-request-missing',
      'privilege-escalation-allowed',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  ['aws-ebs-csi-node.yaml', 'csi-node', 'inferred', ['capabilities-not-dropped', 'seccomp-profile-missing']],
  [
    'aws-node.yaml',
    'cni-plugin',
    'inferred',
    [
      'capabilities-not-dropped',
      'host-path-type-missing',
      'host-path-writable',
      'memory-request-missing',
      'privilege-escalation-allowed',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  ['azuredisk-csi-node-windows.yaml', 'csi-node', 'inferred', ['host-path-type-missing', 'host-path-writable', 'readiness-probe-missing']],
  [
    'azuredisk-csi-node.yaml',
    'csi-node',
    'inferred',
    ['capabilities-not-dropped', 'privilege-escalation-allowed', 'readiness-probe-missing', 'writable-root-filesystem'],
  ],
  ['calico-node.yaml', 'cni-plugin', 'inferred', ['host-path-type-missing', 'memory-request-missing']],
  [
    'ceph-csi-rbdplugin.yaml',
    'csi-node',
    'inferred',
    [
      'cpu-request-missing',
      'default-namespace',
      'host-path-type-missing',
      'host-pid-without-need',
      'memory-request-missing',
      'readiness-probe-missing',
    ],
  ],
  [
    'cilium-agent-helm.yaml',
    'cni-plugin',
    'inferred',
    [
      'capabilities-not-dropped',
      'cpu-request-missing',
      'dangerous-capability',
      'memory-request-missing',
      'privilege-escalation-allowed',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  [
    'cilium-agent-helm-k8s-1.30.yaml',
    'cni-plugin',
    'inferred',
    [
      'capabilities-not-dropped',
      'cpu-request-missing',
      'dangerous-capability',
      'memory-request-missing',
      'privilege-escalation-allowed',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  [
    'datadog-agent-helm.yaml',
    'monitoring-agent',
    'inferred',
    [
      'capabilities-not-dropped',
      'container-runtime-socket',
      'cpu-request-missing',
      'host-path-writable',
      'memory-limit-missing',
      'memory-request-missing',
      'privilege-escalation-allowed',
      'run-as-non-root',
      'seccomp-profile-missing',
      'service-account-rbac',
      'writable-root-filesystem',
    ],
  ],
  ['dcgm-exporter.yaml', 'gpu-monitor', 'inferred', ['dangerous-capability', 'seccomp-profile-missing', 'writable-root-filesystem']],
  ['falco-helm.yaml', 'security-agent', 'inferred', ['host-path-type-missing', 'privileged-container']],
  [
    'filebeat.yaml',
    'log-agent',
    'inferred',
    [
      'capabilities-not-dropped',
      'host-network-without-need',
      'privilege-escalation-allowed',
      'readiness-probe-missing',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  [
    'flannel.yaml',
    'cni-plugin',
    'inferred',
    [
      'capabilities-not-dropped',
      'host-path-type-missing',
      'privilege-escalation-allowed',
      'readiness-probe-missing',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  [
    'fluent-bit-helm.yaml',
    'log-agent',
    'inferred',
    [
      'capabilities-not-dropped',
      'cpu-request-missing',
      'host-path-type-missing',
      'host-path-writable',
      'memory-limit-missing',
      'memory-request-missing',
      'privilege-escalation-allowed',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  [
    'fluentd.yaml',
    'log-agent',
    'inferred',
    [
      'capabilities-not-dropped',
      'deprecated-service-account-field',
      'host-path-type-missing',
      'host-path-writable',
      'privilege-escalation-allowed',
      'readiness-probe-missing',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  [
    'gcp-pd-csi-node.yaml',
    'csi-node',
    'inferred',
    [
      'capabilities-not-dropped',
      'cpu-request-missing',
      'memory-request-missing',
      'privilege-escalation-allowed',
      'readiness-probe-missing',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  ['kruise-advanced-daemonset.yaml', 'log-agent', 'inferred', ['seccomp-profile-missing']],
  [
    'kube-bench-node.yaml',
    'security-agent',
    'inferred',
    [
      'capabilities-not-dropped',
      'cpu-request-missing',
      'memory-limit-missing',
      'memory-request-missing',
      'privilege-escalation-allowed',
      'readiness-probe-missing',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  [
    'kube-proxy-windows-hostprocess.yaml',
    'kube-proxy',
    'inferred',
    ['cpu-request-missing', 'memory-request-missing', 'priority-class-missing', 'readiness-probe-missing'],
  ],
  ['kube-proxy.yaml', 'kube-proxy', 'inferred', ['cpu-request-missing', 'memory-request-missing', 'readiness-probe-missing']],
  [
    'kube-router.yaml',
    'cni-plugin',
    'inferred',
    [
      'capabilities-not-dropped',
      'host-path-type-missing',
      'host-pid-without-need',
      'privilege-escalation-allowed',
      'readiness-probe-missing',
      'seccomp-profile-missing',
    ],
  ],
  ['longhorn-manager.yaml', 'csi-node', 'inferred', ['cpu-request-missing', 'host-path-type-missing', 'memory-request-missing']],
  [
    'metallb-speaker.yaml',
    'node-service',
    'default',
    [
      'cpu-request-missing',
      'host-network-dns-policy',
      'host-network-without-need',
      'memory-limit-missing',
      'memory-request-missing',
      'run-as-non-root',
      'seccomp-profile-missing',
    ],
  ],
  [
    'multus-thick.yaml',
    'cni-plugin',
    'inferred',
    ['host-path-type-missing', 'host-pid-without-need', 'priority-class-missing', 'readiness-probe-missing'],
  ],
  [
    'node-exporter-helm.yaml',
    'monitoring-agent',
    'inferred',
    [
      'capabilities-not-dropped',
      'cpu-request-missing',
      'memory-limit-missing',
      'memory-request-missing',
      'privilege-escalation-allowed',
      'seccomp-profile-missing',
    ],
  ],
  ['node-exporter-kube-prometheus.yaml', 'monitoring-agent', 'inferred', ['readiness-probe-missing', 'seccomp-profile-missing']],
  [
    'nvidia-device-plugin.yaml',
    'device-plugin',
    'inferred',
    [
      'cpu-request-missing',
      'host-path-type-missing',
      'memory-request-missing',
      'readiness-probe-missing',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  [
    'promtail.yaml',
    'log-agent',
    'inferred',
    [
      'cpu-request-missing',
      'host-path-type-missing',
      'host-path-writable',
      'memory-limit-missing',
      'memory-request-missing',
      'seccomp-profile-missing',
    ],
  ],
  [
    'secrets-store-csi-driver.yaml',
    'csi-node',
    'inferred',
    [
      'capabilities-not-dropped',
      'priority-class-missing',
      'privilege-escalation-allowed',
      'readiness-probe-missing',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  [
    'tetragon-helm.yaml',
    'security-agent',
    'inferred',
    [
      'capabilities-not-dropped',
      'cpu-request-missing',
      'host-path-writable',
      'memory-limit-missing',
      'memory-request-missing',
      'privilege-escalation-allowed',
      'privileged-container',
      'readiness-probe-missing',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
  [
    'vector-agent-helm.yaml',
    'log-agent',
    'inferred',
    [
      'capabilities-not-dropped',
      'cpu-request-missing',
      'host-path-type-missing',
      'memory-limit-missing',
      'memory-request-missing',
      'privilege-escalation-allowed',
      'seccomp-profile-missing',
      'writable-root-filesystem',
    ],
  ],
];

describe('real-world DaemonSets', () => {
  test('there are at least 30, each with a header naming the upstream it models', () => {
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(30);
    expect(files.sort()).toEqual(EXPECTED.map(([f]) => f).sort());
    for (const f of files) expect(fs.readFileSync(path.join(DIR, f), 'utf8')).toMatch(/^# Models: \S+/);
  });

  test.each(EXPECTED)('%s: checked as %s (%s), no error, the expected warnings', (file, kind, source, warnings) => {
    const { report } = lintFile(file);
    expect(report.checkedObjects).toBe(1);
    expect(report.objects.map((o) => [o.serviceKind, o.kindSource])).toEqual([[kind, source]]);
    const errors = report.findings.filter((f) => f.severity === 'error');
    expect(errors.map((f) => `${f.ruleId} ${f.path}: ${f.message}`)).toEqual([]);
    const plain = report.findings.filter((f) => f.severity === 'warning' && !f.message.includes(DECLARE_HINT));
    expect([...new Set(plain.map((f) => f.ruleId))].sort()).toEqual(warnings);
  });

  test.each(EXPECTED.filter(([, , source]) => source === 'inferred'))(
    '%s: what the declared %s would be allowed stays a warning that says how to declare it, and declaring it drops or lowers exactly that',
    (file, kind) => {
      // GIVEN the findings of the manifest with its kind inferred
      const { objects, report } = lintFile(file);
      const hinted = report.findings.filter((f) => f.message.includes(DECLARE_HINT));
      for (const f of hinted) {
        expect({ rule: f.ruleId, severity: f.severity }).toEqual({
          rule: f.ruleId,
          severity: f.ruleId === 'liveness-probe-missing' ? 'info' : 'warning',
        });
        expect(f.message).toContain(`${KIND_ANNOTATION}: ${kind}`);
      }
      // WHEN the kind is declared with the annotation
      const declared = objects
        .map((o) => o.object)
        .map((o) =>
          o.kind === 'DaemonSet'
            ? { ...o, metadata: { ...o.metadata, annotations: { ...o.metadata?.annotations, [KIND_ANNOTATION]: kind } } }
            : o,
        );
      const version = TARGET_VERSION[file];
      const after = checkManifests(declared, version ? { kubernetesVersion: version } : undefined).findings;
      // THEN each hinted finding is gone or lower, and every other finding is still there, as serious or more (a
      // declared collector must limit its memory)
      const rank = (s: string) => ['info', 'warning', 'error'].indexOf(s);
      for (const f of hinted) {
        const now = after.find((g) => g.ruleId === f.ruleId && g.path === f.path);
        expect({ f: `${f.ruleId} ${f.path}`, lower: now === undefined || rank(now.severity) < rank(f.severity) }).toEqual({
          f: `${f.ruleId} ${f.path}`,
          lower: true,
        });
      }
      for (const f of report.findings.filter((g) => !g.message.includes(DECLARE_HINT))) {
        const now = after.find((g) => g.ruleId === f.ruleId && g.path === f.path);
        expect({ f: `${f.ruleId} ${f.path}`, kept: now !== undefined && rank(now.severity) >= rank(f.severity) }).toEqual({
          f: `${f.ruleId} ${f.path}`,
          kept: true,
        });
      }
    },
  );

  test('a render for Kubernetes 1.30 (appArmorProfile) is refused for the 1.28 default: the unknown field, at its line', () => {
    const file = 'cilium-agent-helm-k8s-1.30.yaml';
    const { text, objects, report } = lintFile(file, KubernetesVersion.V1_28);
    const errors = report.findings.filter((f) => f.severity === 'error');
    expect(errors.map((f) => [f.ruleId, f.path])).toEqual([['unknown-field', 'spec.template.spec.securityContext.appArmorProfile']]);
    expect(errors[0].message).toContain('appArmorProfile exists from Kubernetes 1.30; the target is 1.28');
    const at = fieldPosition(objects[errors[0].objectIndex], errors[0].path);
    expect(text.split(/\r?\n/)[at!.line - 1]).toMatch(/^\s+appArmorProfile:/);
  });

  const windows = EXPECTED.filter(([f]) => f.includes('windows'));
  test.each(windows.map(([f]) => f))('%s: no Linux-only advice on a Windows pod', (file) => {
    const { report } = lintFile(file);
    const linuxOnly = new Set(RULES.filter((r) => r.linuxOnly).map((r) => r.id));
    expect(linuxOnly.size).toBeGreaterThan(5);
    expect(report.findings.filter((f) => linuxOnly.has(f.ruleId)).map((f) => f.ruleId)).toEqual([]);
  });

  test('one finding per cause: a privileged container gets the privileged finding, not its mounts, capabilities or seccomp', () => {
    for (const file of EXPECTED.map(([f]) => f)) {
      const { objects, report } = lintFile(file);
      const pod = objects.find((o) => o.object.kind === 'DaemonSet')!.object.spec.template.spec;
      const all = [
        ...(pod.containers ?? []).map((c: any, i: number) => [`containers[${i}]`, c]),
        ...(pod.initContainers ?? []).map((c: any, i: number) => [`initContainers[${i}]`, c]),
      ];
      for (const [at, c] of all) {
        if (c.securityContext?.privileged !== true) continue;
        const own = report.findings.filter((f: Finding) => f.path.startsWith(`spec.template.spec.${at}.`));
        const subsumed = [
          'host-path-writable',
          'sensitive-host-path-writable',
          'capabilities-not-dropped',
          'privilege-escalation-allowed',
          'dangerous-capability',
          'writable-root-filesystem',
          'seccomp-profile-missing',
        ];
        expect({ file, at, rules: own.map((f) => f.ruleId).filter((r) => subsumed.includes(r)) }).toEqual({ file, at, rules: [] });
      }
    }
  });

  test('every finding points at its field: the line and column hold the last path key that exists in the manifest', () => {
    let checked = 0;
    for (const file of EXPECTED.map(([f]) => f)) {
      const { text, objects, report } = lintFile(file);
      const lines = text.split('\n');
      for (const f of report.findings) {
        const at = fieldPosition(objects[f.objectIndex], f.path);
        expect(at).toBeDefined();
        // the deepest key of the path that exists in the object
        const keys = f.path.replace(/\[(\d+)\]/g, '.$1').split('.');
        let value: any = objects[f.objectIndex].object;
        let last = '';
        for (const k of keys) {
          if (value === null || typeof value !== 'object' || !(k in value)) break;
          value = value[k];
          // an existing list item is placed at its first key
          last = !/^\d+$/.test(k) ? k : value !== null && typeof value === 'object' ? Object.keys(value)[0] : String(value);
        }
        const rest = lines[at!.line - 1]
          .slice(at!.column - 1)
          .replace(/^\{\s*/, '')
          .replace(/^["']/, '');
        expect({ file, path: f.path, at: rest.startsWith(last) ? last : rest }).toEqual({ file, path: f.path, at: last });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(200);
  });
});
