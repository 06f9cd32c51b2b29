/**
 * `NodeService`: the generic construct that turns typed intent about a node-level service into one DaemonSet
 * (plus its ServiceAccount and least-privilege RBAC when it needs the API). Presets build on it.
 */

import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { checkPodOnNode, CoverageReason } from '../coverage';
import { dns1123LabelError, intOrPercentError, isZeroIntOrPercent, labelValueError, qualifiedNameError } from '../k8s';
import { findRule, unknownRuleMessage } from '../policy/config';
import { KIND_ANNOTATION, kindProfile, NodeServiceKind } from '../policy/kinds';
import { suppressionAnnotationKey } from '../policy/suppression';
import { NodeServiceChecks } from '../policy/synth';
import { ApiPermission } from './api-access';
import { Canary } from './canary';
import { ContainerSpec } from './container';
import { ProblemCollector } from './errors';
import { ANNOTATION_PREFIX, recommendedLabels, selectorLabels } from './labels';
import { checkPoolBudget } from './node-budget';
import { NodePool } from './node-pool';
import { registerNodeTax } from './node-tax-check';
import { NodeAffinityTerm, NodeRequirement, TaintEffect, Toleration } from './placement';
import { buildPodTemplate, checkAnnotations, checkLabels, imageVersion, MIN_REASON_LENGTH, PodIntent } from './pod';
import { Rollout } from './rollout';

/**
 * The DaemonSet of a node service: renders once per synthesis (the policy checks and the output share the render).
 * Outside a synthesis (e.g. `Testing.synth`) every call renders afresh.
 */
class NodeServiceDaemonSet extends k8s.KubeDaemonSet {
  private rendered?: { readonly synthesis: object; readonly json: any };

  public toJson(): any {
    const synthesis = NodeServiceChecks.of(this)._synthesis;
    if (synthesis !== undefined && this.rendered?.synthesis === synthesis) return this.rendered.json;
    const json = super.toJson();
    this.rendered = synthesis !== undefined ? { synthesis, json } : undefined;
    return json;
  }
}

/** The namespace node services go to when neither the props nor the chart name one. */
export const DEFAULT_NAMESPACE = 'node-services';

/** DNS policy of the pods. */
export enum DnsPolicy {
  /** Cluster DNS (the default for pods without host network). */
  CLUSTER_FIRST = 'ClusterFirst',
  /** Cluster DNS for a host-network pod (it would otherwise get the node's resolver). */
  CLUSTER_FIRST_WITH_HOST_NET = 'ClusterFirstWithHostNet',
  /** The node's resolver: for services that must not depend on cluster DNS (CNI) or resolve nothing. */
  DEFAULT = 'Default',
}

/** A rule of the policy catalogue switched off for this service, with the reason recorded in the manifest. */
export interface RuleSuppression {
  /** The rule id (see docs/rules.md); API-validity rules cannot be suppressed. */
  readonly ruleId: string;
  /** Why the finding is acceptable here (at least 10 characters). */
  readonly reason: string;
}

