/**
 * `NodeService`: the generic construct that turns typed intent about a node-level service into one DaemonSet
 * (plus its ServiceAccount and least-privilege RBAC when it needs the API). Presets build on it.
 */

import { ApiObject, ApiObjectMetadata, Chart, JsonPatch } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { NodeServiceKind } from '../policy/kinds';
import { NodeServiceChecks, synthesisOf } from '../policy/synth';
import { ApiPermission } from './api-access';
import { Canary } from './canary';
import { checkAtSynth } from './app-checks';
import { coverageErrors, CoveredDaemonSet } from './coverage-check';
import { NodeServiceError, presetProblems, ProblemCollector, propsError } from '../k8s/problems';
import { DEFAULT_NAMESPACE, resolveExtras, resolveIntent, ServiceExtras, ServiceIntent, TrackIntent } from './intent';
import { SERVICE_LABEL } from './labels';
import { NodePool } from './node-pool';
import { NODE_SERVICE_SHAPE, NodeServiceProps } from './props';
import { buildPodTemplate } from './render/pod';
import { renderTracks, RenderedTrack } from './render/tracks';
import { checkShape } from '../k8s/shape';
import { Variant } from './variant';
import { registerNodeTax } from './node-tax-check';
import { WireDaemonSetSpec, WirePodTemplateSpec } from './wire';

/**
 * The DaemonSet of a node service, built from the wire form of its spec (see `wire.ts`): it renders as a plain
 * `ApiObject` (resolve, sort, JSON patches) without the L1's property mapping, and once per synthesis (the policy
 * checks and the output share the render). Outside a synthesis (e.g. `Testing.synth`) every call renders afresh.
 */
class NodeServiceDaemonSet extends k8s.KubeDaemonSet {
  private rendered?: { readonly synthesis: object; readonly json: any };

  public constructor(scope: Construct, id: string, props: { readonly metadata: ApiObjectMetadata; readonly spec: WireDaemonSetSpec }) {
    // The L1 keeps its props as given; they are only read back by `toJson` below.
    super(scope, id, props as unknown as k8s.KubeDaemonSetProps);
  }

  public toJson(): any {
    const synthesis = synthesisOf(this);
    if (synthesis !== undefined && this.rendered?.synthesis === synthesis) return this.rendered.json;
    const json = ApiObject.prototype.toJson.call(this);
    this.rendered = synthesis !== undefined ? { synthesis, json } : undefined;
    return json;
  }
}

export { DEFAULT_NAMESPACE };

/** A pod spec without its node affinity (which is what sets a variant's nodes apart), as comparable text. */
function podSpecBesidesAffinity(template: WirePodTemplateSpec): string {
  const { affinity: _affinity, ...spec } = template.spec ?? {};
  return JSON.stringify(spec);
}

/**
 * The fields (`variants[1]`) of the variants without a canary, on the service's operating system, whose pods are those
 * of the default DaemonSet but for the node affinity that selects their nodes: such a variant splits the nodes and
 * changes nothing.
 */
function idleVariants(tracks: RenderedTrack[], template: WirePodTemplateSpec, windowsOnly: boolean): string[] {
  const intents = tracks.map((t) => t.intent);
  const withCanary = new Set(intents.filter((t) => t.variant !== undefined && t.canary !== undefined).map((t) => t.variant));
  const candidates = tracks.filter(
    ({ intent: t }) => t.variant !== undefined && !withCanary.has(t.variant) && (t.pod.windows !== undefined) === windowsOnly,
  );
  if (candidates.length === 0) return [];
  const base = podSpecBesidesAffinity(template);
  return candidates.filter((t) => podSpecBesidesAffinity(t.template) === base).map(({ intent: t }) => `${t.field} ("${t.variant}")`);
}

/**
 * A node-level service: one DaemonSet built from typed intent, secure by default (seccomp RuntimeDefault, no privilege
 * escalation, read-only root filesystem, all capabilities dropped, no API token), with a stable selector
 * (`app.kubernetes.io/name` + `instance`), recommended labels, an explicit update strategy, and declared host access.
 */
export class NodeService extends Construct {
  /** The namespace node services go to when neither the props nor the chart name one (`DEFAULT_NAMESPACE`). */
  public static readonly DEFAULT_NAMESPACE: string = DEFAULT_NAMESPACE;

