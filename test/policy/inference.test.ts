/**
 * Inference never silences (DESIGN decision 11): a kind inferred from a manifest's shape gets none of the declared
 * kind's allowances silently, and adding a read-only mount, a label or a port never makes a DaemonSet look safer.
 */

import * as fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { parseManifests } from '../../src/manifests';
import { checkManifests, Finding } from '../../src/policy/engine';
import { KIND_ANNOTATION } from '../../src/policy/kinds';
import { RuleCategory, Severity } from '../../src/policy/types';
import { runCli } from '../support/cli';

const RANK: Record<string, number> = { info: 0, warning: 1, error: 2 };

/** The host-access findings of a check, by rule and field. */
function hostAccess(findings: readonly Finding[]): Map<string, Finding> {
  return new Map(findings.filter((f) => f.category === RuleCategory.HOST_ACCESS).map((f) => [`${f.ruleId} ${f.path}`, f]));
}

/** A DaemonSet `name` in `namespace` with the pod spec `pod`. */
function daemonSet(name: string, namespace: string, pod: any): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: pod } },
  };
}

/** The reproduction: a DaemonSet in `team-a` with host network, node-admin capabilities and writable host paths. */
function teamAgent(extraVolumes: any[] = [], extraMounts: any[] = [], image = 'registry.example.com/agent:1.0'): any {
  return daemonSet('agent', 'team-a', {
    hostNetwork: true,
    containers: [
      {
        name: 'agent',
        image,
        securityContext: { capabilities: { drop: ['ALL'], add: ['SYS_ADMIN', 'SYS_MODULE', 'DAC_OVERRIDE'] } },
        volumeMounts: [{ name: 'proc', mountPath: '/host/proc' }, { name: 'containerd', mountPath: '/run/containerd' }, ...extraMounts],
      },
    ],
    volumes: [
      { name: 'proc', hostPath: { path: '/proc', type: 'Directory' } },
      { name: 'containerd', hostPath: { path: '/run/containerd', type: 'Directory' } },
      ...extraVolumes,
    ],
  });
}

const CNI_BIN = { name: 'cni', hostPath: { path: '/opt/cni/bin', type: 'Directory' } };

async function lintExit(object: any): Promise<number> {
  return (await runCli(['lint', '-'], { stdin: yaml.dump(object) })).code;
}

