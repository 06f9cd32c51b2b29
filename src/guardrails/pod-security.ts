/**
 * Pod Security Standards evaluation: which PSS level (`restricted`, `baseline`, `privileged`) a pod meets, and which
 * controls it violates at each stricter level. A pure function over plain JSON (a Pod, a PodSpec, a pod template or a
 * workload such as a DaemonSet); it imports neither cdk8s nor cdk8s-plus, so the CLI and the rules can use it too.
 *
 * The checks mirror the built-in Pod Security Admission (`k8s.io/pod-security-admission/policy`) at policy version
 * **v1.28**:
 * - every container check visits `initContainers`, `containers` and `ephemeralContainers`;
 * - pod-level `runAsNonRoot: true` and a valid pod-level `seccompProfile` cover containers that leave the field unset;
 *   an explicit container value is judged on its own (a container's `runAsNonRoot: false` fails even under a pod-level
 *   `true`);
 * - at `restricted`, `restrictedVolumes` replaces `hostPathVolumes`, `seccompProfile_restricted` replaces
 *   `seccompProfile_baseline` and `capabilities_restricted` replaces `capabilities_baseline`; all other baseline
 *   controls still apply;
 * - Windows pods (`spec.os.name: windows`) are exempt from `allowPrivilegeEscalation`, `seccompProfile_restricted`
 *   and `capabilities_restricted` (policy v1.25+);
 * - AppArmor is checked on the `container.apparmor.security.beta.kubernetes.io/*` pod annotations only (the
 *   `appArmorProfile` fields arrived in 1.30); seccomp annotations are not checked (policy v1.19+ checks the fields);
 * - no user-namespace relaxations (those arrived after 1.28) and no `hostProbesAndHostLifecycle` control (v1.34+).
 *
 * The spec is evaluated as given, without API defaulting. The one defaulting that adds a finding upstream is
 * `hostPort = containerPort` on the pods of a `hostNetwork` pod (1.28 no longer applies it to pod templates);
 * `hostNetwork` already fails `baseline`, so the level is the same. A volume with no source known to the 1.28 API is
 * defaulted to `emptyDir` by the API server and is therefore allowed here too.
 */

import {
  ALLOWED_SECCOMP_TYPES,
  APPARMOR_ANNOTATION_PREFIX,
  BASELINE_CAPABILITIES as BASELINE_CAPABILITY_LIST,
  BASELINE_SELINUX_TYPES,
  SAFE_SYSCTLS as SAFE_SYSCTL_LIST,
} from '../k8s/pod-security-sets';
import { checkArguments, list as listOf, oneOf, req } from '../core/shape';

/** The Pod Security Standards level a Pod Security Admission mode applies. */
export enum PodSecurityLevel {
  /** No restrictions: host namespaces, hostPath, privileged containers all allowed. */
  PRIVILEGED = 'privileged',
  /** Prevents known privilege escalations; forbids hostPath, host namespaces, privileged, non-default capabilities. */
  BASELINE = 'baseline',
  /** Baseline plus hardening: non-root, no privilege escalation, seccomp, only NET_BIND_SERVICE may be added. */
  RESTRICTED = 'restricted',
}

/** The Pod Security policy version these checks implement (the `*-version` namespace label value). */
export const POD_SECURITY_POLICY_VERSION = 'v1.28';

/** One Pod Security control a pod violates. */
export interface PodSecurityViolation {
  /** The Pod Security Admission check id, e.g. `hostPathVolumes`, `runAsNonRoot`, `capabilities_restricted`. */
  readonly control: string;
  /** The level the control belongs to (`BASELINE` or `RESTRICTED`). */
  readonly level: PodSecurityLevel;
  /**
   * What is violated, naming the values and who sets them, e.g. `hostPath volumes "host-var-log"`,
   * `hostNetwork=true`, `capabilities.add NET_ADMIN (container "agent")`, `runAsNonRoot != true (...)`.
   */
  readonly summary: string;
  /**
   * The offending fields, as paths in the evaluated object, e.g. `spec.template.spec.volumes[0].hostPath` (for a field
   * that must be set but is not, the path where it belongs).
   */
  readonly fields: string[];
}

