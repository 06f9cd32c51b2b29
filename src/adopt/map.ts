/**
 * A DaemonSet as the props of a node-service construct: pod-level fields (metadata, placement, rollout, identity, DNS)
 * here, containers in `map-container.ts` and `map-probe.ts`. What has no typed prop is left out; the check finds it
 * and the fixpoint carries it through the escape hatch.
 */

import { asArray, asObject, isObject } from '../k8s/json';
import { ANNOTATION_PREFIX } from '../k8s/vocabulary';
import { NodeServiceKind } from '../policy/kinds';
import { ContainerContext, envFromExpr, envProps, mountProps, portsExpr, PULL_POLICIES, resourcesExpr, strings } from './map-container';
import { lifecycleProps, securityProps } from './map-probe';
import { arr, call, constant, Expr, lit, member, obj, prop, Property } from './model';
import { windowsPodOf, windowsProp } from './windows';

/** The labels the library sets itself from props (`name`, `instance`, `version`, `component`, `partOf`). */
const RECOMMENDED_LABEL_PROPS: Readonly<Record<string, string>> = {
  'app.kubernetes.io/instance': 'instance',
  'app.kubernetes.io/version': 'version',
  'app.kubernetes.io/component': 'component',
  'app.kubernetes.io/part-of': 'partOf',
};

/** Recommended label keys the library always writes (they are never extra labels). */
const LIBRARY_LABELS: readonly string[] = [
  'app.kubernetes.io/name',
  'app.kubernetes.io/managed-by',
  ...Object.keys(RECOMMENDED_LABEL_PROPS),
];

const TAINT_EFFECTS: Readonly<Record<string, string>> = {
  NoSchedule: 'NO_SCHEDULE',
  PreferNoSchedule: 'PREFER_NO_SCHEDULE',
  NoExecute: 'NO_EXECUTE',
};

const REQUIREMENT_FACTORIES: Readonly<Record<string, string>> = {
  In: 'in',
  NotIn: 'notIn',
  Exists: 'exists',
  DoesNotExist: 'doesNotExist',
};

/** Collects the named numeric constants of a module. */
export class Constants {
  /** Declared constants, in order. */
  public readonly declared: Array<{ name: string; value: number }> = [];

  /** The constant `name` for `value` (a second value under the same name gets a numbered name). */
  public number(name: string, value: number): Expr {
    const existing = this.declared.find((c) => c.name === name || (c.name.startsWith(`${name}_`) && c.value === value));
    if (existing !== undefined && existing.value === value) return constant(existing.name, value);
    const taken = new Set(this.declared.map((c) => c.name));
    let unique = name;
    for (let i = 2; taken.has(unique); i++) unique = `${name}_${i}`;
    this.declared.push({ name: unique, value });
    return constant(unique, value);
  }
}

/** Whether a label or annotation key is the library's own (`node-services.cdk8s.io/…`, `*.node-services.cdk8s.io/…`). */
function libraryKey(key: string): boolean {
  const prefix = key.split('/')[0];
  return key.includes('/') && (prefix === ANNOTATION_PREFIX || prefix.endsWith(`.${ANNOTATION_PREFIX}`));
}

/**
 * A string map (labels, annotations, a node selector) as an object literal, its keys sorted as cdk8s writes metadata
 * maps: the order says nothing to the API server, and a second import of the output then writes the same code.
 */