describe('the reproduction: a read-only /opt/cni/bin mount does not make a team DaemonSet a CNI', () => {
  test('GIVEN the DaemonSet WHEN a read-only /opt/cni/bin mount is added THEN every host-access finding stays, none lower, and lint still exits 1', async () => {
    // GIVEN
    const before = teamAgent();
    const after = teamAgent([CNI_BIN], [{ name: 'cni', mountPath: '/host/opt/cni/bin', readOnly: true }]);
    // WHEN
    const a = checkManifests([before]);
    const b = checkManifests([after]);
    // THEN the first has the host-access findings of what it does
    const first = hostAccess(a.findings);
    expect([...new Set([...first.values()].map((f) => f.ruleId))].sort()).toEqual([
      'container-runtime-socket',
      'dangerous-capability',
      'host-network-without-need',
      'host-path-writable',
      'privilege-escalation-allowed',
      'run-as-non-root',
      'seccomp-profile-missing',
      'sensitive-host-path-writable',
      'writable-root-filesystem',
    ]);
    expect(first.get('sensitive-host-path-writable spec.template.spec.containers[0].volumeMounts[0].readOnly')?.severity).toBe('error');
    // and the second every one of them, at the same severity
    const second = hostAccess(b.findings);
    for (const [key, f] of first) expect({ key, severity: second.get(key)?.severity }).toEqual({ key, severity: f.severity });
    expect(b.errorCount).toBe(a.errorCount);
    expect(await lintExit(before)).toBe(1);
    expect(await lintExit(after)).toBe(1);
  });

  test('GIVEN the DaemonSet with a writable /opt/cni/bin THEN it is inferred as a CNI from host paths, and the /proc write stays an error that says how to declare the kind', async () => {
    const cni = teamAgent([CNI_BIN], [{ name: 'cni', mountPath: '/host/opt/cni/bin' }]);
    const report = checkManifests([cni]);
    expect(report.objects.map((o) => [o.serviceKind, o.kindSource])).toEqual([['cni-plugin', 'inferred']]);
    const proc = report.findings.find((f) => f.ruleId === 'sensitive-host-path-writable')!;
    expect(proc.severity).toBe('error');
    expect(proc.message).toContain(`declare it with the annotation ${KIND_ANNOTATION}: cni-plugin`);
    // the capabilities a declared CNI gets only with a reason are still reported
    expect(report.findings.filter((f) => f.ruleId === 'dangerous-capability').map((f) => f.message)).toEqual([
      expect.stringContaining("'SYS_ADMIN'"),
      expect.stringContaining("'SYS_MODULE'"),
    ]);
    expect(await lintExit(cni)).toBe(1);
  });

  test('GIVEN a CNI shown by its image (a vendor Cilium) THEN the /proc write a CNI needs is a warning, not hidden, and lint exits 0 on it', async () => {
    const cilium = teamAgent([CNI_BIN], [{ name: 'cni', mountPath: '/host/opt/cni/bin' }], 'quay.io/cilium/cilium:v1.16.0');
    cilium.spec.template.spec.containers[0].volumeMounts.splice(1, 1);
    cilium.spec.template.spec.volumes.splice(1, 1);
    const report = checkManifests([cilium]);
    expect(report.objects[0].kindEvidence).toBe('hostNetwork and the cilium image');
    const proc = report.findings.find((f) => f.ruleId === 'sensitive-host-path-writable')!;
    expect(proc.severity).toBe('warning');
    expect(proc.message).toContain(`declare it with the annotation ${KIND_ANNOTATION}: cni-plugin`);
    expect(report.errorCount).toBe(0);
    expect(await lintExit(cilium)).toBe(0);
  });

  test('GIVEN the same DaemonSet declared a cni-plugin THEN the /proc write is allowed, and the capabilities outside the defaults still need a reason', () => {
    const declared = teamAgent([CNI_BIN], [{ name: 'cni', mountPath: '/host/opt/cni/bin' }]);
    declared.metadata.annotations = { [KIND_ANNOTATION]: 'cni-plugin' };
    const ids = checkManifests([declared]).findings.map((f) => `${f.ruleId}:${f.severity}`);
    expect(ids).not.toContain('sensitive-host-path-writable:error');
    expect(ids.filter((i) => i.startsWith('sensitive-host-path-writable') || i.startsWith('host-network-without-need'))).toEqual([]);
    expect(ids.filter((i) => i.startsWith('dangerous-capability'))).toEqual([
      'dangerous-capability:warning',
      'dangerous-capability:warning',
    ]);
    // /run/containerd is a runtime socket directory, which no `*` of the CNI allowlist stands for
    expect(ids).toContain('host-path-not-allowed:error');
  });
});

describe('host namespaces without a declared need', () => {
  const logAgent = (pod: any) =>
    daemonSet('logs', 'logging', {
      ...pod,
      containers: [
        {
          name: 'shipper',
          image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.0',
          volumeMounts: [{ name: 'log', mountPath: '/var/log', readOnly: true }],
        },
      ],
      volumes: [{ name: 'log', hostPath: { path: '/var/log', type: 'Directory' } }],
    });

  test.each([
    ['hostPID', 'host-pid-without-need'],
    ['hostIPC', 'host-ipc-without-need'],
    ['hostNetwork', 'host-network-without-need'],
  ])('GIVEN a log-agent-shaped DaemonSet with %s THEN %s is a warning naming the inferred kind', (field, rule) => {
    const report = checkManifests([logAgent({ [field]: true })]);
    expect(report.objects[0].serviceKind).toBe('log-agent');
    const found = report.findings.filter((f) => f.ruleId === rule);
    expect(found.map((f) => [f.severity, f.path])).toEqual([['warning', `spec.template.spec.${field}`]]);
    expect(found[0].message).toBe(`${field} is true, which kind 'log-agent' (inferred) does not need`);
  });

  test('GIVEN hostPID on a DaemonSet of no kind THEN it is a warning that says no kind declares the need', () => {
    const ds: any = logAgent({ hostPID: true });
    ds.spec.template.spec.volumes = [];
    ds.spec.template.spec.containers[0].volumeMounts = [];
    const found = checkManifests([ds]).findings.filter((f) => f.ruleId === 'host-pid-without-need');
    expect(found.map((f) => f.severity)).toEqual(['warning']);
    expect(found[0].message).toContain(`no node-service kind that needs it is declared (${KIND_ANNOTATION})`);
  });

  test('GIVEN hostPID on a node exporter THEN inferred it is a warning with the way to declare it; declared it is not reported', () => {
    const exporter: any = logAgent({ hostPID: true });
    exporter.spec.template.spec.volumes = [
      { name: 'proc', hostPath: { path: '/proc' } },
      { name: 'sys', hostPath: { path: '/sys' } },
    ];
    exporter.spec.template.spec.containers[0].volumeMounts = [];
    const inferred = checkManifests([exporter]).findings.filter((f) => f.ruleId === 'host-pid-without-need');
    expect(inferred.map((f) => f.severity)).toEqual(['warning']);
    expect(inferred[0].message).toContain(`${KIND_ANNOTATION}: monitoring-agent`);
    exporter.metadata.annotations = { [KIND_ANNOTATION]: 'monitoring-agent' };
    expect(checkManifests([exporter]).findings.filter((f) => f.ruleId === 'host-pid-without-need')).toEqual([]);
  });
});