/** Props of {@link NodeService}. */
export interface NodeServiceProps {
  /** Name of the DaemonSet and `app.kubernetes.io/name` (a DNS-1123 label, e.g. `fluent-bit`). */
  readonly name: string;
  /**
   * Namespace. `default` is refused: node services belong in a platform namespace.
   * @default the chart's namespace, else `node-services`
   */
  readonly namespace?: string;
  /**
   * `app.kubernetes.io/instance`: distinguishes several installations of the same application.
   * @default the name
   */
  readonly instance?: string;
  /**
   * `app.kubernetes.io/version`.
   * @default the tag of the first container's image
   */
  readonly version?: string;
  /**
   * `app.kubernetes.io/component`.
   * @default the kind, e.g. `log-agent`
   */
  readonly component?: string;
  /**
   * `app.kubernetes.io/part-of`.
   * @default `node-services`
   */
  readonly partOf?: string;
  /**
   * The kind whose host-path and capability allowlists apply (presets set it).
   * @default NodeServiceKind.GENERIC (no allowlist)
   */
  readonly kind?: NodeServiceKind;
  /** The long-running containers. */
  readonly containers: ContainerSpec[];
  /**
   * Containers that run to completion before the others start (e.g. installing CNI binaries).
   * @default none
   */
  readonly initContainers?: ContainerSpec[];
  /**
   * Use the node's network namespace.
   * @default false
   */
  readonly hostNetwork?: boolean;
  /**
   * Use the node's PID namespace.
   * @default false
   */
  readonly hostPID?: boolean;
  /**
   * DNS policy.
   * @default CLUSTER_FIRST_WITH_HOST_NET with hostNetwork, else CLUSTER_FIRST
   */
  readonly dnsPolicy?: DnsPolicy;
  /**
   * Node labels a node must carry.
   * @default `{ "kubernetes.io/os": "linux" }`
   */
  readonly nodeSelector?: { [key: string]: string };
  /**
   * Required node affinity: a node must satisfy at least one term (all requirements of that term).
   * @default none
   */
  readonly nodeAffinity?: NodeAffinityTerm[];
  /**
   * Requirements every node must meet, ANDed into every required affinity term (given in `nodeAffinity`, or derived
   * from `pools`); with no term, they form the only one. Presets use it to keep agents off virtual and serverless nodes.
   * @default none
   */
  readonly nodeRequirements?: NodeRequirement[];
  /**
   * Node pools the service must cover. Unless `nodeAffinity` is given, the affinity is derived from them (a node of any
   * pool qualifies; a pool without labels means every node), and the tolerations their `NoSchedule`/`NoExecute` taints
   * need are added. Coverage of every pool is verified at synth with the DaemonSet controller's semantics.
   * @default no declared coverage target
   */
  readonly pools?: NodePool[];
  /**
   * Node pools the service must not cover (verified at synth), e.g. keep a log agent off GPU nodes.
   * @default none
   */
  readonly excludePools?: NodePool[];
  /**
   * Split the service into a stable and a `-canary` DaemonSet by a node label (see {@link Canary.byNodeLabel}).
   * @default no canary
   */
  readonly canary?: Canary;
  /**
   * Tolerations. The DaemonSet controller adds the node-condition tolerations (not-ready, unreachable, pressure,
   * unschedulable) itself.
   * @default none
   */
  readonly tolerations?: Toleration[];
  /**
   * Run on control-plane nodes too (adds the control-plane toleration). An explicit decision (PRACTICES P3).
   * @default false
   */
  readonly controlPlane?: boolean;
  /**
   * Update strategy.
   * @default Rollout.maxUnavailable(1)
   */
  readonly rollout?: Rollout;
  /**
   * Seconds a new pod must be ready before it counts as available.
   * @default 0
   */
  readonly minReadySeconds?: number;
  /**
   * Old revisions kept for rollback.
   * @default 10
   */
  readonly revisionHistoryLimit?: number;
  /**
   * PriorityClass (e.g. `system-node-critical` for kinds a node cannot work without).
   * @default none
   */
  readonly priorityClassName?: string;
  /**
   * Kubernetes API access: creates a ServiceAccount named like the service and a ClusterRole + binding with exactly
   * these permissions (no wildcards, no Secrets), and mounts the token.
   * @default no API access (no token mounted)
   */
  readonly apiAccess?: ApiPermission[];
  /**
   * An existing ServiceAccount to run as (instead of `apiAccess`).
   * @default the namespace's default ServiceAccount, or the one created for `apiAccess`
   */
  readonly serviceAccountName?: string;
  /**
   * Mount the ServiceAccount token.
   * @default true with apiAccess, else false
   */
  readonly automountServiceAccountToken?: boolean;
  /**
   * Seconds the pod gets to stop.
   * @default 30
   */
  readonly terminationGracePeriodSeconds?: number;
  /**
   * Pod-level user ID.
   * @default the image's user
   */
  readonly runAsUser?: number;
  /**
   * Pod-level group ID.
   * @default the image's group
   */
  readonly runAsGroup?: number;
  /**
   * Group owning mounted volumes.
   * @default none
   */
  readonly fsGroup?: number;
  /**
   * Extra labels on every object (and the pod template). They never enter the selector.
   * @default none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Extra annotations on the DaemonSet.
   * @default none
   */
  readonly annotations?: { [key: string]: string };
  /**
   * Extra annotations on the pod template (e.g. a config checksum to roll pods on config change).
   * @default none
   */
  readonly podAnnotations?: { [key: string]: string };
  /**
   * Policy findings accepted for this service, each with a reason kept in the manifest.
   * @default none
   */
  readonly suppressions?: RuleSuppression[];
}