/** The result of {@link evaluatePodSecurity}. */
export interface PodSecurityEvaluation {
  /** The strictest level the pod meets. */
  readonly level: PodSecurityLevel;
  /** Controls violated at `baseline` (empty when the pod meets baseline). */
  readonly baselineViolations: PodSecurityViolation[];
  /**
   * Controls violated at `restricted` (empty when the pod meets restricted). As upstream, this includes the baseline
   * controls that still apply at restricted, with the restricted forms of volumes, seccomp and capabilities.
   */
  readonly restrictedViolations: PodSecurityViolation[];
}

type Json = any;

/** A pod as the checks see it: metadata, spec, and the paths to them in the evaluated object. */
interface PodView {
  readonly metadata: Json;
  readonly spec: Json;
  readonly metadataPath: string;
  /** Path of the pod spec; empty when the evaluated object is the PodSpec itself. */
  readonly specPath: string;
}

interface ContainerRef {
  readonly container: Json;
  readonly name: string;
  readonly path: string;
}

interface Control {
  readonly id: string;
  readonly level: PodSecurityLevel;
  /** Baseline controls this control replaces at its level. */
  readonly overrides?: string[];
  /** The violation, or undefined when the pod complies. */
  check(pod: PodView): Omit<PodSecurityViolation, 'control' | 'level'> | undefined;
}

// Baseline allow-lists (policy v1.28), shared with the admission policy and the lint rules.
const BASELINE_CAPABILITIES = new Set(BASELINE_CAPABILITY_LIST);
const SELINUX_TYPES = new Set(BASELINE_SELINUX_TYPES);
const SAFE_SYSCTLS = new Set(SAFE_SYSCTL_LIST);
const SECCOMP_TYPES = new Set(ALLOWED_SECCOMP_TYPES);

// Volume sources `restricted` allows at 1.28 (the `image` source arrived later), and the ones it forbids, in the order
// upstream reports them.
const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
const RESTRICTED_VOLUME_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'portworxVolume',
  'photonPersistentDisk',
  'scaleIO',
  'storageos',
];

const isSet = (v: unknown): boolean => v !== undefined && v !== null;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {});
const list = (v: unknown): Json[] => (Array.isArray(v) ? v : []);
const quote = (names: string[]): string => names.map((n) => JSON.stringify(n)).join(', ');

/** The prefix of paths inside the pod spec (`spec.template.spec.`, or nothing for a bare PodSpec). */
function under(pod: PodView): string {
  return pod.specPath === '' ? '' : `${pod.specPath}.`;
}

function containersOf(pod: PodView): ContainerRef[] {
  const out: ContainerRef[] = [];
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers']) {
    list(pod.spec[kind]).forEach((container, i) => {
      out.push({ container: obj(container), name: String(obj(container).name ?? `#${i}`), path: `${under(pod)}${kind}[${i}]` });
    });
  }
  return out;
}

/** `container "a"` / `containers "a", "b"`. */
function containerWords(names: string[]): string {
  return `${names.length === 1 ? 'container' : 'containers'} ${quote(names)}`;
}

/** `pod and container "a"`: who sets a value. */
function setters(pod: boolean, containers: string[]): string {
  const parts = [...(pod ? ['pod'] : []), ...(containers.length > 0 ? [containerWords(containers)] : [])];
  return parts.join(' and ');
}

function securityContext(c: ContainerRef): Json {
  return obj(c.container.securityContext);
}

function isWindows(pod: PodView): boolean {
  return obj(pod.spec.os).name === 'windows';
}