/** Host paths the generated DaemonSets mount: sensitive, kind-identifying, runtime sockets, ordinary. */
const PATHS = [
  '/proc',
  '/sys',
  '/dev',
  '/var/lib/kubelet',
  '/var/lib/kubelet/plugins',
  '/var/lib/kubelet/plugins_registry',
  '/var/lib/kubelet/device-plugins',
  '/var/lib/kubelet/pod-resources',
  '/opt/cni/bin',
  '/etc/cni/net.d',
  '/var/log',
  '/var/lib/agent',
  '/run/containerd',
  '/var/run/docker.sock',
  '/sys/kernel/tracing',
  '/sys/fs/bpf',
  '/etc',
  '/',
];
/** The host paths that show a kind: a read-only mount of any of them must not make the DaemonSet look safer. */
const CLUES = [
  '/opt/cni/bin',
  '/etc/cni/net.d',
  '/var/lib/kubelet/plugins',
  '/var/lib/kubelet/plugins_registry',
  '/var/lib/kubelet/device-plugins',
  '/var/lib/kubelet/pod-resources',
  '/var/log',
  '/sys/kernel/tracing',
  '/var/lib/etcd',
  '/proc',
  '/sys',
  '/dev',
  '/',
];
const CAPABILITIES = ['SYS_ADMIN', 'SYS_MODULE', 'NET_ADMIN', 'NET_RAW', 'BPF', 'SYS_PTRACE', 'DAC_OVERRIDE', 'CHOWN'];
const IMAGES = [
  'registry.example.com/agent:1.0',
  'quay.io/cilium/cilium:v1.16.0',
  'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.13.0',
  'registry.k8s.io/kube-proxy:v1.28.15',
  'falcosecurity/falco:0.39.0',
  'nvcr.io/nvidia/k8s/dcgm-exporter:3.3.8',
];

/** A DaemonSet with random host access: host namespaces, capabilities, privilege and host-path mounts. */
const daemonSets = fc
  .record({
    hostNetwork: fc.boolean(),
    hostPID: fc.boolean(),
    hostIPC: fc.boolean(),
    privileged: fc.constantFrom(false, false, false, true),
    image: fc.constantFrom(...IMAGES),
    capabilities: fc.subarray(CAPABILITIES),
    mounts: fc.array(
      fc.record({
        path: fc.constantFrom(...PATHS),
        readOnly: fc.constantFrom(false, false, true),
        bidirectional: fc.constantFrom(false, false, false, true),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  })
  .map((d) =>
    daemonSet('agent', 'team-a', {
      hostNetwork: d.hostNetwork,
      hostPID: d.hostPID,
      hostIPC: d.hostIPC,
      containers: [
        {
          name: 'agent',
          image: d.image,
          securityContext: { privileged: d.privileged, capabilities: { drop: ['ALL'], add: d.capabilities } },
          volumeMounts: d.mounts.map((m, i) => ({
            name: `v${i}`,
            mountPath: `/host/v${i}`,
            readOnly: m.readOnly,
            ...(m.bidirectional ? { mountPropagation: 'Bidirectional' } : {}),
          })),
        },
      ],
      volumes: d.mounts.map((m, i) => ({ name: `v${i}`, hostPath: { path: m.path } })),
    }),
  );

/** The real-world DaemonSets (vendor manifests), each as plain objects. */
const FIXTURES = (() => {
  const dir = path.join(__dirname, '..', 'fixtures', 'real-world');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => parseManifests(fs.readFileSync(path.join(dir, f), 'utf8'), f).objects.map((o) => o.object))
    .map((objects) => objects.find((o) => o.kind === 'DaemonSet'));
})();

/** One change that must not make a DaemonSet look safer. */
type Change =
  | { kind: 'mount'; path: string; container: number }
  | { kind: 'label'; key: string; template: boolean }
  | { kind: 'port'; port: number; host: boolean };

const changes: fc.Arbitrary<Change> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('mount' as const), path: fc.constantFrom(...CLUES), container: fc.nat(3) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('mount' as const), path: fc.constantFrom(...PATHS), container: fc.nat(3) }), weight: 1 },
  fc.record({ kind: fc.constant('label' as const), key: fc.constantFrom('team', 'tier', 'example.com/owner'), template: fc.boolean() }),
  fc.record({ kind: fc.constant('port' as const), port: fc.integer({ min: 1024, max: 65535 }), host: fc.boolean() }),
);

