/**
 * Types shared by the policy rules and the engine that runs them. Plain data plus one small function per rule, so
 * that the same rule checks cdk8s output at synth time and any YAML in the CLI. Imports neither cdk8s nor
 * cdk8s-plus.
 */

import type { ContainerRole } from '../k8s/container-role';
import { NodeServiceError, show } from '../k8s/node-service-error';
import type { KubernetesVersion } from '../k8s/api-fields/versions';
import type { KindProfile, KindSource, NodeServiceKind } from './kinds';
import type {
  WireContainer,
  WireContainerPort,
  WireNamespace,
  WireDaemonSet,
  WireDaemonSetSpec,
  WireObjectMeta,
  WirePodSecurityContext,
  WirePodSpec,
  WirePodTemplateSpec,
  WireSecurityContext,
  WireVolume,
  WireVolumeMount,
} from '../k8s/wire';

/** How serious a finding is. */
export enum Severity {
  /** Fails synthesis and makes the CLI exit with code 1. */
  ERROR = 'error',
  /** Reported (printed at synth, listed by the CLI), never fails. */
  WARNING = 'warning',
  /** Advice: listed by the CLI, not printed at synth. */
  INFO = 'info',
}

/** What a rule protects. */
export enum RuleCategory {
  /** The API server would reject the object: always an error, never suppressible, never configurable. */
  API_VALIDITY = 'api-validity',
  /** What the pod may do on its node: host paths, privilege, capabilities, host namespaces. */
  HOST_ACCESS = 'host-access',
  /** Whether the service keeps running and rolls out safely. */
  RELIABILITY = 'reliability',
  /** Whether the object is a good node service at all (placement, namespace, guardrails). */
  FIT = 'fit',
}

/** One offending field found by a rule. */
export interface RuleFinding {
  /** JSON path of the offending field, e.g. `spec.template.spec.containers[0].securityContext.privileged`. */
  readonly path: string;
  /** What is wrong, naming the bad value. */
  readonly message: string;
  /**
   * A lower severity for this finding than the rule's (for example info for a read-only variant of the problem);
   * ignored when the configuration sets the rule's level.
   *
   * @default - the rule's severity for the kind
   */
  readonly severity?: Severity;
  /**
   * Whether the node-service kind the object is checked as allows what the finding reports (a CNI's writable
   * `/opt/cni/bin`, a node exporter's `hostPID`). The engine then drops the finding, or lowers it to
   * `allowedSeverity`, only when the kind is declared (the kind annotation); for an inferred kind it stays, an error
   * softened to a warning at most, with the way to declare the kind; without a kind it stays as it is.
   *
   * @default false
   */
  readonly allowedByKind?: boolean;
  /**
   * The severity of an allowed finding for the declared kind.
   *
   * @default - not reported for the declared kind
   */
  readonly allowedSeverity?: Severity;
}

/** A container of the pod template, as rules see it. */
export interface ContainerView {
  /** The container object as written (an empty object when the entry is not an object). */
  readonly container: WireContainer;
  /** Index in its list (`containers` or `initContainers`). */
  readonly index: number;
  /** JSON path of the container, e.g. `spec.template.spec.initContainers[1]`. */
  readonly path: string;
  /** Whether it is an init container. */
  readonly init: boolean;
  /** Whether it is an init container with `restartPolicy: Always` (a sidecar that keeps running). */
  readonly sidecar: boolean;
  /** What the container is for (main, init, a known sidecar such as the CSI `livenessprobe`), from `k8s/container-role`. */
  readonly role: ContainerRole;
  /** The container's name (empty when missing). */
  readonly name: string;
  /** The container's `securityContext` (an empty object when missing). */
  readonly securityContext: WireSecurityContext;
  /** Whether `securityContext.privileged` is `true`. */
  readonly privileged: boolean;
  /** Whether it is a Windows HostProcess container (its own or the pod's `windowsOptions.hostProcess`). */
  readonly hostProcess: boolean;
  /** Whether it has the whole node (privileged, or a Windows HostProcess container): other host-access findings add nothing. */
  readonly fullHostAccess: boolean;
  /** The container's `volumeMounts` (an empty list when missing). */
  readonly volumeMounts: readonly WireVolumeMount[];
  /** The container's `ports` (an empty list when missing). */
  readonly ports: readonly WireContainerPort[];
}

/** One mount of a host-path volume by a container. */
export interface HostPathMountView {
  /** The mounting container. */
  readonly container: ContainerView;
  /** The `volumeMounts` entry. */
  readonly mount: WireVolumeMount;
  /** JSON path of the `volumeMounts` entry. */
  readonly path: string;
  /** Whether the mount is writable (`readOnly` is not `true`). */
  readonly writable: boolean;
}