/**
 * A node-level service: one DaemonSet built from typed intent, secure by default (seccomp RuntimeDefault, no privilege
 * escalation, read-only root filesystem, all capabilities dropped, no API token), with a stable selector
 * (`app.kubernetes.io/name` + `instance`), recommended labels, an explicit update strategy, and declared host access.
 */
export class NodeService extends Construct {
  /** The DaemonSet (and pod) name. */
  public readonly name: string;
  /** The namespace. */
  public readonly namespace: string;
  /** The kind whose allowlists apply. */
  public readonly kind: NodeServiceKind;
  /** The DaemonSet. */
  public readonly daemonSet: k8s.KubeDaemonSet;
  /** The selector labels (`app.kubernetes.io/name` and `instance`). */
  public readonly selector: { [key: string]: string };
  /** The recommended labels on every object. */
  public readonly labels: { [key: string]: string };
  /** The ServiceAccount name the pods run as, if any. */
  public readonly serviceAccountName?: string;
  /** The canary DaemonSet, when a canary is configured. */
  public readonly canaryDaemonSet?: k8s.KubeDaemonSet;
  /** The canary split, when configured. */
  public readonly canary?: Canary;
  /** The pools the service must cover. */
  public readonly pools: NodePool[];
  /** The pools the service must not cover. */
  public readonly excludePools: NodePool[];