  /** The DaemonSet (and pod) name. */
  public readonly name: string;
  /** The namespace. */
  public readonly namespace: string;
  /** The kind whose allowlists apply. */
  public readonly kind: NodeServiceKind;
  /** The DaemonSet built, unless the props are invalid. */
  private readonly builtDaemonSet?: k8s.KubeDaemonSet;
  /** The selector labels (`app.kubernetes.io/name` and `instance`). */
  public readonly selector: { [key: string]: string };
  /** The recommended labels on every object. */
  public readonly labels: { [key: string]: string };
  /** The ServiceAccount name the pods run as, if any. */
  public readonly serviceAccountName?: string;
  /**
   * Labels shared by the pods of every DaemonSet of the service (stable and canary): `app.kubernetes.io/name` and
   * `node-services.cdk8s.io/service` (the instance). Monitoring selects the pods by them.
   */
  public readonly podSelector: { [key: string]: string };
  /** The names of every DaemonSet of the service: the default one first, then the canary, the variants and their canaries. */
  public readonly daemonSetNames: string[];
  /** Every DaemonSet of the service, in the order of {@link NodeService.daemonSetNames}. */
  public readonly daemonSets: k8s.KubeDaemonSet[];
  /** The variants of the service. */
  public readonly variants: Variant[];
  /** The node-local Service (`internalTrafficPolicy: Local`), when `localService` is given. */
  public readonly localService?: k8s.KubeService;
  /** The PriorityClass created for the pods, when `priorityClass` is given. */
  public readonly priorityClass?: k8s.KubePriorityClass;
  /** The NetworkPolicy of the pods, when `networkPolicy` is given. */
  public readonly networkPolicy?: k8s.KubeNetworkPolicy;
  /** The canary DaemonSet, when a canary is configured. */
  public readonly canaryDaemonSet?: k8s.KubeDaemonSet;
  /** The canary split, when configured. */
  public readonly canary?: Canary;
  /** The pools the service must cover. */
  public readonly pools: NodePool[];
  /** The DaemonSets besides the default one, with what they are for. */
  private readonly tracks: Array<{ readonly intent: TrackIntent; readonly daemonSet: k8s.KubeDaemonSet }>;
  /** The pools the service must not cover. */
  public readonly excludePools: NodePool[];

  constructor(scope: Construct, id: string, props: NodeServiceProps) {
    super(scope, id);
    const problems = presetProblems(props) ?? new ProblemCollector();
    const { checked, intent, tracks, extras, template } = resolveAndRender(props, Chart.of(this).namespace, problems);

    // What the service resolved from its props (when they are invalid, from the sound ones: see docs/errors.md).
    this.name = intent.name;
    this.namespace = intent.namespace;
    this.kind = intent.kind;
    this.selector = intent.selector;
    this.labels = intent.labels;
    this.serviceAccountName = intent.serviceAccountName;
    this.canary = intent.canary;
    this.variants = [...(checked.variants ?? [])];
    this.pools = intent.pools;
    this.excludePools = intent.excludePools;
    this.podSelector = podSelectorOf(intent.selector, intent.instance);
    // Every node service is checked against the rule catalogue at synth (once per app, whatever the number of services).
    NodeServiceChecks.of(this);
    if (problems.reportAtSynth(this)) {
      // Invalid props: the problems are reported at synthesis, with the App's other problems; no object is built.
      this.daemonSetNames = [];
      this.daemonSets = [];
      this.tracks = [];
      return;
    }

    // Phase 4: the objects.
    this.daemonSetNames = [intent.name, ...intent.tracks.map((t) => t.daemonSetName)];
    this.builtDaemonSet = this.createDaemonSet(
      'Resource',
      intent.name,
      intent.pod.labels,
      intent.annotations,
      intent.selector,
      template,
      intent,
    );
    this.tracks = tracks.map(({ intent: t, template: tt }) => ({
      intent: t,
      daemonSet: this.createDaemonSet(t.id, t.daemonSetName, t.pod.labels, t.annotations, t.selector, tt, intent),
    }));
    this.canaryDaemonSet = this.tracks.find((t) => t.intent.id === 'Canary')?.daemonSet;
    this.daemonSets = [this.daemonSet, ...this.tracks.map((t) => t.daemonSet)];
    if (intent.apiAccess.length > 0)
      this.createApiAccess(intent.apiAccess, intent.serviceAccountName ?? intent.name, intent.createServiceAccount, intent.automount);
    const objects = this.createExtras(intent, extras);
    this.priorityClass = objects.priorityClass;
    this.networkPolicy = objects.networkPolicy;
    this.localService = objects.localService;
    this.addChecks(checked, intent, extras, idleVariants(tracks, template, intent.pod.windows !== undefined));
  }