/** A `hostPath` volume of the pod template with the mounts that use it. */
export interface HostPathView {
  /** The volume entry. */
  readonly volume: WireVolume;
  /** JSON path of the volume entry, e.g. `spec.template.spec.volumes[2]`. */
  readonly path: string;
  /** The volume name. */
  readonly name: string;
  /** The host path (`hostPath.path`, empty when missing). */
  readonly hostPath: string;
  /**
   * The host path in POSIX form for matching against allowlists and sensitive paths: a Windows drive path
   * (`C:\var\lib\kubelet`) as `/var/lib/kubelet`; empty for a Windows named pipe (`\\.\pipe\…`) or when missing.
   */
  readonly matchPath: string;
  /** The host path `type` (empty when missing). */
  readonly type: string;
  /** Every container mount of this volume. */
  readonly mounts: readonly HostPathMountView[];
  /** Whether any container mounts it writable. */
  readonly writable: boolean;
}

/** The pre-computed view of one DaemonSet that every rule receives (built once per object). */
export interface PodView {
  /** The DaemonSet as written. */
  readonly object: WireDaemonSet;
  /** `metadata` (an empty object when missing). */
  readonly metadata: WireObjectMeta;
  /** `metadata.annotations` (an empty object when missing). */
  readonly annotations: { readonly [key: string]: string };
  /** `spec` (an empty object when missing). */
  readonly spec: WireDaemonSetSpec;
  /** `spec.template` (an empty object when missing). */
  readonly template: WirePodTemplateSpec;
  /** `spec.template.metadata.labels` (an empty object when missing). */
  readonly templateLabels: { readonly [key: string]: string };
  /** `spec.template.spec` (an empty object when missing). */
  readonly pod: WirePodSpec;
  /** JSON path of the pod spec: `spec.template.spec`. */
  readonly podPath: string;
  /** `spec.template.spec.securityContext` (an empty object when missing). */
  readonly podSecurityContext: WirePodSecurityContext;
  /** Main containers, then init containers. */
  readonly containers: readonly ContainerView[];
  /** `spec.template.spec.volumes` (an empty list when missing). */
  readonly volumes: readonly WireVolume[];
  /** Volumes by name (the first one when a name repeats). */
  readonly volumesByName: ReadonlyMap<string, WireVolume>;
  /** Host-path volumes with their mounts. */
  readonly hostPaths: readonly HostPathView[];
  /** The node-service kind: from the kind annotation, else inferred from the shape, else generic. */
  readonly kind: NodeServiceKind;
  /** Where the kind came from. */
  readonly kindSource: KindSource;
  /** What in the manifest shows an inferred kind (empty otherwise). */
  readonly kindEvidence: string;
  /**
   * Whether an inferred kind comes from a container image or command, not from host paths: only then does it soften
   * an error it would be allowed to a warning.
   */
  readonly kindByImage: boolean;
  /**
   * The profile whose allowlists apply: the annotated kind's, or the generic profile (no allowlists) when the kind
   * is inferred or absent. Allowlists are a contract the annotation opts into, not a guess.
   */
  readonly profile: KindProfile;
  /**
   * The profile of the kind, declared or inferred: node-critical, infrastructure, and the allowances a rule marks on
   * its findings (`allowedByKind`), which the engine applies only to a declared kind.
   */
  readonly kindProfile: KindProfile;
  /** Whether the pod runs on Windows (`spec.os.name: windows`, or a `kubernetes.io/os: windows` node selector). */
  readonly windows: boolean;
  /** Whether `spec.os.name` is `windows` (the API server then rejects Linux-only fields). */
  readonly osWindows: boolean;
}

/** Rule configuration after validation, as rules see it. */
export interface ResolvedRuleConfig {
  /** Allowed image registry prefixes; empty means no registry allowlist. */
  readonly imageRegistries: readonly string[];
  /** The Kubernetes version the manifests are meant for. */
  readonly kubernetesVersion: KubernetesVersion;
}

/**
 * The manifests of one check that the cross-object rules look up (the kinds of `CROSS_OBJECT_KINDS` in `rbac.ts`),
 * listed once per check, each list in input order.
 */
export interface InputObjects {
  /** Those manifests by `kind`. */
  readonly byKind: ReadonlyMap<unknown, readonly any[]>;
  /** The `RoleBinding` and `ClusterRoleBinding` objects. */
  readonly bindings: readonly any[];
}

