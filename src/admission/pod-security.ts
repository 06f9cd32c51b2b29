/**
 * Pod Security Standards evaluation: which PSS level (`restricted`, `baseline`, `privileged`) a pod meets, and which
 * controls it violates at each stricter level. A pure function over plain JSON (a Pod, a PodSpec, a pod template or a
 * workload such as a DaemonSet); it imports neither cdk8s nor cdk8s-plus, so the CLI and the rules can use it too.
 *
 * The controls are defined one per file in `pod-security/` (id, level, version, the check, and the CEL the admission
 * policies render for it); this module runs them. The checks mirror the built-in Pod Security Admission
 * (`k8s.io/pod-security-admission/policy`) at policy version **v1.28**:
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

import { InputError } from '../manifests/input-error';
import { controlsAt, isSet, levelRank, obj, PodSecurityLevel, PodView } from './pod-security/index';

export { PodSecurityLevel } from './pod-security/index';

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

function violationsAt(pod: PodView, level: PodSecurityLevel): PodSecurityViolation[] {
  const out: PodSecurityViolation[] = [];
  for (const control of controlsAt(level)) {
    const found = control.check(pod);
    if (found) out.push({ control: control.id, level: control.level, summary: found.summary, fields: found.fields });
  }
  return out;
}

/** The pod of the pod template at `path`. */
function templateView(template: unknown, path: string): PodView {
  const t = obj(template);
  return { metadata: obj(t.metadata), spec: obj(t.spec), metadataPath: `${path}.metadata`, specPath: `${path}.spec` };
}

/** Finds the pod in a Pod, PodSpec, pod template, PodTemplate, workload (DaemonSet, Deployment, Job…) or CronJob. */
/** @internal */
export function podOf(object: unknown): PodView {
  const o = obj(object);
  const spec = obj(o.spec);
  if (Array.isArray(o.containers)) return { metadata: {}, spec: o, metadataPath: 'metadata', specPath: '' };
  if (o.kind === 'CronJob' && isSet(obj(spec.jobTemplate).spec)) {
    return templateView(obj(obj(spec.jobTemplate).spec).template, 'spec.jobTemplate.spec.template');
  }
  if (isSet(spec.template) && Array.isArray(obj(obj(spec.template).spec).containers)) return templateView(spec.template, 'spec.template');
  if (isSet(o.template) && Array.isArray(obj(obj(o.template).spec).containers)) return templateView(o.template, 'template');
  if (Array.isArray(spec.containers)) return { metadata: obj(o.metadata), spec, metadataPath: 'metadata', specPath: 'spec' };
  const what = o.kind ? `a ${String(o.kind)} without a pod template` : `an object with keys ${JSON.stringify(Object.keys(o))}`;
  throw new InputError(
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
 * A TypeScript convenience, kept: the same as `PodSecurity.evaluate`, the form for every jsii language.
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
 * A TypeScript convenience, kept: the same as `PodSecurity.strictestCommonLevel`, the form for every jsii language.
 */
export function strictestCommonLevel(levels: PodSecurityLevel[]): PodSecurityLevel {
  return levels.reduce((a, b) => (levelRank(b) < levelRank(a) ? b : a), PodSecurityLevel.RESTRICTED);
}