  constructor(scope: Construct, id: string, props: NodeServiceProps) {
    super(scope, id);
    const problems = new ProblemCollector();
    if (!props || typeof props !== 'object') {
      problems.add('props', props, 'props are required', 'pass at least { name, containers }');
      problems.throwIfAny(this.node.path);
    }

    this.kind = props.kind ?? NodeServiceKind.GENERIC;
    const profile = kindProfile(this.kind);
    this.name = props.name;
    problems.check('name', props.name, dns1123LabelError(props.name), 'use a short lower-case name such as "fluent-bit"');
    this.namespace = props.namespace ?? Chart.of(this).namespace ?? DEFAULT_NAMESPACE;
    problems.check('namespace', this.namespace, dns1123LabelError(this.namespace), 'use a DNS-1123 label such as "node-services"');
    if (this.namespace === 'default') {
      problems.add(
        'namespace',
        this.namespace,
        'node services must not run in the default namespace',
        `use a platform namespace such as "${DEFAULT_NAMESPACE}" (see NodeServicesNamespace)`,
      );
    }

    const instance = props.instance ?? props.name;
    problems.check('instance', instance, labelValueError(instance), 'use a valid label value');
    const version = props.version ?? imageVersion(props.containers?.[0]?.image);
    if (props.version !== undefined)
      problems.check('version', props.version, labelValueError(props.version), 'use a valid label value such as "3.1.9"');
    const component = props.component ?? this.kind;
    problems.check('component', component, labelValueError(component), 'use a valid label value');
    const partOf = props.partOf ?? 'node-services';
    problems.check('partOf', partOf, labelValueError(partOf), 'use a valid label value');
    checkLabels('labels', props.labels, problems);
    checkAnnotations('annotations', props.annotations, problems);
    checkAnnotations('podAnnotations', props.podAnnotations, problems);

    this.selector = selectorLabels(props.name, instance);
    this.labels = { ...(props.labels ?? {}), ...recommendedLabels({ name: props.name, instance, version, component, partOf }) };

    // Rollout.
    const rollout = props.rollout ?? Rollout.maxUnavailable(1);
    let updateStrategy: k8s.DaemonSetUpdateStrategy;
    if (rollout.type === 'OnDelete') {
      if (!rollout.reason || rollout.reason.trim().length < MIN_REASON_LENGTH) {
        problems.add(
          'rollout',
          rollout.reason,
          `Rollout.onDelete needs a reason of at least ${MIN_REASON_LENGTH} characters`,
          'say who replaces the pods and when, e.g. Rollout.onDelete("drained and replaced during node maintenance")',
        );
      }
      updateStrategy = { type: 'OnDelete' };
    } else {
      const mu = rollout.maxUnavailableValue ?? 0;
      const ms = rollout.maxSurgeValue ?? 0;
      problems.check('rollout.maxUnavailable', mu, intOrPercentError(mu), 'use a count such as 1 or a percentage such as "10%"');
      problems.check('rollout.maxSurge', ms, intOrPercentError(ms), 'use a count such as 1 or a percentage such as "10%"');
      if (isZeroIntOrPercent(mu) && isZeroIntOrPercent(ms)) {
        problems.add(
          'rollout',
          { maxUnavailable: mu, maxSurge: ms },
          'maxUnavailable and maxSurge cannot both be zero (the rollout could never progress)',
          'use Rollout.maxUnavailable(1) or Rollout.surge(1)',
        );
      }
      const iv = (v: number | string): k8s.IntOrString =>
        typeof v === 'number' ? k8s.IntOrString.fromNumber(v) : k8s.IntOrString.fromString(v);
      updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: iv(mu), maxSurge: iv(ms) } };
    }
    const minReadySeconds = props.minReadySeconds ?? 0;
    const revisionHistoryLimit = props.revisionHistoryLimit ?? 10;
    for (const [field, v] of [
      ['minReadySeconds', minReadySeconds],
      ['revisionHistoryLimit', revisionHistoryLimit],
    ] as const) {
      if (!Number.isInteger(v) || v < 0) problems.add(field, v, 'must be a non-negative whole number', 'use 0 or more');
    }

    // API access.
    const apiAccess = props.apiAccess ?? [];
    apiAccess.forEach((p, i) => {
      const problem = p.problem();
      if (problem)
        problems.add(
          `apiAccess[${i}]`,
          p.toJson(),
          `${problem} (node services get least-privilege access)`,
          'name exact resources and verbs, and never Secrets',
        );
    });
    if (apiAccess.length > 0 && props.serviceAccountName) {
      problems.add(
        'serviceAccountName',
        props.serviceAccountName,
        'cannot be combined with apiAccess (which creates its own ServiceAccount)',
        'use one or the other',
      );
    }
    this.serviceAccountName = apiAccess.length > 0 ? props.name : props.serviceAccountName;
    const automount = props.automountServiceAccountToken ?? apiAccess.length > 0;

    const hostNetwork = props.hostNetwork ?? false;
    this.pools = [...(props.pools ?? [])];
    this.excludePools = [...(props.excludePools ?? [])];
    checkPools('pools', this.pools, problems);
    checkPools('excludePools', this.excludePools, problems);
    const given = props.tolerations ?? [];
    const tolerations = [...given, ...poolTolerations(this.pools).filter((t) => !given.some((g) => covers(g, t)))];
    if (props.controlPlane) tolerations.push(Toleration.controlPlane());
    const baseTerms = props.nodeAffinity ?? poolAffinity(this.pools);
    const affinityTerms = (props.nodeRequirements ?? []).reduce((terms, r) => withRequirement(terms, r), baseTerms);
    const canary = props.canary;
    this.canary = canary;
    if (canary) {
      problems.check(
        'canary.key',
        canary.key,
        qualifiedNameError(canary.key),
        'use a node label key such as "node-services.example.com/canary"',
      );
      problems.check(
        'canary.value',
        canary.value,
        labelValueError(canary.value) ?? (canary.value === '' ? 'must not be empty' : undefined),
        'use a label value such as "true"',
      );
      for (const name of Object.keys(canary.options.images ?? {})) {
        if (!(props.containers ?? []).some((c) => c.name === name) && !(props.initContainers ?? []).some((c) => c.name === name)) {
          problems.add(`canary.images["${name}"]`, name, 'names no container of the service', 'use the name of one of the containers');
        }
      }
      if (canary.options.version !== undefined)
        problems.check('canary.version', canary.options.version, labelValueError(canary.options.version), 'use a valid label value');
    }

    const podAnnotations = { ...(props.podAnnotations ?? {}) };
    const intent: PodIntent = {
      kind: this.kind,
      profile,
      labels: this.labels,
      annotations: podAnnotations,
      containers: props.containers,
      initContainers: props.initContainers ?? [],
      hostNetwork,
      hostPID: props.hostPID ?? false,
      dnsPolicy: props.dnsPolicy ?? (hostNetwork ? DnsPolicy.CLUSTER_FIRST_WITH_HOST_NET : DnsPolicy.CLUSTER_FIRST),
      nodeSelector: props.nodeSelector ?? { 'kubernetes.io/os': 'linux' },
      affinityTerms: canary ? withRequirement(affinityTerms, NodeRequirement.notIn(canary.key, [canary.value])) : affinityTerms,
      tolerations,
      priorityClassName: props.priorityClassName,
      serviceAccountName: this.serviceAccountName,
      automountServiceAccountToken: automount,
      terminationGracePeriodSeconds: props.terminationGracePeriodSeconds ?? 30,
      runAsUser: props.runAsUser,
      runAsGroup: props.runAsGroup,
      fsGroup: props.fsGroup,
    };
    const template = buildPodTemplate(intent, problems);

    // Reasons given in code become suppressions recorded on the object.
    const suppressions: RuleSuppression[] = [...(props.suppressions ?? [])];
    const writableReasons = allContainers(props)
      .flatMap((c) => c.hostPaths ?? [])
      .filter((h) => h.isWritable && h.reason)
      .map((h) => `${h.path}: ${h.reason}`);
    if (writableReasons.length > 0) suppressions.push({ ruleId: 'host-path-writable', reason: unique(writableReasons).join('; ') });
    const privilegedReasons = allContainers(props)
      .filter((c) => c.privileged && c.privilegedReason)
      .map((c) => `${c.name}: ${c.privilegedReason}`);
    if (privilegedReasons.length > 0) suppressions.push({ ruleId: 'privileged-container', reason: privilegedReasons.join('; ') });
    const unconfinedReasons = allContainers(props)
      .filter((c) => c.seccompProfile?.type === 'Unconfined' && c.seccompProfile.reason)
      .map((c) => `${c.name}: ${c.seccompProfile!.reason}`);
    if (unconfinedReasons.length > 0) suppressions.push({ ruleId: 'seccomp-unconfined', reason: unconfinedReasons.join('; ') });
    if (rollout.type === 'OnDelete' && rollout.reason) suppressions.push({ ruleId: 'on-delete-without-reason', reason: rollout.reason });
    const annotations: { [key: string]: string } = { ...(props.annotations ?? {}), [KIND_ANNOTATION]: this.kind };
    suppressions.forEach((s, i) => {
      const rule = findRule(s.ruleId);
      if (!rule) {
        problems.add(`suppressions[${i}].ruleId`, s.ruleId, unknownRuleMessage(String(s.ruleId)), 'use a rule id from docs/rules.md');
      } else if (!rule.suppressible) {
        problems.add(
          `suppressions[${i}].ruleId`,
          s.ruleId,
          'is an API-validity rule (the API server would reject the object), which cannot be suppressed',
          'fix the manifest instead',
        );
      }
      if (!s.reason || s.reason.trim().length < MIN_REASON_LENGTH) {
        problems.add(
          `suppressions[${i}].reason`,
          s.reason,
          `a suppression needs a reason of at least ${MIN_REASON_LENGTH} characters`,
          'say why the finding is acceptable for this service',
        );
      }
      const key = suppressionAnnotationKey(s.ruleId);
      annotations[key] = annotations[key] ? `${annotations[key]}; ${s.reason}` : s.reason;
    });

    let canaryTemplate: k8s.PodTemplateSpec | undefined;
    let canaryLabels: { [key: string]: string } | undefined;
    let canarySelector: { [key: string]: string } | undefined;
    if (canary) {
      const o = canary.options;
      const mainName = props.containers?.[0]?.name;
      const canaryImage = o.image ?? props.containers?.[0]?.image;
      canarySelector = selectorLabels(props.name, `${instance}-canary`);
      canaryLabels = {
        ...(props.labels ?? {}),
        ...recommendedLabels({
          name: props.name,
          instance: `${instance}-canary`,
          version: o.version ?? imageVersion(canaryImage),
          component,
          partOf,
        }),
      };
      const swap = (c: ContainerSpec): ContainerSpec => {
        const isMain = c.name === mainName;
        return {
          ...c,
          image: o.images?.[c.name] ?? (isMain && o.image ? o.image : c.image),
          ...(isMain && o.args ? { args: o.args } : {}),
          ...(isMain && o.env ? { env: { ...(c.env ?? {}), ...o.env } } : {}),
        };
      };
      const canaryProblems = new ProblemCollector();
      canaryTemplate = buildPodTemplate(
        {
          ...intent,
          labels: canaryLabels,
          containers: (props.containers ?? []).map(swap),
          initContainers: (props.initContainers ?? []).map(swap),
          affinityTerms: withRequirement(affinityTerms, NodeRequirement.in(canary.key, [canary.value])),
        },
        canaryProblems,
      );
      canaryProblems.forEach((p) => problems.add(`canary (${p.field})`, p.value, p.problem, p.fix));
    }

    problems.throwIfAny(this.node.path);

    this.daemonSet = new NodeServiceDaemonSet(this, 'Resource', {
      metadata: { name: props.name, namespace: this.namespace, labels: { ...this.labels }, annotations },
      spec: {
        selector: { matchLabels: { ...this.selector } },
        updateStrategy,
        ...(minReadySeconds > 0 ? { minReadySeconds } : {}),
        revisionHistoryLimit,
        template,
      },
    });
    if (canary && canaryTemplate && canaryLabels && canarySelector) {
      this.canaryDaemonSet = new NodeServiceDaemonSet(this, 'Canary', {
        metadata: {
          name: `${props.name}-canary`,
          namespace: this.namespace,
          labels: { ...canaryLabels },
          annotations: {
            ...annotations,
            [`${ANNOTATION_PREFIX}/canary-of`]: props.name,
            [`${ANNOTATION_PREFIX}/canary-label`]: `${canary.key}=${canary.value}`,
          },
        },
        spec: {
          selector: { matchLabels: { ...canarySelector } },
          updateStrategy,
          ...(minReadySeconds > 0 ? { minReadySeconds } : {}),
          revisionHistoryLimit,
          template: canaryTemplate,
        },
      });
    }

    if (apiAccess.length > 0) this.createApiAccess(apiAccess, automount);
    // Every node service is checked against the rule catalogue at synth (once per app, whatever the number of services).
    NodeServiceChecks.of(this);
    registerNodeTax(this, {
      name: `${this.namespace}/${this.name}`,
      pools: this.pools,
      manifests: () => [this.daemonSet, this.canaryDaemonSet].flatMap((d) => (d ? [d.toJson()] : [])),
    });
    if (this.pools.length > 0 || this.excludePools.length > 0) {
      this.node.addValidation({ validate: () => this.verifyCoverage() });
    }
  }

  /**
   * Verifies the declared coverage targets against the rendered DaemonSet(s) with the DaemonSet controller's semantics:
   * every pool in `pools` gets a pod (and fits, when the pool's allocatable is known), no pool in `excludePools` does.
   * With a canary, pool nodes without the canary label are checked against the stable DaemonSet and pool nodes with
   * it against the canary.
   */
  private verifyCoverage(): string[] {
    const errors: string[] = [];
    const halves: Array<{ what: string; manifest: any; extraLabels: { [key: string]: string } }> = [
      { what: this.name, manifest: this.daemonSet.toJson(), extraLabels: {} },
    ];
    const canary = this.canary;
    const canaryLabel = canary ? `${canary.key}=${canary.value}` : undefined;
    if (this.canaryDaemonSet && canary) {
      halves.push({ what: `${this.name}-canary`, manifest: this.canaryDaemonSet.toJson(), extraLabels: { [canary.key]: canary.value } });
    }
    for (const half of halves) {
      for (const pool of this.pools) {
        const node = withLabels(pool.toNode(), half.extraLabels);
        const verdict = checkPodOnNode(half.manifest, node);
        const label = Object.keys(half.extraLabels).length > 0 ? ` (nodes labelled ${canaryLabel})` : '';
        if (!verdict.desired) {
          errors.push(
            `coverage: DaemonSet ${half.what} would not run on node pool "${pool.name}"${label}: ${verdict.reason} (${verdict.detail}). Fix: ${coverageFix(verdict.reason)}`,
          );
        } else if (!verdict.runs) {
          errors.push(
            `coverage: DaemonSet ${half.what} is wanted on node pool "${pool.name}"${label} but its pod would stay Pending: ${verdict.reason} (${verdict.detail}). Fix: ${coverageFix(verdict.reason)}`,
          );
        }
      }
      for (const pool of this.excludePools) {
        const verdict = checkPodOnNode(half.manifest, withLabels(pool.toNode(), half.extraLabels));
        if (verdict.desired) {
          errors.push(
            `coverage: DaemonSet ${half.what} would run on node pool "${pool.name}", which it must not cover. Fix: exclude the pool's labels with nodeAffinity (e.g. NodeRequirement.notIn / doesNotExist) or stop tolerating its taints`,
          );
        }
      }
    }
    return errors;
  }

  private createApiAccess(permissions: ApiPermission[], automount: boolean): void {
    const chartNamespace = Chart.of(this).namespace;
    new k8s.KubeServiceAccount(this, 'ServiceAccount', {
      metadata: { name: this.name, namespace: this.namespace, labels: { ...this.labels } },
      automountServiceAccountToken: automount,
    });
    const roleName = `${this.namespace}-${this.name}`;
    const role = new k8s.KubeClusterRole(this, 'ClusterRole', {
      metadata: { name: roleName, labels: { ...this.labels } },
      rules: permissions.map((p) => p.toJson()),
    });
    const binding = new k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
      metadata: { name: roleName, labels: { ...this.labels } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
      subjects: [{ kind: 'ServiceAccount', name: this.name, namespace: this.namespace }],
    });
    if (chartNamespace) {
      // Cluster-scoped objects must not carry the chart's namespace.
      for (const obj of [role, binding] as ApiObject[]) obj.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    }
  }
}

