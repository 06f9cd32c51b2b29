/**
 * Pod Security Standards evaluation (policy v1.28) and the namespace labels derived from it: one compliant and one
 * violating pod per control, the pod-level vs container-level precedence upstream applies, the restricted overrides,
 * and `NodeServicesNamespace` setting `audit` / `warn` from the services it holds.
 */

import { Chart, JsonPatch } from 'cdk8s';
import {
  Canary,
  evaluatePodSecurity,
  LogAgent,
  NodeService,
  NodeServicesNamespace,
  POD_SECURITY_POLICY_VERSION,
  PodSecurityEvaluation,
  PodSecurityLevel,
  strictestCommonLevel,
} from '../../src';
import { validateAll } from '../support/schema';
import { errorOf, only, synth, testChart } from '../support/synth';

type Json = any;

/** A container that meets restricted on its own. */
function hardened(name = 'app', securityContext: Json = {}): Json {
  return {
    name,
    image: 'registry.example.com/app:1.0.0',
    securityContext: {
      allowPrivilegeEscalation: false,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
      ...securityContext,
    },
  };
}

/** A Pod that meets restricted, with `spec` merged in. */
function pod(spec: Json = {}, metadata: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ...metadata }, spec: { containers: [hardened()], ...spec } };
}

/** A Pod whose single container has `securityContext` merged into the hardened one. */
function podWith(securityContext: Json, spec: Json = {}): Json {
  return pod({ containers: [hardened('app', securityContext)], ...spec });
}

const controlsOf = (violations: PodSecurityEvaluation['baselineViolations']) => violations.map((v) => v.control);

interface ControlCase {
  /** The PSA check id. */
  readonly control: string;
  /** A pod that meets the control's level. */
  readonly compliant: Json;
  /** A pod that violates only this control (at its level). */
  readonly violating: Json;
  /** Fragments of the violation's summary. */
  readonly summary: string[];
  /** The offending field paths. */
  readonly fields: string[];
}