/** What a rule gets besides the object itself. */
export interface RuleContext {
  /** The pre-computed view of the object. */
  readonly view: PodView;
  /** `Namespace` objects among the manifests, by name. */
  readonly namespaces: ReadonlyMap<string, WireNamespace>;
  /** The manifests of the kinds cross-object rules look up, by kind, and the (Cluster)RoleBindings among them. */
  readonly objects: InputObjects;
  /** The rule configuration. */
  readonly config: ResolvedRuleConfig;
  /** Whether a rule id exists in the catalogue and whether findings of it may be suppressed. */
  readonly ruleInfo: (id: string) => { readonly suppressible: boolean } | undefined;
}

/** A rule's severity for some kinds of node service, and why. */
export interface KindSeverity {
  /** The kinds (declared by the kind annotation or inferred from the manifest's shape). */
  readonly kinds: NodeServiceKind[];
  /**
   * The severity for these kinds.
   *
   * @default - the rule does not apply to these kinds
   */
  readonly severity?: Severity;
  /**
   * Whether the entry applies only when the kind annotation declares the kind (a manifest built to the library's
   * contract), not when the kind is inferred from a vendor manifest's shape.
   *
   * @default false
   */
  readonly declaredOnly?: boolean;
  /** Why these kinds differ (shown in docs/rules.md). */
  readonly reason: string;
}

/** What documents a rule: id, default severity, category, title, rationale, fix and an example. */
export interface RuleDocs {
  /** Stable kebab-case id (also the rule's file name). */
  readonly id: string;
  /** Default severity (API-validity rules are always errors). */
  readonly severity: Severity;
  /** What the rule protects. */
  readonly category: RuleCategory;
  /** One-line title. */
  readonly title: string;
  /** Why the rule exists. */
  readonly rationale: string;
  /** How to fix a finding. */
  readonly fix: string;
  /** A compliant YAML snippet (or a description) for the docs. */
  readonly example: string;
  /**
   * Severities that differ by kind of node service (the first entry naming a kind wins); the configuration, when it
   * sets the rule's level, overrides them.
   *
   * @default - the default severity for every kind
   */
  readonly kindSeverities?: KindSeverity[];
  /**
   * Whether the rule is Linux-only advice (seccomp, capabilities, privilege escalation, root filesystem, user IDs),
   * not run on Windows pods, where the API server rejects those fields.
   *
   * @default false
   */
  readonly linuxOnly?: boolean;
}

/** A rule of the catalogue as data (everything but its check), for documentation and tooling. */
export interface RuleInfo extends RuleDocs {
  /** Whether findings may be suppressed with an annotation (never for API validity). */
  readonly suppressible: boolean;
  /** Whether the configuration may switch the rule off or change its severity. */
  readonly configurable: boolean;
}

/** A rule: its documentation and a pure check over one plain manifest. */
export interface IPolicyRule extends RuleInfo {
  /**
   * Whether the engine gives the rule every object, not only DaemonSets.
   * @default false
   */
  readonly allKinds?: boolean;
  /** Returns one finding per offending field; an empty list when the object complies or the rule does not apply. */
  check(object: any, context: RuleContext): RuleFinding[];
}

/** The fields of a rule definition; `suppressible` and `configurable` default from the category. */
export interface RuleDefinition extends RuleDocs {
  /**
   * Whether findings may be suppressed with an annotation.
   * @default true (always false for API-validity rules)
   */
  readonly suppressible?: boolean;
  /**
   * Whether the configuration may switch the rule off or change its severity.
   * @default true (always false for API-validity rules)
   */
  readonly configurable?: boolean;
  /**
   * Whether the engine gives the rule every object, not only DaemonSets (the rule decides which kinds it checks).
   * @default false
   */
  readonly allKinds?: boolean;
  /** The check: one finding per offending field. */
  check(object: any, context: RuleContext): RuleFinding[];
}

/**
 * Builds a rule object. API-validity rules are forced to severity error, not suppressible and not configurable;
 * other rules are suppressible and configurable unless the definition says otherwise.
 */
export function defineRule(def: RuleDefinition): IPolicyRule {
  const api = def.category === RuleCategory.API_VALIDITY;
  if (api && def.severity !== Severity.ERROR) {
    throw new NodeServiceError(
      'defineRule',
      [
        {
          field: `defineRule(def.severity) of rule '${def.id}'`,
          value: show(def.severity),
          problem: 'an API-validity rule must have severity error (the API server rejects what it finds)',
          fix: 'set severity: Severity.ERROR, or give the rule another category',
        },
      ],
      'arguments',
    );
  }
  return {
    id: def.id,
    severity: def.severity,
    category: def.category,
    title: def.title,
    rationale: def.rationale,
    fix: def.fix,
    example: def.example,
    kindSeverities: def.kindSeverities,
    linuxOnly: def.linuxOnly ?? false,
    suppressible: api ? false : (def.suppressible ?? true),
    configurable: api ? false : (def.configurable ?? true),
    allKinds: def.allKinds ?? false,
    check: def.check,
  };
}