const CONTROLS: Control[] = [
  {
    id: 'windowsHostProcess',
    level: PodSecurityLevel.BASELINE,
    check(pod) {
      const fields: string[] = [];
      const podSets = obj(obj(pod.spec.securityContext).windowsOptions).hostProcess === true;
      if (podSets) fields.push(`${under(pod)}securityContext.windowsOptions.hostProcess`);
      const bad = containersOf(pod).filter((c) => obj(securityContext(c).windowsOptions).hostProcess === true);
      bad.forEach((c) => fields.push(`${c.path}.securityContext.windowsOptions.hostProcess`));
      if (fields.length === 0) return undefined;
      return {
        summary: `windowsOptions.hostProcess=true (${setters(
          podSets,
          bad.map((c) => c.name),
        )})`,
        fields,
      };
    },
  },
  {
    id: 'hostNamespaces',
    level: PodSecurityLevel.BASELINE,
    check(pod) {
      const set = ['hostNetwork', 'hostPID', 'hostIPC'].filter((f) => pod.spec[f] === true);
      if (set.length === 0) return undefined;
      return { summary: set.map((f) => `${f}=true`).join(', '), fields: set.map((f) => `${under(pod)}${f}`) };
    },
  },
  {
    id: 'privileged',
    level: PodSecurityLevel.BASELINE,
    check(pod) {
      const bad = containersOf(pod).filter((c) => securityContext(c).privileged === true);
      if (bad.length === 0) return undefined;
      return {
        summary: `privileged=true (${containerWords(bad.map((c) => c.name))})`,
        fields: bad.map((c) => `${c.path}.securityContext.privileged`),
      };
    },
  },
  {
    id: 'capabilities_baseline',
    level: PodSecurityLevel.BASELINE,
    check(pod) {
      const caps = new Set<string>();
      const bad: ContainerRef[] = [];
      for (const c of containersOf(pod)) {
        const added = list(obj(securityContext(c).capabilities).add).filter((cap) => !BASELINE_CAPABILITIES.has(cap));
        if (added.length > 0) {
          bad.push(c);
          added.forEach((cap) => caps.add(String(cap)));
        }
      }
      if (bad.length === 0) return undefined;
      return {
        summary: `capabilities.add ${[...caps].sort().join(', ')} (${containerWords(bad.map((c) => c.name))})`,
        fields: bad.map((c) => `${c.path}.securityContext.capabilities.add`),
      };
    },
  },
  {
    id: 'hostPathVolumes',
    level: PodSecurityLevel.BASELINE,
    check(pod) {
      const bad = list(pod.spec.volumes)
        .map((v, i) => ({ v: obj(v), i }))
        .filter(({ v }) => isSet(v.hostPath));
      if (bad.length === 0) return undefined;
      return {
        summary: `hostPath volumes ${quote(bad.map(({ v }) => String(v.name)))}`,
        fields: bad.map(({ i }) => `${under(pod)}volumes[${i}].hostPath`),
      };
    },
  },
  {
    id: 'hostPorts',
    level: PodSecurityLevel.BASELINE,
    check(pod) {
      const ports: string[] = [];
      const names: string[] = [];
      const fields: string[] = [];
      for (const c of containersOf(pod)) {
        let found = false;
        list(c.container.ports).forEach((p, i) => {
          const hostPort = obj(p).hostPort;
          if (isSet(hostPort) && hostPort !== 0) {
            found = true;
            ports.push(String(hostPort));
            fields.push(`${c.path}.ports[${i}].hostPort`);
          }
        });
        if (found) names.push(c.name);
      }
      if (fields.length === 0) return undefined;
      return { summary: `hostPort ${[...new Set(ports)].join(', ')} (${containerWords(names)})`, fields };
    },
  },
  {
    id: 'appArmorProfile',
    level: PodSecurityLevel.BASELINE,
    check(pod) {
      const bad = Object.entries(obj(pod.metadata.annotations))
        .filter(([k]) => k.startsWith(APPARMOR_ANNOTATION_PREFIX))
        .filter(([, v]) => !(v === '' || v === 'runtime/default' || (typeof v === 'string' && v.startsWith('localhost/'))))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      if (bad.length === 0) return undefined;
      return {
        summary: `AppArmor profile ${bad.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}`,
        fields: bad.map(([k]) => `${pod.metadataPath}.annotations[${JSON.stringify(k)}]`),
      };
    },
  },
  {
    id: 'seLinuxOptions',
    level: PodSecurityLevel.BASELINE,
    check(pod) {
      const types = new Set<string>();
      let user = false;
      let role = false;
      const fields: string[] = [];
      const judge = (options: Json, path: string): boolean => {
        let ok = true;
        const type = options.type ?? '';
        if (!SELINUX_TYPES.has(type)) {
          ok = false;
          types.add(String(type));
          fields.push(`${path}.seLinuxOptions.type`);
        }
        if (isSet(options.user) && options.user !== '') {
          ok = false;
          user = true;
          fields.push(`${path}.seLinuxOptions.user`);
        }
        if (isSet(options.role) && options.role !== '') {
          ok = false;
          role = true;
          fields.push(`${path}.seLinuxOptions.role`);
        }
        return ok;
      };
      const podOptions = obj(pod.spec.securityContext).seLinuxOptions;
      const podBad = isSet(podOptions) && !judge(obj(podOptions), `${under(pod)}securityContext`);
      const bad = containersOf(pod).filter(
        (c) => isSet(securityContext(c).seLinuxOptions) && !judge(obj(securityContext(c).seLinuxOptions), `${c.path}.securityContext`),
      );
      if (!podBad && bad.length === 0) return undefined;
      const what = [
        ...(types.size > 0 ? [`type ${quote([...types].sort())}`] : []),
        ...(user ? ['user set'] : []),
        ...(role ? ['role set'] : []),
      ];
      return {
        summary: `seLinuxOptions ${what.join(', ')} (${setters(
          podBad,
          bad.map((c) => c.name),
        )})`,
        fields,
      };
    },
  },
  {
    id: 'procMount',
    level: PodSecurityLevel.BASELINE,
    check(pod) {
      const bad = containersOf(pod).filter((c) => isSet(securityContext(c).procMount) && securityContext(c).procMount !== 'Default');
      if (bad.length === 0) return undefined;
      const values = [...new Set(bad.map((c) => String(securityContext(c).procMount)))].sort();
      return {
        summary: `procMount ${quote(values)} (${containerWords(bad.map((c) => c.name))})`,
        fields: bad.map((c) => `${c.path}.securityContext.procMount`),
      };
    },
  },
  {
    id: 'seccompProfile_baseline',
    level: PodSecurityLevel.BASELINE,
    check(pod) {
      const values = new Set<string>();
      const fields: string[] = [];
      const podProfile = obj(pod.spec.securityContext).seccompProfile;
      const podBad = isSet(podProfile) && !SECCOMP_TYPES.has(obj(podProfile).type);
      if (podBad) {
        values.add(String(obj(podProfile).type ?? ''));
        fields.push(`${under(pod)}securityContext.seccompProfile.type`);
      }
      const bad = containersOf(pod).filter(
        (c) => isSet(securityContext(c).seccompProfile) && !SECCOMP_TYPES.has(obj(securityContext(c).seccompProfile).type),
      );
      for (const c of bad) {
        values.add(String(obj(securityContext(c).seccompProfile).type ?? ''));
        fields.push(`${c.path}.securityContext.seccompProfile.type`);
      }
      if (fields.length === 0) return undefined;
      return {
        summary: `seccompProfile.type ${quote([...values].sort())} (${setters(
          podBad,
          bad.map((c) => c.name),
        )})`,
        fields,
      };
    },
  },
  {
    id: 'sysctls',
    level: PodSecurityLevel.BASELINE,
    check(pod) {
      const bad = list(obj(pod.spec.securityContext).sysctls)
        .map((s, i) => ({ name: obj(s).name, i }))
        .filter(({ name }) => !SAFE_SYSCTLS.has(name));
      if (bad.length === 0) return undefined;
      return {
        summary: `sysctls ${bad.map(({ name }) => String(name)).join(', ')}`,
        fields: bad.map(({ i }) => `${under(pod)}securityContext.sysctls[${i}].name`),
      };
    },
  },
  {
    id: 'restrictedVolumes',
    level: PodSecurityLevel.RESTRICTED,
    overrides: ['hostPathVolumes'],
    check(pod) {
      const types = new Set<string>();
      const names: string[] = [];
      const fields: string[] = [];
      list(pod.spec.volumes).forEach((raw, i) => {
        const v = obj(raw);
        if (ALLOWED_VOLUME_SOURCES.some((s) => isSet(v[s]))) return;
        const source = RESTRICTED_VOLUME_SOURCES.find((s) => isSet(v[s]));
        if (source === undefined) return; // no source the 1.28 API knows: defaulted to emptyDir
        types.add(source);
        names.push(String(v.name));
        fields.push(`${under(pod)}volumes[${i}].${source}`);
      });
      if (fields.length === 0) return undefined;
      return {
        summary: `volume types ${[...types].sort().join(', ')} (${names.length === 1 ? 'volume' : 'volumes'} ${quote(names)})`,
        fields,
      };
    },
  },
  {
    id: 'allowPrivilegeEscalation',
    level: PodSecurityLevel.RESTRICTED,
    check(pod) {
      if (isWindows(pod)) return undefined;
      const bad = containersOf(pod).filter((c) => securityContext(c).allowPrivilegeEscalation !== false);
      if (bad.length === 0) return undefined;
      return {
        summary: `allowPrivilegeEscalation != false (${containerWords(bad.map((c) => c.name))})`,
        fields: bad.map((c) => `${c.path}.securityContext.allowPrivilegeEscalation`),
      };
    },
  },
  {
    id: 'runAsNonRoot',
    level: PodSecurityLevel.RESTRICTED,
    check(pod) {
      const podValue = obj(pod.spec.securityContext).runAsNonRoot;
      const podFalse = isSet(podValue) && podValue !== true;
      const podTrue = podValue === true;
      const explicit: ContainerRef[] = [];
      const implicit: ContainerRef[] = [];
      for (const c of containersOf(pod)) {
        const value = securityContext(c).runAsNonRoot;
        if (isSet(value)) {
          if (value !== true) explicit.push(c);
        } else if (!podTrue) {
          implicit.push(c);
        }
      }
      if (!podFalse && explicit.length === 0 && implicit.length === 0) return undefined;
      const details: string[] = [];
      if (podFalse || explicit.length > 0)
        details.push(
          `${setters(
            podFalse,
            explicit.map((c) => c.name),
          )} must not set false`,
        );
      if (implicit.length > 0) details.push(`pod or ${containerWords(implicit.map((c) => c.name))} must set true`);
      return {
        summary: `runAsNonRoot != true (${details.join('; ')})`,
        fields: [
          ...(podFalse ? [`${under(pod)}securityContext.runAsNonRoot`] : []),
          ...[...explicit, ...implicit].map((c) => `${c.path}.securityContext.runAsNonRoot`),
        ],
      };
    },
  },
  {
    id: 'runAsUser',
    level: PodSecurityLevel.RESTRICTED,
    check(pod) {
      const podRoot = obj(pod.spec.securityContext).runAsUser === 0;
      const bad = containersOf(pod).filter((c) => securityContext(c).runAsUser === 0);
      if (!podRoot && bad.length === 0) return undefined;
      return {
        summary: `runAsUser=0 (${setters(
          podRoot,
          bad.map((c) => c.name),
        )})`,
        fields: [...(podRoot ? [`${under(pod)}securityContext.runAsUser`] : []), ...bad.map((c) => `${c.path}.securityContext.runAsUser`)],
      };
    },
  },
  {
    id: 'seccompProfile_restricted',
    level: PodSecurityLevel.RESTRICTED,
    overrides: ['seccompProfile_baseline'],
    check(pod) {
      if (isWindows(pod)) return undefined;
      const values = new Set<string>();
      const podProfile = obj(pod.spec.securityContext).seccompProfile;
      const podBad = isSet(podProfile) && !SECCOMP_TYPES.has(obj(podProfile).type);
      if (podBad) values.add(String(obj(podProfile).type ?? ''));
      const podValid = isSet(podProfile) && !podBad;
      const explicit: ContainerRef[] = [];
      const implicit: ContainerRef[] = [];
      for (const c of containersOf(pod)) {
        const profile = securityContext(c).seccompProfile;
        if (isSet(profile)) {
          if (!SECCOMP_TYPES.has(obj(profile).type)) {
            explicit.push(c);
            values.add(String(obj(profile).type ?? ''));
          }
        } else if (!podValid) {
          implicit.push(c);
        }
      }
      // As upstream: explicitly bad values are reported first; missing profiles only when nothing sets a bad one.
      if (podBad || explicit.length > 0) {
        return {
          summary: `seccompProfile.type ${quote([...values].sort())} (${setters(
            podBad,
            explicit.map((c) => c.name),
          )})`,
          fields: [
            ...(podBad ? [`${under(pod)}securityContext.seccompProfile.type`] : []),
            ...explicit.map((c) => `${c.path}.securityContext.seccompProfile.type`),
          ],
        };
      }
      if (implicit.length > 0) {
        return {
          summary: `seccompProfile unset (pod or ${containerWords(implicit.map((c) => c.name))} must set RuntimeDefault or Localhost)`,
          fields: implicit.map((c) => `${c.path}.securityContext.seccompProfile`),
        };
      }
      return undefined;
    },
  },
  {
    id: 'capabilities_restricted',
    level: PodSecurityLevel.RESTRICTED,
    overrides: ['capabilities_baseline'],
    check(pod) {
      if (isWindows(pod)) return undefined;
      const missingDrop: ContainerRef[] = [];
      const adding: ContainerRef[] = [];
      const caps = new Set<string>();
      for (const c of containersOf(pod)) {
        const capabilities = obj(securityContext(c).capabilities);
        if (!list(capabilities.drop).includes('ALL')) missingDrop.push(c);
        const added = list(capabilities.add).filter((cap) => cap !== 'NET_BIND_SERVICE');
        if (added.length > 0) {
          adding.push(c);
          added.forEach((cap) => caps.add(String(cap)));
        }
      }
      if (missingDrop.length === 0 && adding.length === 0) return undefined;
      const details = [
        ...(missingDrop.length > 0 ? [`capabilities.drop without ALL (${containerWords(missingDrop.map((c) => c.name))})`] : []),
        ...(adding.length > 0 ? [`capabilities.add ${[...caps].sort().join(', ')} (${containerWords(adding.map((c) => c.name))})`] : []),
      ];
      return {
        summary: details.join('; '),
        fields: [
          ...missingDrop.map((c) => `${c.path}.securityContext.capabilities.drop`),
          ...adding.map((c) => `${c.path}.securityContext.capabilities.add`),
        ],
      };
    },
  },
];