function coverageFix(reason: string): string {
  switch (reason) {
    case CoverageReason.NODE_SELECTOR:
      return "make nodeSelector match the pool's labels, or drop the pool from the coverage targets";
    case CoverageReason.NODE_AFFINITY:
      return "let the required node affinity admit the pool's labels (or omit nodeAffinity to derive it from the pools)";
    case CoverageReason.TAINT:
      return 'tolerate the taint (add it to the pool so it is derived, or pass a Toleration)';
    case CoverageReason.HOST_PORT:
      return 'free the host port or use another one';
    default:
      return "lower the pod's requests or give the pool larger nodes";
  }
}

function checkPools(field: string, pools: NodePool[], problems: ProblemCollector): void {
  pools.forEach((pool, i) => {
    checkLabels(`${field}[${i}].labels`, pool.labels, problems);
    pool.taints.forEach((t, j) => {
      problems.check(`${field}[${i}].taints[${j}].key`, t.key, qualifiedNameError(t.key), 'use a taint key such as "nvidia.com/gpu"');
      if (t.value !== undefined)
        problems.check(`${field}[${i}].taints[${j}].value`, t.value, labelValueError(t.value), 'use a valid label value');
    });
    checkPoolBudget(`${field}[${i}]`, pool.budget, pool.allocatable, problems);
  });
}