function stringMap(value: unknown, skip: readonly string[] = []): Expr | undefined {
  if (!isObject(value)) return undefined;
  // The library writes its own keys itself (and refuses them as extra labels); they are never props.
  const entries = Object.entries(value)
    .filter(([k, v]) => typeof v === 'string' && !skip.includes(k) && !libraryKey(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length > 0 ? obj(entries.map(([k, v]) => ({ key: k, value: lit(v) }))) : undefined;
}

/**
 * One container (or init container) as a `ContainerSpec`; a HostProcess container has no Linux security props (its
 * security is the pod's `windows`).
 */
function containerExpr(container: Record<string, any>, ctx: ContainerContext, hostProcess: boolean): Expr {
  const pull = typeof container.imagePullPolicy === 'string' ? PULL_POLICIES[container.imagePullPolicy] : undefined;
  const props: Array<Property | undefined> = [
    prop('name', lit(container.name)),
    prop('image', lit(container.image)),
    prop('imagePullPolicy', pull !== undefined ? member('ImagePullPolicy', pull) : undefined),
    prop('command', strings(container.command)),
    prop('args', strings(container.args)),
    prop('workingDir', typeof container.workingDir === 'string' ? lit(container.workingDir) : undefined),
    ...envProps(container),
    prop('envFrom', envFromExpr(container)),
    prop('ports', portsExpr(container, ctx)),
    ...mountProps(container, ctx),
    prop('resources', resourcesExpr(container)),
    ...lifecycleProps(container, ctx),
    ...(hostProcess ? [] : securityProps(container, ctx)),
  ];
  return obj(props);
}

/** The keys {@link containerExpr} writes after `resources`, in its order. */
const AFTER_RESOURCES = new Set([
  'readiness',
  'liveness',
  'startup',
  'preStop',
  'privileged',
  'privilegedReason',
  'capabilities',
  'runAsUser',
  'runAsGroup',
  'runAsNonRoot',
  'readOnlyRootFilesystem',
  'seccompProfile',
]);

/**
 * A container expression given the `resources` of `resources` (a container's `resources` field), where
 * {@link containerExpr} writes it; `undefined` when the container already has the prop or the typed prop cannot carry
 * the value.
 */
export function withResources(container: Expr, resources: unknown): Expr | undefined {
  if (container.type !== 'object' || container.properties.some((p) => p.key === 'resources')) return undefined;
  const value = resourcesExpr({ resources });
  if (value === undefined) return undefined;
  const at = container.properties.findIndex((p) => AFTER_RESOURCES.has(p.key));
  const properties = [...container.properties];
  properties.splice(at < 0 ? properties.length : at, 0, { key: 'resources', value });
  return obj(properties);
}

function tolerationExpr(value: unknown, numbers: Constants): Expr | undefined {
  const t = asObject(value);
  const effect = typeof t.effect === 'string' ? TAINT_EFFECTS[t.effect] : undefined;
  const options = obj([
    prop('effect', effect !== undefined ? member('TaintEffect', effect) : undefined),
    prop(
      'tolerationSeconds',
      typeof t.tolerationSeconds === 'number' ? numbers.number('TOLERATION_SECONDS', t.tolerationSeconds) : undefined,
    ),
  ]);
  if (t.operator === 'Exists' && (t.key === undefined || t.key === '') && t.effect === undefined) return call('Toleration', 'all');
  if (typeof t.key !== 'string' || t.key === '') return undefined;
  if (t.operator === 'Exists') return call('Toleration', 'exists', lit(t.key), options);
  return call('Toleration', 'equal', lit(t.key), lit(typeof t.value === 'string' ? t.value : ''), options);
}

function affinityExpr(pod: Record<string, any>): Expr | undefined {
  const terms = asArray(
    asObject(asObject(asObject(pod.affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution).nodeSelectorTerms,
  );
  const out: Expr[] = [];
  for (const term of terms) {
    const requirements: Expr[] = [];
    for (const e of asArray(asObject(term).matchExpressions)) {
      const r = asObject(e);
      const factory = typeof r.operator === 'string' ? REQUIREMENT_FACTORIES[r.operator] : undefined;
      if (factory === undefined || typeof r.key !== 'string') return undefined;
      const values = factory === 'in' || factory === 'notIn' ? [lit(asArray(r.values))] : [];
      requirements.push(call('NodeRequirement', factory, lit(r.key), ...values));
    }
    out.push(obj([prop('requirements', arr(requirements))]));
  }
  return out.length > 0 ? arr(out) : undefined;
}

function rolloutProp(ds: Record<string, any>, file: string): Property | undefined {
  const strategy = asObject(asObject(ds.spec).updateStrategy);
  if (strategy.type === 'OnDelete') {
    return prop(
      'rollout',
      call('Rollout', 'onDelete', lit(`imported from ${file}: spec.updateStrategy.type is OnDelete`)),
      'REVIEW: the input updates pods only when they are deleted; confirm, or use Rollout.maxUnavailable.',
    );
  }
  const ru = asObject(strategy.rollingUpdate);
  const surge = ru.maxSurge;
  const count = (v: unknown, by: string, byPercent: string) => {
    if (typeof v === 'number') return call('Rollout', by, lit(v));
    const m = typeof v === 'string' ? /^(\d+)%$/.exec(v) : null;
    return m ? call('Rollout', byPercent, lit(Number(m[1]))) : undefined;
  };
  if (surge !== undefined && surge !== 0 && surge !== '0%') return prop('rollout', count(surge, 'surge', 'surgePercent'));
  return prop('rollout', count(ru.maxUnavailable, 'maxUnavailable', 'maxUnavailablePercent'));
}

/** Pod-level props: identity and API access, DNS, host namespaces, scheduling, shutdown. */
function podProps(pod: Record<string, any>, ctx: ServiceContext): Array<Property | undefined> {
  const numbers = ctx.numbers;
  const sc = asObject(pod.securityContext);
  const account = typeof pod.serviceAccountName === 'string' ? pod.serviceAccountName : pod.serviceAccount;
  const automount =
    typeof pod.automountServiceAccountToken === 'boolean'
      ? pod.automountServiceAccountToken
      : typeof account === 'string'
        ? true
        : undefined;
  const dns = typeof pod.dnsPolicy === 'string' ? pod.dnsPolicy : pod.hostNetwork === true ? 'Default' : 'ClusterFirst';
  const dnsMember = {
    ClusterFirst: 'CLUSTER_FIRST',
    ClusterFirstWithHostNet: 'CLUSTER_FIRST_WITH_HOST_NET',
    Default: 'DEFAULT',
    None: 'NONE',
  }[dns];
  return [
    ctx.apiAccess !== undefined
      ? prop('apiAccess', ctx.apiAccess.permissions, ctx.apiAccess.comment)
      : prop('serviceAccountName', typeof account === 'string' ? lit(account) : undefined),
    prop('automountServiceAccountToken', automount !== undefined ? lit(automount) : undefined),
    prop('priorityClassName', typeof pod.priorityClassName === 'string' ? lit(pod.priorityClassName) : undefined),
    prop('hostNetwork', pod.hostNetwork === true ? lit(true) : undefined),
    prop('hostPID', pod.hostPID === true ? lit(true) : undefined),
    prop(
      'dnsPolicy',
      dnsMember !== undefined ? member('DnsPolicy', dnsMember) : undefined,
      // Stated whether the input sets Default or leaves it unset (which resolves so on the host network), so that a
      // second import of the output writes the same comment.
      pod.hostNetwork === true && dns === 'Default'
        ? "Default: names resolve as on the node, as in the input (the library's host-network default is ClusterFirstWithHostNet)."
        : undefined,
    ),
    prop('runAsUser', typeof sc.runAsUser === 'number' ? lit(sc.runAsUser) : undefined),
    prop('runAsGroup', typeof sc.runAsGroup === 'number' ? lit(sc.runAsGroup) : undefined),
    prop('fsGroup', typeof sc.fsGroup === 'number' ? lit(sc.fsGroup) : undefined),
    prop(
      'terminationGracePeriodSeconds',
      typeof pod.terminationGracePeriodSeconds === 'number'
        ? numbers.number('TERMINATION_GRACE_PERIOD_SECONDS', pod.terminationGracePeriodSeconds)
        : undefined,
    ),
    prop('runtimeClassName', typeof pod.runtimeClassName === 'string' ? lit(pod.runtimeClassName) : undefined),
    prop(
      'imagePullSecrets',
      Array.isArray(pod.imagePullSecrets) && pod.imagePullSecrets.length > 0
        ? arr(pod.imagePullSecrets.map((s: unknown) => call('ImagePullSecret', 'fromName', lit(asObject(s).name))))
        : undefined,
    ),
  ];
}

/** Where a DaemonSet comes from and how its module refers to kept objects. */
export interface ServiceContext {
  /** The input file. */
  readonly file: string;
  /** The chosen kind. */
  readonly kind: NodeServiceKind;
  /** Variables of the ConfigMaps and Secrets kept in the module, by `Kind/name`. */
  readonly kept: ReadonlyMap<string, string>;
  /** The module's constants. */
  readonly numbers: Constants;
  /** The ServiceAccount's permissions as `apiAccess` (the library then creates and names the ServiceAccount). */
  readonly apiAccess?: { readonly permissions: Expr; readonly comment: string };
}

function kindMember(kind: NodeServiceKind): Expr {
  const entry = Object.entries(NodeServiceKind).find(([, v]) => v === kind);
  return member('NodeServiceKind', entry ? entry[0] : 'GENERIC');
}

/** Metadata props: namespace, recommended-label values, extra labels and annotations. */
function metadataProps(ds: Record<string, any>, pod: Record<string, any>): Array<Property | undefined> {
  const templateMeta = asObject(asObject(asObject(ds.spec).template).metadata);
  const labels = asObject(templateMeta.labels);
  const recommended = Object.entries(RECOMMENDED_LABEL_PROPS).map(([label, key]) =>
    prop(key, typeof labels[label] === 'string' ? lit(labels[label]) : undefined),
  );
  void pod;
  return [
    prop('namespace', typeof ds.metadata?.namespace === 'string' ? lit(ds.metadata.namespace) : undefined),
    ...recommended,
    prop('labels', stringMap(labels, LIBRARY_LABELS)),
    prop('annotations', stringMap(asObject(ds.metadata).annotations)),
    prop('podAnnotations', stringMap(templateMeta.annotations)),
  ];
}

/** The props of the node-service construct for `ds`. */
export function serviceProps(ds: Record<string, any>, ctx: ServiceContext): Expr {
  const spec = asObject(ds.spec);
  const pod = asObject(asObject(spec.template).spec);
  const volumes = new Map<string, Record<string, any>>();
  for (const v of asArray(pod.volumes)) if (isObject(v) && typeof v.name === 'string') volumes.set(v.name, v);
  const containerCtx = (list: string, c: Record<string, any>): ContainerContext => ({
    file: ctx.file,
    path: `spec.template.spec.${list}[${String(c.name)}]`,
    volumes,
    kept: ctx.kept,
    number: (name, value) => ctx.numbers.number(name, value),
  });
  const windows = windowsPodOf(pod);
  const containers = (list: string) =>
    asArray(pod[list])
      .filter(isObject)
      .map((c) => containerExpr(c, containerCtx(list, c), windows?.hostProcess === true));
  const tolerations = asArray(pod.tolerations).map((t) => tolerationExpr(t, ctx.numbers));
  const init = containers('initContainers');
  return obj([
    prop('name', lit(asObject(ds.metadata).name)),
    prop('kind', kindMember(ctx.kind)),
    windowsProp(windows, ctx.file),
    ...metadataProps(ds, pod),
    prop(
      'nodeSelector',
      stringMap(pod.nodeSelector) ?? obj([]),
      pod.nodeSelector === undefined ? 'The input selects no node labels.' : undefined,
    ),
    prop('nodeAffinity', affinityExpr(pod)),
    prop('tolerations', tolerations.length > 0 && tolerations.every((t) => t !== undefined) ? arr(tolerations as Expr[]) : undefined),
    rolloutProp(ds, ctx.file),
    prop('minReadySeconds', typeof spec.minReadySeconds === 'number' ? lit(spec.minReadySeconds) : undefined),
    prop('revisionHistoryLimit', typeof spec.revisionHistoryLimit === 'number' ? lit(spec.revisionHistoryLimit) : undefined),
    ...podProps(pod, ctx),
    prop('containers', arr(containers('containers'))),
    prop('initContainers', init.length > 0 ? arr(init) : undefined),
  ]);
}