const RANK: { [level: string]: number } = {
  [PodSecurityLevel.PRIVILEGED]: 0,
  [PodSecurityLevel.BASELINE]: 1,
  [PodSecurityLevel.RESTRICTED]: 2,
};

/** The controls that apply at `level`, upstream's overrides applied. */
function controlsAt(level: PodSecurityLevel): Control[] {
  const applicable = CONTROLS.filter((c) => RANK[c.level] <= RANK[level]);
  const overridden = new Set(applicable.flatMap((c) => c.overrides ?? []));
  return applicable.filter((c) => !overridden.has(c.id));
}

function violationsAt(pod: PodView, level: PodSecurityLevel): PodSecurityViolation[] {
  const out: PodSecurityViolation[] = [];
  for (const control of controlsAt(level)) {
    const found = control.check(pod);
    if (found) out.push({ control: control.id, level: control.level, summary: found.summary, fields: found.fields });
  }
  return out;
}

/** Finds the pod in a Pod, PodSpec, pod template, PodTemplate, workload (DaemonSet, Deployment, Job…) or CronJob. */
function podOf(object: unknown): PodView {
  const o = obj(object);
  const spec = obj(o.spec);
  if (Array.isArray(o.containers)) return { metadata: {}, spec: o, metadataPath: 'metadata', specPath: '' };
  if (o.kind === 'CronJob' && isSet(obj(spec.jobTemplate).spec)) {
    const template = obj(obj(obj(spec.jobTemplate).spec).template);
    return {
      metadata: obj(template.metadata),
      spec: obj(template.spec),
      metadataPath: 'spec.jobTemplate.spec.template.metadata',
      specPath: 'spec.jobTemplate.spec.template.spec',
    };
  }
  if (isSet(spec.template) && Array.isArray(obj(obj(spec.template).spec).containers)) {
    const template = obj(spec.template);
    return {
      metadata: obj(template.metadata),
      spec: obj(template.spec),
      metadataPath: 'spec.template.metadata',
      specPath: 'spec.template.spec',
    };
  }
  if (isSet(o.template) && Array.isArray(obj(obj(o.template).spec).containers)) {
    const template = obj(o.template);
    return { metadata: obj(template.metadata), spec: obj(template.spec), metadataPath: 'template.metadata', specPath: 'template.spec' };
  }
  if (Array.isArray(spec.containers)) return { metadata: obj(o.metadata), spec, metadataPath: 'metadata', specPath: 'spec' };
  const what = o.kind ? `a ${String(o.kind)} without a pod template` : `an object with keys ${JSON.stringify(Object.keys(o))}`;
  throw new Error(
    `evaluatePodSecurity: got ${what}. Fix: pass a Pod, a PodSpec (with containers), a pod template ({ metadata, spec }) or a workload with spec.template (DaemonSet, Deployment, StatefulSet, Job, ReplicaSet) or a CronJob`,
  );
}