  /** The checks at synth: the node tax of the pools, the declared coverage, and the app's checks of the service. */
  private addChecks(checked: NodeServiceProps, intent: ServiceIntent, extras: ServiceExtras, idle: string[]): void {
    registerNodeTax(this, {
      name: `${this.namespace}/${this.name}`,
      pools: this.pools,
      manifests: () => this.daemonSets.map((d) => d.toJson()),
    });
    if (this.pools.length > 0 || this.excludePools.length > 0) {
      this.node.addValidation({ validate: () => this.verifyCoverage() });
    }
    checkAtSynth({
      construct: this,
      controlPlane: checked.controlPlane === true,
      pools: this.pools,
      priorityClassName: intent.pod.priorityClassName,
      daemonSet: this.daemonSet,
      idleCanary: intent.tracks.some((t) => t.id === 'Canary' && !t.changesSomething),
      idleVariants: idle,
      hostNetworkPolicy:
        extras.networkPolicy !== undefined && checked.networkPolicy?.hostNetworkReason === undefined && hostNetworkDaemonSets(intent),
      daemonSets: this.daemonSets,
      updateStrategy: intent.updateStrategy,
    });
  }

  /** Verifies the declared coverage targets against the rendered DaemonSets (see `coverage-check.ts`). */
  private verifyCoverage(): string[] {
    const all: CoveredDaemonSet[] = [
      { what: this.name, manifest: this.daemonSet.toJson(), nodeLabels: {} },
      ...this.tracks.map((t) => ({
        what: t.intent.daemonSetName,
        manifest: t.daemonSet.toJson(),
        nodeLabels: t.intent.nodeLabels,
        pool: t.intent.pool,
      })),
    ];
    return coverageErrors(`${this.namespace}/${this.name}`, all, this.pools, this.excludePools);
  }

  /** The PriorityClass, NetworkPolicy and node-local Service of the service, those its intent asks for. */
  private createExtras(
    intent: ServiceIntent,
    extras: ServiceExtras,
  ): {
    priorityClass?: k8s.KubePriorityClass;
    networkPolicy?: k8s.KubeNetworkPolicy;
    localService?: k8s.KubeService;
  } {
    let priorityClass: k8s.KubePriorityClass | undefined;
    let networkPolicy: k8s.KubeNetworkPolicy | undefined;
    let localService: k8s.KubeService | undefined;
    if (extras.priorityClass) {
      const pc = extras.priorityClass;
      priorityClass = new k8s.KubePriorityClass(this, 'PriorityClass', {
        metadata: { name: pc.name, labels: { ...intent.labels } },
        value: pc.value,
        globalDefault: false,
        preemptionPolicy: pc.preemptionPolicy ?? 'PreemptLowerPriority',
        ...(pc.description ? { description: pc.description } : {}),
      });
      // Cluster-scoped: never the chart's namespace.
      if (Chart.of(this).namespace) priorityClass.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    }
    if (extras.networkPolicy) {
      const spec = { ...extras.networkPolicy, podSelector: { matchLabels: { ...this.podSelector } } };
      networkPolicy = new k8s.KubeNetworkPolicy(this, 'NetworkPolicy', {
        metadata: { name: intent.name, namespace: intent.namespace, labels: { ...intent.labels } },
        spec,
      });
    }
    if (extras.localService) {
      localService = new k8s.KubeService(this, 'LocalService', {
        metadata: { name: extras.localService.name, namespace: intent.namespace, labels: { ...intent.labels } },
        spec: {
          type: 'ClusterIP',
          selector: { ...this.podSelector },
          internalTrafficPolicy: 'Local',
          ports: extras.localService.ports,
        },
      });
    }
    return { priorityClass, networkPolicy, localService };
  }

