/**
 * `NodeServiceNamespace`: the platform namespace node services run in, with Pod Security Admission labels, the
 * trust label the admission guardrails key on, and (when system priority classes are used outside `kube-system`)
 * the ResourceQuota that lets critical pods be admitted.
 */

import { ApiObject, JsonPatch, Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { NodeServiceError, ProblemCollector, propsError } from '../core/errors';
import { checkShape } from '../core/shape';
import { namespacePropsShape } from './shapes';
import { recommendedLabels } from '../core/labels';
import { PURPOSE_ANNOTATION } from '../k8s/vocabulary';
import { DEFAULT_NAMESPACE, NodeService } from '../core/node-service';
import { checkAnnotations, checkLabels } from '../core/intent/maps';
import { dns1123LabelError, labelValueError } from '../k8s';
import { NodeServiceChecks } from '../policy/synth';
import { evaluatePodSecurity, PodSecurityLevel, strictestCommonLevel } from './pod-security';

export { PodSecurityLevel } from './pod-security';

import { TRUST_LABEL_KEY, TRUST_LABEL_VALUE } from './trust-label';

export { TRUST_LABEL_KEY, TRUST_LABEL_VALUE };

/** Prefix of the Pod Security Admission namespace labels. */
export const POD_SECURITY_LABEL_PREFIX = 'pod-security.kubernetes.io/';

/** The two reserved priority classes the scheduler treats as system-critical. */
export enum SystemPriorityClass {
  /** Pods that must run on this node (CNI, CSI node plugins, kube-proxy); lowest OOM score adjustment. */
  SYSTEM_NODE_CRITICAL = 'system-node-critical',
  /** Cluster-critical pods that may be rescheduled elsewhere. */
  SYSTEM_CLUSTER_CRITICAL = 'system-cluster-critical',
}

/** Default `hard.pods` of the critical-pods ResourceQuota: large enough never to limit, the quota only authorises. */
export const DEFAULT_CRITICAL_PODS_LIMIT = 1000000;

const POD_SECURITY_VERSION = /^v1\.(0|[1-9][0-9]*)$/;

/** Props of {@link NodeServiceNamespace}. */
export interface NodeServiceNamespaceProps {
  /**
   * Namespace name: a DNS-1123 label. `default` and `kube-*` names other than `kube-system` are refused: node
   * services belong in one platform namespace, named after what it holds.
   * @default `node-services`
   */
  readonly name?: string;
  /**
   * Level of the `audit` and `warn` Pod Security modes, given explicitly. It overrides the level computed from
   * `services`. `enforce` is always `privileged` (see the class documentation).
   *
   * Without `services`, the default `BASELINE` makes every apply of a service that exceeds baseline (hostPath, host
   * namespaces, privileged containers) show a warning naming what exceeds it, which keeps host access visible to
   * reviewers. Set `PRIVILEGED` to silence it, `RESTRICTED` to also see hardening gaps.
   * @default the strictest level every one of `services` meets when `services` is given, else PodSecurityLevel.BASELINE
   */
  readonly podSecurityLevel?: PodSecurityLevel;
  /**
   * The node services that run in this namespace (presets included). When given and `podSecurityLevel` is not, the
   * `audit` and `warn` labels are set to the strictest Pod Security level that **every** listed service meets: its
   * DaemonSet and, with a canary, its canary DaemonSet, evaluated with the Pod Security Standards checks of policy
   * v1.28 (see `evaluatePodSecurity`). A log agent mounting hostPath volumes makes it `privileged`; services without
   * host access that set `runAsNonRoot` make it `restricted`.
   *
   * The level is computed when the Namespace is synthesized, from the DaemonSets as they are rendered then (JSON
   * patches and other changes made after this construct is built count); the list itself is fixed here, so build the
   * services first and pass them in. Each must run in this namespace, and the list must not be empty.
   *
   * With `podSecurityVersion` other than `v1.28` the level is still computed with the v1.28 checks; later policy
   * versions only relax them, except the `hostProbesAndHostLifecycle` control (v1.34+) and the `appArmorProfile`
   * fields (v1.30+).
   * @default none (`audit` / `warn` use `podSecurityLevel`)
   */
  readonly services?: NodeService[];
  /**
   * Policy version pinned on all three modes (`*-version` labels): the Kubernetes minor the cluster runs, so that
   * a control-plane upgrade does not silently change what is checked. Must be `v1.N`.
   * @default the App's target Kubernetes minor (`NodeServiceChecks.kubernetesVersionOf`): `v1.28` unless declared
   */
  readonly podSecurityVersion?: string;
  /**
   * Whether to label the namespace trusted for node services (`node-services.cdk8s.io/trusted: "true"`).
   * `NodeServiceGuardrails` lets only trusted namespaces run host-access workloads, under its allowlists.
   * @default true
   */
  readonly trusted?: boolean;
  /**
   * System priority classes the services here use. When set, a ResourceQuota scoped to those classes is emitted:
   * clusters that limit critical pods to `kube-system` (AdmissionConfiguration `limitedResources`) admit a pod with
   * such a class only in namespaces that have a matching quota. Not needed (and refused) in `kube-system`.
   * @default none (no quota)
   */
  readonly criticalPriorityClasses?: SystemPriorityClass[];
  /**
   * `hard.pods` of the critical-pods quota. It exists to authorise, not to limit: keep it above
   * nodes × node services, or pods of a DaemonSet stop being created on new nodes.
   * @default 1000000
   */
  readonly criticalPodsLimit?: number;
  /**
   * `app.kubernetes.io/part-of` of the emitted objects.
   * @default `node-services`
   */
  readonly partOf?: string;
  /**
   * Extra labels on the Namespace. Pod Security labels and the trust label are set from the other props and may not
   * be given here.
   * @default none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Annotations on the Namespace.
   * @default none
   */
  readonly annotations?: { [key: string]: string };
}

/**
 * The platform namespace for node services.
 *
 * - `pod-security.kubernetes.io/enforce: privileged`: node services need hostPath, host namespaces and sometimes
 *   privileged containers, which `baseline` rejects; enforcing anything stricter would reject their pods (Pod
 *   Security Admission never rejects the DaemonSet itself, only the pods its controller creates later, so the
 *   failure would show up as a DaemonSet with no pods). `enforce` stays `privileged` even when every service here
 *   meets a stricter level: the label would then only hold as long as no service needing host access is added, and
 *   adding one would fail at pod creation rather than at review. What runs here is restricted by
 *   `NodeServiceGuardrails` instead (registry and host-path allowlists) and by who may create workloads in the
 *   namespace (RBAC).
 * - `audit` / `warn` at `podSecurityLevel` when given, else at the strictest level every one of `services` meets
 *   (computed at synth), else `baseline`, so deviations stay visible in audit logs and `kubectl apply` output. When
 *   that level is `privileged` (a service needs host access), Pod Security Admission does not evaluate the
 *   namespace's workloads at all.
 * - `*-version` pinned to the target Kubernetes minor.
 * - the trust label read by `NodeServiceGuardrails`.
 * - optionally a ResourceQuota that authorises `system-node-critical` / `system-cluster-critical` pods here.
 */
export class NodeServiceNamespace extends Construct {
  /** The trust label key (`TRUST_LABEL_KEY`). */
  public static readonly TRUST_LABEL_KEY: string = TRUST_LABEL_KEY;
  /** The trust label value (`TRUST_LABEL_VALUE`). */
  public static readonly TRUST_LABEL_VALUE: string = TRUST_LABEL_VALUE;
  /** The Pod Security Admission label prefix (`POD_SECURITY_LABEL_PREFIX`). */
  public static readonly POD_SECURITY_LABEL_PREFIX: string = POD_SECURITY_LABEL_PREFIX;
  /** The default pod limit of the critical-pods quota (`DEFAULT_CRITICAL_PODS_LIMIT`). */
  public static readonly DEFAULT_CRITICAL_PODS_LIMIT: number = DEFAULT_CRITICAL_PODS_LIMIT;

  /** The namespace name. */
  public readonly name: string;
  /** The Namespace object, unless the props are invalid. */
  private readonly builtNamespace?: k8s.KubeNamespace;
  /** The critical-pods ResourceQuota, when `criticalPriorityClasses` is set. */
  public readonly criticalPodsQuota?: k8s.KubeResourceQuota;
  /** The node services whose Pod Security level sets `audit` / `warn` (empty when `services` was not given). */
  public readonly services: NodeService[];

  private readonly explicitLevel?: PodSecurityLevel;
  private readonly extraLabels: { [key: string]: string };
  private readonly trustLabels: { [key: string]: string };
  private readonly podSecurityVersion: string;

  /**
   * The Namespace. One with invalid props builds none: reading it then throws the {@link NodeServiceError} listing
   * the problems (which synthesis reports too).
   */
  public get namespace(): k8s.KubeNamespace {
    if (this.builtNamespace === undefined) throw propsError(this) ?? new NodeServiceError(this.node.path, []);
    return this.builtNamespace;
  }

  constructor(scope: Construct, id: string, props: NodeServiceNamespaceProps = {}) {
    super(scope, id);
    const problems = new ProblemCollector();
    // Props that are not an object are one problem (the rest is muted); the checks below then read no field.
    props = checkShape(props, namespacePropsShape(), problems, 'NodeServiceNamespace');

    const name = props.name ?? DEFAULT_NAMESPACE;
    problems.check('name', name, dns1123LabelError(name), 'use a DNS-1123 label such as "node-services"');
    if (name === 'default') {
      problems.add(
        'name',
        name,
        'node services must not share the default namespace with ordinary workloads',
        `use a platform namespace such as "${DEFAULT_NAMESPACE}"`,
      );
    } else if (name.startsWith('kube-') && name !== 'kube-system') {
      problems.add(
        'name',
        name,
        'the kube- prefix is reserved for Kubernetes system namespaces',
        `use a platform namespace such as "${DEFAULT_NAMESPACE}" (or "kube-system" for components that live there)`,
      );
    }

    const explicitLevel = props.podSecurityLevel;
    if (explicitLevel !== undefined && !Object.values(PodSecurityLevel).includes(explicitLevel)) {
      problems.add(
        'podSecurityLevel',
        explicitLevel,
        'is not a Pod Security level',
        'use PodSecurityLevel.PRIVILEGED, BASELINE or RESTRICTED',
      );
    }
    const services = props.services === undefined ? [] : Array.isArray(props.services) ? [...props.services] : undefined;
    if (services === undefined) {
      problems.add(
        'services',
        props.services,
        'must be a list of node services',
        'pass the NodeService (or preset) constructs that run in this namespace, e.g. [logs, metrics]',
      );
    } else if (props.services !== undefined && services.length === 0) {
      problems.add(
        'services',
        services,
        'is empty, so no Pod Security level can be derived from it (often the namespace was built before the services)',
        'build the services first and pass them, or omit services and set podSecurityLevel',
      );
    }
    (services ?? []).forEach((service, i) => {
      if (!(service instanceof NodeService)) {
        const given: unknown = service;
        problems.add(
          `services[${i}]`,
          given instanceof Construct ? given.node.path : given,
          'is not a NodeService',
          'pass NodeService or preset (LogAgent, MonitoringAgent, …) constructs',
        );
      } else if (service.namespace !== name) {
        problems.add(
          `services[${i}]`,
          service.node.path,
          `runs in namespace "${service.namespace}", not "${name}", so its pods are not checked by this namespace's labels`,
          `list only the services of namespace "${name}", or set their namespace to "${name}"`,
        );
      }
    });
    const version = props.podSecurityVersion ?? `v${NodeServiceChecks.kubernetesVersionOf(this)}`;
    if (typeof version !== 'string' || !POD_SECURITY_VERSION.test(version)) {
      problems.add(
        'podSecurityVersion',
        version,
        "must be a pinned policy version v1.N ('latest' would change the checks when the cluster is upgraded)",
        'use the cluster minor version, e.g. "v1.28"',
      );
    }

    const classes = props.criticalPriorityClasses ?? [];
    classes.forEach((c, i) => {
      if (!Object.values(SystemPriorityClass).includes(c)) {
        problems.add(
          `criticalPriorityClasses[${i}]`,
          c,
          'is not a system priority class',
          'use SystemPriorityClass.SYSTEM_NODE_CRITICAL or SYSTEM_CLUSTER_CRITICAL',
        );
      }
    });
    if (new Set(classes).size !== classes.length) {
      problems.add('criticalPriorityClasses', classes, 'lists a class twice', 'list each class once');
    }
    if (classes.length > 0 && name === 'kube-system') {
      problems.add(
        'criticalPriorityClasses',
        classes,
        "kube-system is where critical pods are always admitted; a quota there would compete with the cluster administrator's own",
        'remove criticalPriorityClasses for kube-system',
      );
    }
    const limit = props.criticalPodsLimit ?? DEFAULT_CRITICAL_PODS_LIMIT;
    if (!Number.isInteger(limit) || limit < 1) {
      problems.add(
        'criticalPodsLimit',
        limit,
        'must be a positive whole number',
        `keep the default ${DEFAULT_CRITICAL_PODS_LIMIT}, or a number above nodes × node services`,
      );
    }
    if (props.criticalPodsLimit !== undefined && classes.length === 0) {
      problems.add(
        'criticalPodsLimit',
        props.criticalPodsLimit,
        'has no effect without criticalPriorityClasses',
        'set criticalPriorityClasses, or remove criticalPodsLimit',
      );
    }

    const partOf = props.partOf ?? 'node-services';
    problems.check('partOf', partOf, labelValueError(partOf), 'use a valid label value such as "node-services"');
    checkLabels('labels', props.labels, problems);
    checkAnnotations('annotations', props.annotations, problems);
    for (const key of Object.keys(props.labels ?? {})) {
      if (key.startsWith(POD_SECURITY_LABEL_PREFIX) || key === TRUST_LABEL_KEY) {
        problems.add(
          `labels["${key}"]`,
          key,
          'is set by the construct',
          key === TRUST_LABEL_KEY ? 'use the trusted prop' : 'use podSecurityLevel / podSecurityVersion',
        );
      }
    }
    this.name = name;
    this.services = services ?? [];
    this.explicitLevel = explicitLevel;
    this.podSecurityVersion = version;
    if (problems.reportAtSynth(this)) {
      // Invalid props: reported at synthesis with the App's other problems; no object is built.
      this.extraLabels = {};
      this.trustLabels = {};
      return;
    }
    this.extraLabels = {
      ...(props.labels ?? {}),
      ...recommendedLabels({ name, instance: name, component: 'namespace', partOf }),
    };
    this.trustLabels = (props.trusted ?? true) ? { [TRUST_LABEL_KEY]: TRUST_LABEL_VALUE } : {};

    this.builtNamespace = new k8s.KubeNamespace(this, 'Resource', {
      metadata: {
        name,
        // audit / warn resolve when the Namespace is synthesized, so the level reflects the DaemonSets as rendered.
        labels: this.labelsWith(Lazy.any({ produce: () => this.levelAtSynth() })),
        annotations: props.annotations ? { ...props.annotations } : undefined,
      },
    });
    dropChartNamespace(this.builtNamespace);

    if (classes.length > 0) {
      this.criticalPodsQuota = new k8s.KubeResourceQuota(this, 'CriticalPods', {
        metadata: {
          name: 'critical-pods',
          namespace: name,
          labels: recommendedLabels({ name: 'critical-pods', instance: name, component: 'resource-quota', partOf }),
          annotations: {
            [PURPOSE_ANNOTATION]: `Authorises pods with priority class ${classes.join(', ')} in ${name} on clusters that limit critical pods to kube-system; hard.pods is deliberately large.`,
          },
        },
        spec: {
          hard: { pods: k8s.Quantity.fromString(String(limit)) },
          scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: [...classes] }] },
        },
      });
    }
  }

  /**
   * The level of the `audit` and `warn` modes: `podSecurityLevel` when given, else the strictest level every one of
   * `services` meets, evaluated on their DaemonSets as rendered now (call it after the services are complete, e.g.
   * in tests or at synth), else `BASELINE`.
   */
  public get podSecurityLevel(): PodSecurityLevel {
    if (this.explicitLevel !== undefined) return this.explicitLevel;
    if (this.services.length === 0) return PodSecurityLevel.BASELINE;
    const daemonSets = this.services.flatMap((s) => s.daemonSets);
    return strictestCommonLevel(daemonSets.map((ds) => evaluatePodSecurity(ds.toJson()).level));
  }

  /** The level computed in the current synthesis (the tree does not change within one), else afresh. */
  private levelCache?: { readonly synthesis: object; readonly level: PodSecurityLevel };

  private levelAtSynth(): PodSecurityLevel {
    if (this.explicitLevel !== undefined || this.services.length === 0) return this.podSecurityLevel;
    const synthesis = NodeServiceChecks.of(this)._synthesis;
    if (synthesis !== undefined && this.levelCache?.synthesis === synthesis) return this.levelCache.level;
    const level = this.podSecurityLevel;
    if (synthesis !== undefined) this.levelCache = { synthesis, level };
    return level;
  }

  /** The labels on the Namespace (Pod Security, trust, recommended and extra labels), with `audit` / `warn` as now. */
  public get labels(): { [key: string]: string } {
    return this.labelsWith(this.podSecurityLevel);
  }

  /** The Namespace labels with `auditLevel` (a level, or a value resolved at synth) on `audit` and `warn`. */
  private labelsWith(auditLevel: string): { [key: string]: string } {
    const podSecurity: { [key: string]: string } = {};
    for (const [mode, value] of [
      ['enforce', PodSecurityLevel.PRIVILEGED],
      ['audit', auditLevel],
      ['warn', auditLevel],
    ] as const) {
      podSecurity[`${POD_SECURITY_LABEL_PREFIX}${mode}`] = value;
      podSecurity[`${POD_SECURITY_LABEL_PREFIX}${mode}-version`] = this.podSecurityVersion;
    }
    return { ...this.extraLabels, ...podSecurity, ...this.trustLabels };
  }
}

/**
 * Removes the namespace cdk8s copies from the chart onto every object, for a cluster-scoped object.
 * @internal
 */
export function dropChartNamespace(obj: ApiObject): void {
  // metadata.namespace is fixed when the object is constructed (explicit, else the chart's).
  if (obj.metadata.namespace !== undefined) obj.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
}

/**
 * Properties of {@link NodeServicesNamespace}.
 *
 * @deprecated Renamed `NodeServiceNamespaceProps` (the singular, as in `NodeServiceGuardrails`); this name is removed
 * in the next release.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- jsii has no type aliases: the old name is an interface
export interface NodeServicesNamespaceProps extends NodeServiceNamespaceProps {}

/**
 * The platform namespace for node services.
 *
 * @deprecated Renamed `NodeServiceNamespace` (the singular, as in `NodeServiceGuardrails`); this name is removed in
 * the next release.
 */
export class NodeServicesNamespace extends NodeServiceNamespace {
  constructor(scope: Construct, id: string, props: NodeServicesNamespaceProps = {}) {
    super(scope, id, props);
  }
}