/** `ds` with `change` applied, appended after everything already there (so existing findings keep their paths). */
function apply(ds: any, change: Change): any {
  const out = structuredClone(ds);
  const pod = out.spec.template.spec;
  const containers: any[] = [...(pod.containers ?? []), ...(pod.initContainers ?? [])];
  const c = containers[change.kind === 'mount' ? change.container % containers.length : 0];
  if (change.kind === 'mount') {
    const name = `added-${(pod.volumes ?? []).length}`;
    pod.volumes = [...(pod.volumes ?? []), { name, hostPath: { path: change.path } }];
    c.volumeMounts = [...(c.volumeMounts ?? []), { name, mountPath: `/added${change.path === '/' ? '' : change.path}`, readOnly: true }];
  } else if (change.kind === 'label') {
    const meta = change.template ? (out.spec.template.metadata ??= {}) : out.metadata;
    meta.labels = { ...(meta.labels ?? {}), [change.key]: 'added' };
  } else {
    c.ports = [...(c.ports ?? []), { containerPort: change.port, ...(change.host ? { hostPort: change.port } : {}) }];
  }
  return out;
}

/** Why `after` looks safer than `before`, or `undefined` when it does not. */
function lookedSafer(before: any, after: any): string | undefined {
  const a = checkManifests([before]);
  const b = checkManifests([after]);
  const now = hostAccess(b.findings);
  for (const [key, f] of hostAccess(a.findings)) {
    const g = now.get(key);
    if (g === undefined) return `${key} (${f.severity}) is gone`;
    const floor = Math.min(RANK[f.severity], RANK[Severity.WARNING]);
    if (RANK[g.severity] < floor) return `${key} went from ${f.severity} to ${g.severity}`;
  }
  if (b.errorCount < a.errorCount) return `errors went from ${a.errorCount} to ${b.errorCount}`;
  return undefined;
}

describe('property: a read-only mount, a label or a port never makes a DaemonSet look safer', () => {
  test('on generated DaemonSets of every shape: no host-access finding removed or lowered below a warning, no error less', () => {
    fc.assert(
      fc.property(daemonSets, fc.array(changes, { minLength: 1, maxLength: 3 }), (ds, list) => {
        const after = list.reduce(apply, ds);
        expect(lookedSafer(ds, after)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  test('on the real-world DaemonSets', () => {
    expect(FIXTURES.length).toBeGreaterThanOrEqual(30);
    fc.assert(
      fc.property(fc.constantFrom(...FIXTURES), fc.array(changes, { minLength: 1, maxLength: 3 }), (ds, list) => {
        const after = list.reduce(apply, ds);
        expect({ name: ds.metadata.name, why: lookedSafer(ds, after) }).toEqual({ name: ds.metadata.name, why: undefined });
      }),
      { numRuns: 200 },
    );
  });

  test('the property can fail: granting the declared kind (the annotation) hides findings, which the check reports', () => {
    const cni = teamAgent([CNI_BIN], [{ name: 'cni', mountPath: '/host/opt/cni/bin' }]);
    const declared = structuredClone(cni);
    declared.metadata.annotations = { [KIND_ANNOTATION]: 'cni-plugin' };
    expect(lookedSafer(cni, declared)).toMatch(/is gone|went from|errors went/);
  });
});