  /**
   * The DaemonSet. A service with invalid props builds none: reading it then throws the {@link NodeServiceError}
   * listing the problems (which synthesis reports too).
   */
  public get daemonSet(): k8s.KubeDaemonSet {
    if (this.builtDaemonSet === undefined) throw propsError(this) ?? new NodeServiceError(this.node.path, []);
    return this.builtDaemonSet;
  }

  private createDaemonSet(
    id: string,
    name: string,
    labels: { [key: string]: string },
    annotations: { [key: string]: string },
    selector: { [key: string]: string },
    template: WirePodTemplateSpec,
    intent: ServiceIntent,
  ): k8s.KubeDaemonSet {
    return new NodeServiceDaemonSet(this, id, {
      metadata: { name, namespace: intent.namespace, labels: { ...labels }, annotations },
      spec: {
        selector: { matchLabels: { ...selector } },
        updateStrategy: intent.updateStrategy,
        ...(intent.minReadySeconds > 0 ? { minReadySeconds: intent.minReadySeconds } : {}),
        revisionHistoryLimit: intent.revisionHistoryLimit,
        template,
      },
    });
  }

  private createApiAccess(permissions: ApiPermission[], serviceAccount: string, create: boolean, automount: boolean): void {
    const chartNamespace = Chart.of(this).namespace;
    if (create) {
      new k8s.KubeServiceAccount(this, 'ServiceAccount', {
        metadata: { name: serviceAccount, namespace: this.namespace, labels: { ...this.labels } },
        automountServiceAccountToken: automount,
      });
    }
    const roleName = `${this.namespace}-${this.name}`;
    const role = new k8s.KubeClusterRole(this, 'ClusterRole', {
      metadata: { name: roleName, labels: { ...this.labels } },
      rules: permissions.map((p) => p.toJson()),
    });
    const binding = new k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
      metadata: { name: roleName, labels: { ...this.labels } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
      subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace: this.namespace }],
    });
    if (chartNamespace) {
      // Cluster-scoped objects must not carry the chart's namespace.
      for (const obj of [role, binding] as ApiObject[]) obj.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    }
  }
}

/**
 * The selector's labels but the instance, then the service label with the instance (built in that order, without
 * deleting a key: a deleted key turns the object into a slow dictionary for every later read).
 */
function podSelectorOf(selector: { [key: string]: string }, instance: string): { [key: string]: string } {
  const out: { [key: string]: string } = {};
  for (const [key, value] of Object.entries(selector)) if (key !== 'app.kubernetes.io/instance') out[key] = value;
  out[SERVICE_LABEL] = instance;
  return out;
}

/** `true` when every DaemonSet of the service uses the host network, else the names of those that do (or `false`). */
function hostNetworkDaemonSets(intent: ServiceIntent): boolean | string[] {
  const all = [{ daemonSetName: intent.name, pod: intent.pod }, ...intent.tracks];
  const on = all.filter((t) => t.pod.hostNetwork).map((t) => t.daemonSetName);
  return on.length === all.length ? true : on.length > 0 ? on : false;
}

/** Props as the intent needs them: the required fields present (an absent one is already a problem). */
function sound(props: NodeServiceProps): NodeServiceProps {
  return { ...props, name: props.name ?? '', containers: props.containers ?? [] };
}

/**
 * Phases 1 to 3: the boundary (every prop's type and shape), the resolved intent with its grammar checks, and the pod
 * templates, checked as they are rendered. The tracks' templates are rendered before the extras are resolved, and the
 * default DaemonSet's last, so that problems are listed in the order of the props.
 */
function resolveAndRender(props: NodeServiceProps, chartNamespace: string | undefined, problems: ProblemCollector) {
  const checked = checkShape<NodeServiceProps>(props, NODE_SERVICE_SHAPE, problems, 'NodeService');
  const resolvable = sound(checked);
  const intent = resolveIntent(resolvable, chartNamespace, problems);
  const tracks = renderTracks(intent.name, intent.tracks, problems);
  const extras = resolveExtras(resolvable, problems);
  const template = buildPodTemplate(intent.pod, problems);
  return { checked, intent, tracks, extras, template };
}