/** The tolerations that pools' scheduling-relevant taints need (PreferNoSchedule never keeps a daemon pod off). */
function poolTolerations(pools: NodePool[]): Toleration[] {
  return pools.flatMap((pool) =>
    pool.taints
      .filter((t) => t.effect !== TaintEffect.PREFER_NO_SCHEDULE)
      .map((t) =>
        t.value !== undefined ? Toleration.equal(t.key, t.value, { effect: t.effect }) : Toleration.exists(t.key, { effect: t.effect }),
      ),
  );
}

/** Whether toleration `a` tolerates every taint that toleration `b` tolerates. */
function covers(a: Toleration, b: Toleration): boolean {
  if (a.effect !== undefined && a.effect !== b.effect) return false;
  if (a.key === undefined && a.operator === 'Exists') return true;
  if (a.key !== b.key) return false;
  if (a.operator === 'Exists') return true;
  return b.operator === 'Equal' && a.value === b.value;
}

/** One affinity term per pool (any pool qualifies); none when a pool stands for every node. */
function poolAffinity(pools: NodePool[]): NodeAffinityTerm[] {
  if (pools.length === 0 || pools.some((p) => Object.keys(p.labels).length === 0)) return [];
  return pools.map((p) => ({
    requirements: Object.entries(p.labels)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => NodeRequirement.in(k, [v])),
  }));
}

/** ANDs `requirement` into every term ((A∨B)∧C = (A∧C)∨(B∧C)); without terms, one term of just the requirement. */
function withRequirement(terms: NodeAffinityTerm[], requirement: NodeRequirement): NodeAffinityTerm[] {
  if (terms.length === 0) return [{ requirements: [requirement] }];
  return terms.map((t) => ({ requirements: [...(t.requirements ?? []), requirement] }));
}

function withLabels(node: any, labels: { [key: string]: string }): any {
  return { ...node, metadata: { ...node.metadata, labels: { ...node.metadata.labels, ...labels } } };
}

function allContainers(props: NodeServiceProps): ContainerSpec[] {
  return [...(props.containers ?? []), ...(props.initContainers ?? [])];
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