/**
 * Evaluates a pod against the Pod Security Standards at policy version v1.28, as the built-in Pod Security Admission
 * does: returns the strictest level it meets and, for each stricter level, the controls it violates.
 *
 * @param object a Pod, a PodSpec, a pod template (`{ metadata, spec }`), a PodTemplate, a workload with
 *   `spec.template` (DaemonSet, Deployment, StatefulSet, ReplicaSet, Job) or a CronJob, as plain JSON (e.g. the
 *   output of `ApiObject.toJson()` or parsed YAML). Field paths in the result are relative to this object.
 * @throws when no pod spec can be found in `object`
 */
export function evaluatePodSecurity(object: any): PodSecurityEvaluation {
  const pod = podOf(object);
  const baselineViolations = violationsAt(pod, PodSecurityLevel.BASELINE);
  const restrictedViolations = violationsAt(pod, PodSecurityLevel.RESTRICTED);
  const level =
    baselineViolations.length > 0
      ? PodSecurityLevel.PRIVILEGED
      : restrictedViolations.length > 0
        ? PodSecurityLevel.BASELINE
        : PodSecurityLevel.RESTRICTED;
  return { level, baselineViolations, restrictedViolations };
}

/**
 * The strictest level that every one of `levels` allows, i.e. the least strict of them: what a namespace's `audit` /
 * `warn` mode can be set to without a finding for any of its pods. `RESTRICTED` for an empty list.
 */
