/**
 * What one Pod Security control is made of (one file per control in this folder, after
 * `k8s.io/pod-security-admission/policy/check_*.go`): its id, level and policy version, the JS check the evaluator
 * (`evaluatePodSecurity`) and the synth-time admission check run, and the CEL the admission policies render for it.
 * One definition: the evaluator and the admission policies are both derived from the list in `index.ts`.
 */

/** The Pod Security Standards level a Pod Security Admission mode applies. */
export enum PodSecurityLevel {
  /** No restrictions: host namespaces, hostPath, privileged containers all allowed. */
  PRIVILEGED = 'privileged',
  /** Prevents known privilege escalations; forbids hostPath, host namespaces, privileged, non-default capabilities. */
  BASELINE = 'baseline',
  /** Baseline plus hardening: non-root, no privilege escalation, seccomp, only NET_BIND_SERVICE may be added. */
  RESTRICTED = 'restricted',
}

type Json = any;

/** A pod as the checks see it: metadata, spec, and the paths to them in the evaluated object. @internal */
export interface PodView {
  readonly metadata: Json;
  readonly spec: Json;
  readonly metadataPath: string;
  /** Path of the pod spec; empty when the evaluated object is the PodSpec itself. */
  readonly specPath: string;
}

/** What a check found: the words naming the offending values and who sets them, and the offending fields. @internal */
export interface CheckFinding {
  readonly summary: string;
  readonly fields: string[];
}

/** The policies the guardrails render. @internal */
export type GuardrailPolicyId = 'host-access' | 'tenant-pod-security' | 'allowlists';

/**
 * How an admission policy enforces a check: a CEL variable that lists the offenders (empty when the pod complies),
 * and the words of the message. @internal
 */
export interface CelCheck {
  /** The policy that renders it. */
  readonly policy: GuardrailPolicyId;
  /** The CEL variable holding the offenders. */
  readonly variable: string;
  /** What is denied, for the message (`hostPath volumes`). */
  readonly what: string;
  /** CEL: the list of offenders. */
  readonly expression: string;
}

/** One Pod Security control. @internal */
export interface PodSecurityControl {
  /** The Pod Security Admission check id, e.g. `hostPathVolumes`. */
  readonly id: string;
  /** The level the control belongs to. */
  readonly level: PodSecurityLevel;
  /** The first policy version of the behaviour implemented here (the checks implement v1.28). */
  readonly version: string;
  /** Baseline controls this control replaces at its level. */
  readonly overrides?: string[];
  /** The violation, or undefined when the pod complies. */
  check(pod: PodView): CheckFinding | undefined;
  /**
   * The CEL of the admission policy that enforces the control; none when another admission check enforces it more
   * strictly (`capabilities_baseline`: every added capability is host access; `restrictedVolumes`: the tenant volume
   * types).
   */
  readonly cel?: CelCheck;
}

export const isSet = (v: unknown): boolean => v !== undefined && v !== null;
export const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {});
export const list = (v: unknown): Json[] => (Array.isArray(v) ? v : []);
export const quote = (names: string[]): string => names.map((n) => JSON.stringify(n)).join(', ');

/** A container of the pod, with its name and path. @internal */
export interface ContainerRef {
  readonly container: Json;
  readonly name: string;
  readonly path: string;
}

/** The prefix of paths inside the pod spec (`spec.template.spec.`, or nothing for a bare PodSpec). @internal */
export function under(pod: PodView): string {
  return pod.specPath === '' ? '' : `${pod.specPath}.`;
}

/** Every init container, container and ephemeral container, in that order. @internal */
export function containersOf(pod: PodView): ContainerRef[] {
  const out: ContainerRef[] = [];
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers']) {
    list(pod.spec[kind]).forEach((container, i) => {
      out.push({ container: obj(container), name: String(obj(container).name ?? `#${i}`), path: `${under(pod)}${kind}[${i}]` });
    });
  }
  return out;
}

/** `container "a"` / `containers "a", "b"`. @internal */
export function containerWords(names: string[]): string {
  return `${names.length === 1 ? 'container' : 'containers'} ${quote(names)}`;
}

/** `pod and container "a"`: who sets a value (the pod, when `pod`, and `containers`). @internal */
export function setters(pod: boolean, containers: readonly ContainerRef[]): string {
  const parts = [...(pod ? ['pod'] : []), ...(containers.length > 0 ? [containerWords(containers.map((c) => c.name))] : [])];
  return parts.join(' and ');
}

/** A container's security context (`{}` when unset). @internal */
export function securityContext(c: ContainerRef): Json {
  return obj(c.container.securityContext);
}

/** Whether the pod is a Windows pod (`spec.os.name: windows`). @internal */
export function isWindows(pod: PodView): boolean {
  return obj(pod.spec.os).name === 'windows';
}