const BASELINE_CASES: ControlCase[] = [
  {
    control: 'windowsHostProcess',
    compliant: pod({ securityContext: { windowsOptions: { hostProcess: false } } }),
    violating: podWith({ windowsOptions: { hostProcess: true } }),
    summary: ['windowsOptions.hostProcess=true', 'container "app"'],
    fields: ['spec.containers[0].securityContext.windowsOptions.hostProcess'],
  },
  {
    control: 'hostNamespaces',
    compliant: pod({ hostNetwork: false, hostPID: false, hostIPC: false }),
    violating: pod({ hostNetwork: true, hostIPC: true }),
    summary: ['hostNetwork=true, hostIPC=true'],
    fields: ['spec.hostNetwork', 'spec.hostIPC'],
  },
  {
    control: 'privileged',
    compliant: podWith({ privileged: false }),
    violating: podWith({ privileged: true }),
    summary: ['privileged=true', 'container "app"'],
    fields: ['spec.containers[0].securityContext.privileged'],
  },
  {
    control: 'capabilities_baseline',
    compliant: podWith({ capabilities: { drop: ['ALL'], add: ['CHOWN', 'KILL', 'NET_BIND_SERVICE', 'SYS_CHROOT'] } }),
    violating: podWith({ capabilities: { drop: ['ALL'], add: ['CHOWN', 'NET_ADMIN'] } }),
    summary: ['capabilities.add NET_ADMIN', 'container "app"'],
    fields: ['spec.containers[0].securityContext.capabilities.add'],
  },
  {
    control: 'hostPathVolumes',
    compliant: pod({ volumes: [{ name: 'scratch', emptyDir: {} }] }),
    violating: pod({
      volumes: [
        { name: 'scratch', emptyDir: {} },
        { name: 'host-var-log', hostPath: { path: '/var/log', type: 'Directory' } },
      ],
    }),
    summary: ['hostPath volumes "host-var-log"'],
    fields: ['spec.volumes[1].hostPath'],
  },
  {
    control: 'hostPorts',
    compliant: pod({ containers: [{ ...hardened(), ports: [{ containerPort: 8080 }, { containerPort: 8081, hostPort: 0 }] }] }),
    violating: pod({ containers: [{ ...hardened(), ports: [{ containerPort: 8080 }, { containerPort: 9100, hostPort: 9100 }] }] }),
    summary: ['hostPort 9100', 'container "app"'],
    fields: ['spec.containers[0].ports[1].hostPort'],
  },
  {
    control: 'appArmorProfile',
    compliant: pod(
      {},
      {
        annotations: {
          'container.apparmor.security.beta.kubernetes.io/app': 'localhost/agent',
          'container.apparmor.security.beta.kubernetes.io/x': 'runtime/default',
        },
      },
    ),
    violating: pod({}, { annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' } }),
    summary: ['AppArmor profile container.apparmor.security.beta.kubernetes.io/app="unconfined"'],
    fields: ['metadata.annotations["container.apparmor.security.beta.kubernetes.io/app"]'],
  },
  {
    control: 'seLinuxOptions',
    compliant: podWith(
      { seLinuxOptions: { type: 'container_init_t', level: 's0:c123,c456' } },
      { securityContext: { seLinuxOptions: { type: 'container_t' } } },
    ),
    violating: podWith({ seLinuxOptions: { type: 'spc_t', user: 'system_u' } }),
    summary: ['seLinuxOptions type "spc_t", user set', 'container "app"'],
    fields: ['spec.containers[0].securityContext.seLinuxOptions.type', 'spec.containers[0].securityContext.seLinuxOptions.user'],
  },
  {
    control: 'procMount',
    compliant: podWith({ procMount: 'Default' }),
    violating: podWith({ procMount: 'Unmasked' }),
    summary: ['procMount "Unmasked"', 'container "app"'],
    fields: ['spec.containers[0].securityContext.procMount'],
  },
  {
    control: 'seccompProfile_baseline',
    // Baseline allows an unset profile; restricted would not.
    compliant: pod({ containers: [{ name: 'app', image: 'registry.example.com/app:1.0.0' }] }),
    violating: pod({
      securityContext: { seccompProfile: { type: 'Unconfined' } },
      containers: [{ name: 'app', image: 'registry.example.com/app:1.0.0' }],
    }),
    summary: ['seccompProfile.type "Unconfined"', '(pod)'],
    fields: ['spec.securityContext.seccompProfile.type'],
  },
  {
    control: 'sysctls',
    compliant: pod({
      securityContext: {
        sysctls: [
          { name: 'net.ipv4.ip_local_port_range', value: '1024 65000' },
          { name: 'net.ipv4.ip_local_reserved_ports', value: '8080' },
        ],
      },
    }),
    violating: pod({
      securityContext: {
        sysctls: [
          { name: 'kernel.shm_rmid_forced', value: '1' },
          { name: 'kernel.msgmax', value: '65536' },
        ],
      },
    }),
    summary: ['sysctls kernel.msgmax'],
    fields: ['spec.securityContext.sysctls[1].name'],
  },
];

const RESTRICTED_CASES: ControlCase[] = [
  {
    control: 'restrictedVolumes',
    compliant: pod({
      volumes: [
        { name: 'a', configMap: { name: 'cm' } },
        { name: 'b', secret: { secretName: 's' } },
        { name: 'c', emptyDir: {} },
        { name: 'd', projected: { sources: [] } },
        { name: 'e', downwardAPI: { items: [] } },
        { name: 'f', persistentVolumeClaim: { claimName: 'pvc' } },
        { name: 'g', csi: { driver: 'secrets-store.csi.k8s.io' } },
        {
          name: 'h',
          ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } },
        },
      ],
    }),
    violating: pod({
      volumes: [
        { name: 'a', configMap: { name: 'cm' } },
        { name: 'shared', nfs: { server: 'nfs.example.com', path: '/exports' } },
      ],
    }),
    summary: ['volume types nfs', 'volume "shared"'],
    fields: ['spec.volumes[1].nfs'],
  },
  {
    control: 'allowPrivilegeEscalation',
    compliant: podWith({ allowPrivilegeEscalation: false }),
    violating: podWith({ allowPrivilegeEscalation: undefined }),
    summary: ['allowPrivilegeEscalation != false', 'container "app"'],
    fields: ['spec.containers[0].securityContext.allowPrivilegeEscalation'],
  },
  {
    control: 'runAsNonRoot',
    compliant: podWith({ runAsNonRoot: true }),
    violating: podWith({ runAsNonRoot: undefined }),
    summary: ['runAsNonRoot != true', 'pod or container "app" must set true'],
    fields: ['spec.containers[0].securityContext.runAsNonRoot'],
  },
  {
    control: 'runAsUser',
    compliant: podWith({ runAsUser: 1000 }, { securityContext: { runAsUser: 65534 } }),
    violating: podWith({ runAsUser: 0 }),
    summary: ['runAsUser=0', 'container "app"'],
    fields: ['spec.containers[0].securityContext.runAsUser'],
  },
  {
    control: 'seccompProfile_restricted',
    compliant: podWith({ seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/agent.json' } }),
    violating: podWith({ seccompProfile: undefined }),
    summary: ['seccompProfile unset', 'pod or container "app" must set RuntimeDefault or Localhost'],
    fields: ['spec.containers[0].securityContext.seccompProfile'],
  },
  {
    control: 'capabilities_restricted',
    compliant: podWith({ capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } }),
    violating: podWith({ capabilities: { drop: ['NET_RAW'] } }),
    summary: ['capabilities.drop without ALL', 'container "app"'],
    fields: ['spec.containers[0].securityContext.capabilities.drop'],
  },
];

describe('evaluatePodSecurity: baseline controls', () => {
  test.each(BASELINE_CASES.map((c) => [c.control, c] as const))('GIVEN a pod that meets %s THEN it meets baseline', (_id, c) => {
    const result = evaluatePodSecurity(c.compliant);
    expect(result.baselineViolations).toEqual([]);
    expect(result.level).not.toBe(PodSecurityLevel.PRIVILEGED);
  });

  test.each(BASELINE_CASES.map((c) => [c.control, c] as const))(
    'GIVEN a pod that violates %s THEN it is privileged with that one baseline violation naming the field',
    (_id, c) => {
      const result = evaluatePodSecurity(c.violating);
      expect(result.level).toBe(PodSecurityLevel.PRIVILEGED);
      expect(result.baselineViolations).toHaveLength(1);
      const [violation] = result.baselineViolations;
      expect(violation.control).toBe(c.control);
      expect(violation.level).toBe(PodSecurityLevel.BASELINE);
      for (const fragment of c.summary) expect(violation.summary).toContain(fragment);
      expect(violation.fields).toEqual(c.fields);
    },
  );

  test.each([
    ['hostNetwork', 'hostNetwork=true'],
    ['hostPID', 'hostPID=true'],
    ['hostIPC', 'hostIPC=true'],
  ])('GIVEN %s=true alone THEN hostNamespaces names it', (field, summary) => {
    const [violation] = evaluatePodSecurity(pod({ [field]: true })).baselineViolations;
    expect(violation).toEqual({ control: 'hostNamespaces', level: PodSecurityLevel.BASELINE, summary, fields: [`spec.${field}`] });
  });

  test.each(['CAP_CHOWN', 'chown', 'SYS_ADMIN', 'NET_RAW'])(
    'GIVEN capabilities.add %s THEN baseline fails (exact, case-sensitive names)',
    (cap) => {
      expect(controlsOf(evaluatePodSecurity(podWith({ capabilities: { drop: ['ALL'], add: [cap] } })).baselineViolations)).toEqual([
        'capabilities_baseline',
      ]);
    },
  );

  test.each([
    'AUDIT_WRITE',
    'CHOWN',
    'DAC_OVERRIDE',
    'FOWNER',
    'FSETID',
    'KILL',
    'MKNOD',
    'NET_BIND_SERVICE',
    'SETFCAP',
    'SETGID',
    'SETPCAP',
    'SETUID',
    'SYS_CHROOT',
  ])('GIVEN capabilities.add %s THEN baseline holds', (cap) => {
    expect(evaluatePodSecurity(podWith({ capabilities: { drop: ['ALL'], add: [cap] } })).baselineViolations).toEqual([]);
  });

  test('GIVEN SELinux role and type at pod level THEN the pod is named as the setter', () => {
    const [violation] = evaluatePodSecurity(
      pod({ securityContext: { seLinuxOptions: { type: 'unconfined_t', role: 'sysadm_r' } } }),
    ).baselineViolations;
    expect(violation.summary).toBe('seLinuxOptions type "unconfined_t", role set (pod)');
    expect(violation.fields).toEqual(['spec.securityContext.seLinuxOptions.type', 'spec.securityContext.seLinuxOptions.role']);
  });

  test('GIVEN container_engine_t (allowed from policy v1.31) THEN v1.28 baseline fails', () => {
    expect(controlsOf(evaluatePodSecurity(podWith({ seLinuxOptions: { type: 'container_engine_t' } })).baselineViolations)).toEqual([
      'seLinuxOptions',
    ]);
  });

  test('GIVEN a sysctl allowed only from policy v1.29 THEN v1.28 baseline fails', () => {
    const [violation] = evaluatePodSecurity(
      pod({ securityContext: { sysctls: [{ name: 'net.ipv4.tcp_keepalive_time', value: '600' }] } }),
    ).baselineViolations;
    expect(violation.summary).toBe('sysctls net.ipv4.tcp_keepalive_time');
  });

  test('GIVEN an AppArmor annotation with an empty value, and seccomp annotations THEN baseline holds (v1.28 checks the seccomp fields only)', () => {
    const result = evaluatePodSecurity(
      pod(
        {},
        {
          annotations: {
            'container.apparmor.security.beta.kubernetes.io/app': '',
            'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
          },
        },
      ),
    );
    expect(result.baselineViolations).toEqual([]);
  });
});

describe('evaluatePodSecurity: restricted controls', () => {
  test('GIVEN the hardened pod THEN it meets restricted with no violations', () => {
    expect(evaluatePodSecurity(pod())).toEqual({ level: PodSecurityLevel.RESTRICTED, baselineViolations: [], restrictedViolations: [] });
  });

  test.each(RESTRICTED_CASES.map((c) => [c.control, c] as const))('GIVEN a pod that meets %s THEN it meets restricted', (_id, c) => {
    expect(evaluatePodSecurity(c.compliant)).toEqual({
      level: PodSecurityLevel.RESTRICTED,
      baselineViolations: [],
      restrictedViolations: [],
    });
  });

  test.each(RESTRICTED_CASES.map((c) => [c.control, c] as const))(
    'GIVEN a pod that violates %s THEN it is baseline with that one restricted violation naming the field',
    (_id, c) => {
      const result = evaluatePodSecurity(c.violating);
      expect(result.level).toBe(PodSecurityLevel.BASELINE);
      expect(result.baselineViolations).toEqual([]);
      expect(result.restrictedViolations).toHaveLength(1);
      const [violation] = result.restrictedViolations;
      expect(violation.control).toBe(c.control);
      expect(violation.level).toBe(PodSecurityLevel.RESTRICTED);
      for (const fragment of c.summary) expect(violation.summary).toContain(fragment);
      expect(violation.fields).toEqual(c.fields);
    },
  );

  test('GIVEN allowPrivilegeEscalation true THEN restricted fails', () => {
    expect(controlsOf(evaluatePodSecurity(podWith({ allowPrivilegeEscalation: true })).restrictedViolations)).toEqual([
      'allowPrivilegeEscalation',
    ]);
  });

  test('GIVEN capabilities.add beyond NET_BIND_SERVICE THEN capabilities_restricted names them, and baseline-allowed ones fail too', () => {
    const result = evaluatePodSecurity(podWith({ capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE', 'CHOWN', 'SETUID'] } }));
    expect(result.level).toBe(PodSecurityLevel.BASELINE);
    expect(result.restrictedViolations).toEqual([
      {
        control: 'capabilities_restricted',
        level: PodSecurityLevel.RESTRICTED,
        summary: 'capabilities.add CHOWN, SETUID (container "app")',
        fields: ['spec.containers[0].securityContext.capabilities.add'],
      },
    ]);
  });

  test('GIVEN a container with no securityContext at all THEN restricted lists every control it misses', () => {
    const result = evaluatePodSecurity(pod({ containers: [{ name: 'bare', image: 'registry.example.com/bare:1.0.0' }] }));
    expect(result.level).toBe(PodSecurityLevel.BASELINE);
    expect(controlsOf(result.restrictedViolations)).toEqual([
      'allowPrivilegeEscalation',
      'runAsNonRoot',
      'seccompProfile_restricted',
      'capabilities_restricted',
    ]);
  });

  test('GIVEN a volume whose source the 1.28 API does not know THEN it is treated as the emptyDir the API server defaults it to', () => {
    expect(
      evaluatePodSecurity(pod({ volumes: [{ name: 'x' }, { name: 'y', image: { reference: 'registry.example.com/data:1' } }] })).level,
    ).toBe(PodSecurityLevel.RESTRICTED);
  });
});

describe('evaluatePodSecurity: restricted overrides of baseline controls', () => {
  test('GIVEN a hostPath volume THEN baseline reports hostPathVolumes and restricted reports restrictedVolumes instead', () => {
    const result = evaluatePodSecurity(pod({ volumes: [{ name: 'host-var-log', hostPath: { path: '/var/log' } }] }));
    expect(controlsOf(result.baselineViolations)).toEqual(['hostPathVolumes']);
    expect(controlsOf(result.restrictedViolations)).toEqual(['restrictedVolumes']);
    expect(result.restrictedViolations[0].summary).toBe('volume types hostPath (volume "host-var-log")');
  });

  test('GIVEN seccomp Unconfined on a container THEN each level reports it once, in its own form', () => {
    const result = evaluatePodSecurity(podWith({ seccompProfile: { type: 'Unconfined' } }));
    expect(controlsOf(result.baselineViolations)).toEqual(['seccompProfile_baseline']);
    expect(controlsOf(result.restrictedViolations)).toEqual(['seccompProfile_restricted']);
    expect(result.restrictedViolations[0].summary).toBe('seccompProfile.type "Unconfined" (container "app")');
  });

  test('GIVEN a non-default capability THEN baseline reports capabilities_baseline and restricted capabilities_restricted', () => {
    const result = evaluatePodSecurity(podWith({ capabilities: { drop: ['ALL'], add: ['SYS_ADMIN'] } }));
    expect(controlsOf(result.baselineViolations)).toEqual(['capabilities_baseline']);
    expect(controlsOf(result.restrictedViolations)).toEqual(['capabilities_restricted']);
  });

  test('GIVEN host namespaces THEN the baseline control is repeated at restricted (it still applies there)', () => {
    const result = evaluatePodSecurity(pod({ hostPID: true }));
    expect(controlsOf(result.restrictedViolations)).toEqual(['hostNamespaces']);
    expect(result.restrictedViolations[0].level).toBe(PodSecurityLevel.BASELINE);
  });
});

describe('evaluatePodSecurity: pod-level vs container-level precedence', () => {
  const bare = (name: string, securityContext: Json = {}): Json =>
    hardened(name, { runAsNonRoot: undefined, seccompProfile: undefined, ...securityContext });

  test('GIVEN runAsNonRoot true at pod level and unset in containers THEN restricted holds', () => {
    expect(
      evaluatePodSecurity(
        pod({ securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [bare('a'), bare('b')] }),
      ).level,
    ).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('GIVEN runAsNonRoot true at pod level and false in one container THEN the container fails', () => {
    const [violation] = evaluatePodSecurity(
      pod({
        securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [bare('a'), bare('b', { runAsNonRoot: false })],
      }),
    ).restrictedViolations;
    expect(violation).toEqual({
      control: 'runAsNonRoot',
      level: PodSecurityLevel.RESTRICTED,
      summary: 'runAsNonRoot != true (container "b" must not set false)',
      fields: ['spec.containers[1].securityContext.runAsNonRoot'],
    });
  });

  test('GIVEN runAsNonRoot false at pod level THEN the pod fails even when every container sets true', () => {
    const [violation] = evaluatePodSecurity(
      pod({ securityContext: { runAsNonRoot: false }, containers: [hardened('a')] }),
    ).restrictedViolations;
    expect(violation.summary).toBe('runAsNonRoot != true (pod must not set false)');
    expect(violation.fields).toEqual(['spec.securityContext.runAsNonRoot']);
  });

  test('GIVEN runAsNonRoot false at pod level and unset in a container THEN both the pod and the container are named', () => {
    const [violation] = evaluatePodSecurity(
      pod({ securityContext: { runAsNonRoot: false }, containers: [bare('a', { seccompProfile: { type: 'RuntimeDefault' } })] }),
    ).restrictedViolations;
    expect(violation.summary).toBe('runAsNonRoot != true (pod must not set false; pod or container "a" must set true)');
  });

  test('GIVEN a valid pod-level seccomp profile THEN containers may leave it unset', () => {
    expect(
      evaluatePodSecurity(
        pod({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [bare('a', { runAsNonRoot: true })] }),
      ).level,
    ).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('GIVEN no pod-level seccomp profile THEN only the containers without one are named', () => {
    const [violation] = evaluatePodSecurity(
      pod({ containers: [hardened('a'), bare('b', { runAsNonRoot: true }), bare('c', { runAsNonRoot: true })] }),
    ).restrictedViolations;
    expect(violation.summary).toBe('seccompProfile unset (pod or containers "b", "c" must set RuntimeDefault or Localhost)');
    expect(violation.fields).toEqual([
      'spec.containers[1].securityContext.seccompProfile',
      'spec.containers[2].securityContext.seccompProfile',
    ]);
  });

  test('GIVEN a container seccomp Unconfined under a pod-level RuntimeDefault THEN the container value wins and fails', () => {
    const result = evaluatePodSecurity(
      pod({
        securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
        containers: [hardened('a', { seccompProfile: { type: 'Unconfined' } })],
      }),
    );
    expect(controlsOf(result.baselineViolations)).toEqual(['seccompProfile_baseline']);
    expect(result.baselineViolations[0].summary).toBe('seccompProfile.type "Unconfined" (container "a")');
  });

  test('GIVEN pod-level seccomp Unconfined and valid container profiles THEN the pod still fails', () => {
    const result = evaluatePodSecurity(pod({ securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [hardened('a')] }));
    expect(result.level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(result.restrictedViolations.map((v) => v.summary)).toEqual(['seccompProfile.type "Unconfined" (pod)']);
  });

  test('GIVEN runAsUser 0 at pod level and a non-root user in every container THEN the pod is still named (as upstream)', () => {
    const [violation] = evaluatePodSecurity(
      pod({ securityContext: { runAsUser: 0 }, containers: [hardened('a', { runAsUser: 1000 })] }),
    ).restrictedViolations;
    expect(violation).toEqual({
      control: 'runAsUser',
      level: PodSecurityLevel.RESTRICTED,
      summary: 'runAsUser=0 (pod)',
      fields: ['spec.securityContext.runAsUser'],
    });
  });

  test('GIVEN pod-level runAsNonRoot and seccomp but bare containers THEN the containers must still set allowPrivilegeEscalation and capabilities', () => {
    // allowPrivilegeEscalation and capabilities exist only on containers: nothing at pod level stands in for them.
    const result = evaluatePodSecurity(
      pod({
        securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [{ name: 'a', image: 'registry.example.com/a:1' }],
      }),
    );
    expect(controlsOf(result.restrictedViolations)).toEqual(['allowPrivilegeEscalation', 'capabilities_restricted']);
  });
});

describe('evaluatePodSecurity: which containers are visited', () => {
  test('GIVEN a privileged init container THEN baseline fails naming it', () => {
    const [violation] = evaluatePodSecurity(
      pod({ initContainers: [hardened('install', { privileged: true, allowPrivilegeEscalation: true })] }),
    ).baselineViolations;
    expect(violation.summary).toBe('privileged=true (container "install")');
    expect(violation.fields).toEqual(['spec.initContainers[0].securityContext.privileged']);
  });

  test('GIVEN an ephemeral debug container without hardening THEN restricted fails naming it', () => {
    const result = evaluatePodSecurity(
      pod({ ephemeralContainers: [{ name: 'debug', image: 'registry.example.com/busybox:1.36', targetContainerName: 'app' }] }),
    );
    expect(result.level).toBe(PodSecurityLevel.BASELINE);
    for (const v of result.restrictedViolations) expect(v.summary).toContain('"debug"');
    expect(result.restrictedViolations[0].fields).toEqual(['spec.ephemeralContainers[0].securityContext.allowPrivilegeEscalation']);
  });

  test('GIVEN violations in several containers THEN they are named in visiting order (init, regular, ephemeral)', () => {
    const [violation] = evaluatePodSecurity(
      pod({
        initContainers: [hardened('init', { runAsUser: 0 })],
        containers: [hardened('app', { runAsUser: 0 }), hardened('ok')],
        ephemeralContainers: [{ ...hardened('debug', { runAsUser: 0 }), targetContainerName: 'app' }],
      }),
    ).restrictedViolations;
    expect(violation.summary).toBe('runAsUser=0 (containers "init", "app", "debug")');
  });
});

describe('evaluatePodSecurity: Windows pods', () => {
  test('GIVEN spec.os.name windows THEN privilege escalation, seccomp and capabilities are not required (policy v1.25+), non-root still is', () => {
    const windows = pod({ os: { name: 'windows' }, containers: [{ name: 'app', image: 'registry.example.com/app:1.0.0' }] });
    expect(controlsOf(evaluatePodSecurity(windows).restrictedViolations)).toEqual(['runAsNonRoot']);
    const linux = pod({ os: { name: 'linux' }, containers: [{ name: 'app', image: 'registry.example.com/app:1.0.0' }] });
    expect(controlsOf(evaluatePodSecurity(linux).restrictedViolations)).toEqual([
      'allowPrivilegeEscalation',
      'runAsNonRoot',
      'seccompProfile_restricted',
      'capabilities_restricted',
    ]);
  });
});

describe('evaluatePodSecurity: inputs', () => {
  const spec = { hostNetwork: true, containers: [hardened()] };

  test.each<[string, Json, string]>([
    ['a PodSpec', spec, 'hostNetwork'],
    ['a Pod', { kind: 'Pod', metadata: { name: 'p' }, spec }, 'spec.hostNetwork'],
    ['a pod template', { metadata: { labels: { app: 'a' } }, spec }, 'spec.hostNetwork'],
    ['a PodTemplate', { apiVersion: 'v1', kind: 'PodTemplate', template: { spec } }, 'template.spec.hostNetwork'],
    [
      'a DaemonSet',
      { apiVersion: 'apps/v1', kind: 'DaemonSet', spec: { selector: {}, template: { spec } } },
      'spec.template.spec.hostNetwork',
    ],
    ['a Deployment', { apiVersion: 'apps/v1', kind: 'Deployment', spec: { template: { spec } } }, 'spec.template.spec.hostNetwork'],
    [
      'a CronJob',
      { apiVersion: 'batch/v1', kind: 'CronJob', spec: { jobTemplate: { spec: { template: { spec } } } } },
      'spec.jobTemplate.spec.template.spec.hostNetwork',
    ],
  ])('GIVEN %s THEN the pod is found and field paths are relative to it', (_what, object, field) => {
    const result = evaluatePodSecurity(object);
    expect(result.level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(result.baselineViolations[0].fields).toEqual([field]);
  });

  test('GIVEN a DaemonSet THEN the AppArmor annotations of its pod template (not of the DaemonSet) are checked', () => {
    const ds = {
      kind: 'DaemonSet',
      metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' } },
      spec: {
        template: {
          metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default' } },
          spec: { containers: [hardened()] },
        },
      },
    };
    expect(evaluatePodSecurity(ds).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test.each<[string, Json, string]>([
    ['a ConfigMap', { kind: 'ConfigMap', data: {} }, 'a ConfigMap without a pod template'],
    ['an empty object', {}, 'an object with keys []'],
    ['null', null, 'an object with keys []'],
  ])('GIVEN %s THEN it throws saying what it got and what to pass', (_what, object, fragment) => {
    expect(() => evaluatePodSecurity(object)).toThrow(fragment);
    expect(() => evaluatePodSecurity(object)).toThrow(/Fix: pass a Pod, a PodSpec/);
  });

  test('GIVEN the test pods THEN they are valid Kubernetes objects (so the cases are realistic)', () => {
    const pods = [...BASELINE_CASES, ...RESTRICTED_CASES]
      .flatMap((c) => [c.compliant, c.violating])
      .map((p) => JSON.parse(JSON.stringify(p)));
    expect(() => validateAll(pods)).not.toThrow();
  });

  test('THEN the checks implement policy version v1.28', () => {
    expect(POD_SECURITY_POLICY_VERSION).toBe('v1.28');
  });
});

describe('strictestCommonLevel', () => {
  test.each<[PodSecurityLevel[], PodSecurityLevel]>([
    [[PodSecurityLevel.RESTRICTED, PodSecurityLevel.RESTRICTED], PodSecurityLevel.RESTRICTED],
    [[PodSecurityLevel.RESTRICTED, PodSecurityLevel.BASELINE], PodSecurityLevel.BASELINE],
    [[PodSecurityLevel.BASELINE, PodSecurityLevel.PRIVILEGED, PodSecurityLevel.RESTRICTED], PodSecurityLevel.PRIVILEGED],
    [[], PodSecurityLevel.RESTRICTED],
  ])('GIVEN %j THEN the strictest level all of them meet is %s', (levels, expected) => {
    expect(strictestCommonLevel(levels)).toBe(expected);
  });
});

describe('NodeServicesNamespace with services', () => {
  const NS = 'node-services';
  const resources = { cpuRequest: '10m', memoryRequest: '16Mi', memoryLimit: '32Mi' };

  /** A service without host access, running as a non-root user: meets restricted. */
  function restrictedService(scope: any, name = 'agent', extra: Json = {}): NodeService {
    return new NodeService(scope, name, {
      name,
      containers: [{ name: 'agent', image: 'registry.example.com/agent:1.0.0', runAsUser: 65534, resources }],
      ...extra,
    });
  }

  /** A service without host access that leaves the user to the image: meets baseline only (runAsNonRoot unset). */
  function baselineService(scope: any): NodeService {
    return new NodeService(scope, 'plain', {
      name: 'plain',
      containers: [{ name: 'agent', image: 'registry.example.com/plain:1.0.0', resources }],
    });
  }

  function podSecurityLabels(objects: Json[]): Json {
    const labels = only(objects, 'Namespace').metadata.labels;
    return Object.fromEntries(Object.entries(labels).filter(([k]) => k.startsWith('pod-security.kubernetes.io/')));
  }

  test('GIVEN a restricted-compliant NodeService WHEN synthesized THEN audit/warn are restricted, enforce stays privileged, all schema-valid', () => {
    const chart = testChart(NS);
    const svc = restrictedService(chart);
    expect(evaluatePodSecurity(svc.daemonSet.toJson()).level).toBe(PodSecurityLevel.RESTRICTED);
    const ns = new NodeServicesNamespace(chart, 'ns', { services: [svc] });
    const objects = synth(chart);
    validateAll(objects);
    expect(podSecurityLabels(objects)).toEqual({
      'pod-security.kubernetes.io/enforce': 'privileged',
      'pod-security.kubernetes.io/enforce-version': 'v1.28',
      'pod-security.kubernetes.io/audit': 'restricted',
      'pod-security.kubernetes.io/audit-version': 'v1.28',
      'pod-security.kubernetes.io/warn': 'restricted',
      'pod-security.kubernetes.io/warn-version': 'v1.28',
    });
    expect(ns.podSecurityLevel).toBe(PodSecurityLevel.RESTRICTED);
    expect(ns.labels['pod-security.kubernetes.io/warn']).toBe('restricted');
    expect(ns.services).toEqual([svc]);
  });

  test('GIVEN a LogAgent (hostPath volumes) WHEN synthesized THEN audit/warn are privileged', () => {
    const chart = testChart(NS);
    const logs = new LogAgent(chart, 'logs', { image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9' });
    expect(controlsOf(evaluatePodSecurity(logs.daemonSet.toJson()).baselineViolations)).toEqual(['hostPathVolumes']);
    new NodeServicesNamespace(chart, 'ns', { services: [logs] });
    const objects = synth(chart);
    validateAll(objects);
    expect(podSecurityLabels(objects)).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'privileged',
      'pod-security.kubernetes.io/audit': 'privileged',
      'pod-security.kubernetes.io/warn': 'privileged',
    });
  });

  test('GIVEN a restricted service and a LogAgent THEN the level is the one every service meets: privileged', () => {
    const chart = testChart(NS);
    const services = [restrictedService(chart), new LogAgent(chart, 'logs', { image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9' })];
    new NodeServicesNamespace(chart, 'ns', { services });
    expect(podSecurityLabels(synth(chart))['pod-security.kubernetes.io/audit']).toBe('privileged');
  });

  test('GIVEN a restricted service and one that leaves runAsNonRoot unset THEN audit/warn are baseline', () => {
    const chart = testChart(NS);
    const plain = baselineService(chart);
    expect(controlsOf(evaluatePodSecurity(plain.daemonSet.toJson()).restrictedViolations)).toEqual(['runAsNonRoot']);
    new NodeServicesNamespace(chart, 'ns', { services: [restrictedService(chart), plain] });
    const labels = podSecurityLabels(synth(chart));
    expect([labels['pod-security.kubernetes.io/audit'], labels['pod-security.kubernetes.io/warn']]).toEqual(['baseline', 'baseline']);
  });

  test('GIVEN an explicit podSecurityLevel and a LogAgent THEN the explicit level wins', () => {
    const chart = testChart(NS);
    const logs = new LogAgent(chart, 'logs', { image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9' });
    const ns = new NodeServicesNamespace(chart, 'ns', { services: [logs], podSecurityLevel: PodSecurityLevel.RESTRICTED });
    const labels = podSecurityLabels(synth(chart));
    expect([
      labels['pod-security.kubernetes.io/audit'],
      labels['pod-security.kubernetes.io/warn'],
      labels['pod-security.kubernetes.io/enforce'],
    ]).toEqual(['restricted', 'restricted', 'privileged']);
    expect(ns.podSecurityLevel).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('GIVEN no services and no level THEN audit/warn keep the baseline default', () => {
    const chart = testChart(NS);
    const ns = new NodeServicesNamespace(chart, 'ns');
    expect(podSecurityLabels(synth(chart))['pod-security.kubernetes.io/audit']).toBe('baseline');
    expect(ns.podSecurityLevel).toBe(PodSecurityLevel.BASELINE);
  });

  test('GIVEN a DaemonSet patched after the namespace was built THEN the level reflects the rendered DaemonSet (computed at synth)', () => {
    const chart = testChart(NS);
    const svc = restrictedService(chart);
    const ns = new NodeServicesNamespace(chart, 'ns', { services: [svc] });
    expect(ns.podSecurityLevel).toBe(PodSecurityLevel.RESTRICTED);
    svc.daemonSet.addJsonPatch(JsonPatch.replace('/spec/template/spec/hostNetwork', true));
    expect(podSecurityLabels(synth(chart))['pod-security.kubernetes.io/warn']).toBe('privileged');
    expect(ns.podSecurityLevel).toBe(PodSecurityLevel.PRIVILEGED);
  });

  test('GIVEN a service with a canary THEN the canary DaemonSet counts too', () => {
    const chart = testChart(NS);
    const svc = restrictedService(chart, 'agent', {
      canary: Canary.byNodeLabel('node-services.example.com/canary', 'true', { image: 'registry.example.com/agent:1.1.0' }),
    });
    new NodeServicesNamespace(chart, 'ns', { services: [svc] });
    expect(podSecurityLabels(synth(chart))['pod-security.kubernetes.io/audit']).toBe('restricted');
    svc.canaryDaemonSet!.addJsonPatch(JsonPatch.replace('/spec/template/spec/containers/0/securityContext/runAsNonRoot', false));
    expect(podSecurityLabels(synth(chart))['pod-security.kubernetes.io/audit']).toBe('baseline');
  });

  test('GIVEN services in another chart (the namespace in a guardrails chart) THEN the level is derived from them', () => {
    const chart = testChart(NS);
    const guardrails = new Chart(chart.node.scope!, 'guardrails');
    new NodeServicesNamespace(guardrails, 'ns', { services: [restrictedService(chart)] });
    const objects = synth(guardrails);
    validateAll(objects);
    expect(podSecurityLabels(objects)['pod-security.kubernetes.io/audit']).toBe('restricted');
  });

  test.each<[string, (scope: any) => Json, string[]]>([
    ['an empty list', () => ({ services: [] }), ['services = []', 'is empty', 'build the services first']],
    [
      'a service in another namespace',
      (scope) => ({ services: [restrictedService(scope, 'agent', { namespace: 'monitoring' })] }),
      ['services[0] = "test/agent"', 'runs in namespace "monitoring", not "node-services"'],
    ],
    [
      'something that is not a NodeService',
      () => ({ services: [{ name: 'agent' }] }),
      ['services[0] = {"name":"agent"}', 'is not a NodeService'],
    ],
  ])('GIVEN services with %s THEN construction throws naming the construct path, field, value and fix', (_what, props, fragments) => {
    const message = errorOf((scope) => new NodeServicesNamespace(scope, 'ns', props(scope)));
    expect(message).toContain('[test/ns]');
    expect(message).toContain('Fix:');
    for (const f of fragments) expect(message).toContain(f);
  });
});