export function strictestCommonLevel(levels: PodSecurityLevel[]): PodSecurityLevel {
  return levels.reduce((a, b) => (RANK[b] < RANK[a] ? b : a), PodSecurityLevel.RESTRICTED);
}

/**
 * The Pod Security Standards evaluator as static members, for every language (jsii carries classes, not free
 * functions): the same as {@link evaluatePodSecurity}, {@link strictestCommonLevel} and
 * {@link POD_SECURITY_POLICY_VERSION}.
 */
export class PodSecurity {
  /** The policy version evaluated (`POD_SECURITY_POLICY_VERSION`). */
  public static readonly POLICY_VERSION: string = POD_SECURITY_POLICY_VERSION;

  /** The strictest level a Pod, pod template or workload meets, with the violations of the stricter levels. */
  public static evaluate(object: any): PodSecurityEvaluation {
    return evaluatePodSecurity(object);
  }

  /** The strictest level that every one of `levels` allows (restricted for none). */
  public static strictestCommonLevel(levels: PodSecurityLevel[]): PodSecurityLevel {
    checkArguments('PodSecurity.strictestCommonLevel', arguments, [
      ['levels', req(listOf(oneOf('PodSecurityLevel', Object.values(PodSecurityLevel))))],
    ]);
    return strictestCommonLevel(levels);
  }

  private constructor() {}
}
