/**
 * The resolved intent of a node service: its props (already shape-checked) with every default applied and every
 * derived value computed, as plain data. Pure: no construct is created here; every problem lands in the collector.
 * @internal
 */

import { Chart } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import type { IConstruct } from 'constructs';
import {
  cidrError,
  dns1035LabelError,
  dns1123LabelError,
  dns1123SubdomainError,
  intOrPercentError,
  isZeroIntOrPercent,
  int32Error,
  labelValueError,
  portNumberError,
  qualifiedNameError,
  quantityError,
  reasonError,
  secretNameError,
} from '../k8s';
import { findRule, unknownRuleMessage } from '../policy/config';
import { KIND_ANNOTATION, kindProfile, NEVER_SURGE, NodeServiceKind } from '../policy/kinds';
import { suppressionAnnotationKey } from '../policy/suppression';
import { ApiPermission } from './api-access';
import { Canary } from './canary';
import { ConfigHash, CONFIG_HASH_ANNOTATION } from './config-hash';
import { ContainerSpec } from './container';
import { ProblemCollector } from './errors';
import { recommendedLabels, selectorLabels, SERVICE_LABEL, TRACK_LABEL, trackLabels } from './labels';
import { checkPoolBudget } from './node-budget';
import { NodePool } from './node-pool';
import type { DnsPolicy, NodeServiceProps } from './node-service';
import { RuleSuppression } from './options';
import { NetworkPeer } from './network-policy';
import type { PriorityClassOptions } from './priority-class';
import { NodeAffinityTerm, NodeRequirement, TaintEffect, Toleration } from './placement';
import { buildPodTemplate, checkAnnotations, checkLabels, imageVersion, PodIntent } from './pod';
import { IntOrPercent, Rollout } from './rollout';

/** The namespace node services go to when neither the props nor the chart name one. */
export const DEFAULT_NAMESPACE = 'node-services';

/** Label keys the service sets itself; user labels may not override them. */
const OWN_LABEL_PREFIX = 'app.kubernetes.io/';

/** Everything a node service renders, resolved from its props. @internal */
export interface ServiceIntent {
  readonly name: string;
  readonly namespace: string;
  readonly kind: NodeServiceKind;
  readonly instance: string;
  readonly selector: { [key: string]: string };
  readonly labels: { [key: string]: string };
  readonly annotations: { [key: string]: string };
  readonly updateStrategy: k8s.DaemonSetUpdateStrategy;
  readonly minReadySeconds: number;
  readonly revisionHistoryLimit: number;
  readonly apiAccess: ApiPermission[];
  readonly automount: boolean;
  readonly serviceAccountName?: string;
  /** Whether the service creates its ServiceAccount (for `apiAccess`, unless one is brought with `serviceAccount`). */
  readonly createServiceAccount: boolean;
  readonly pools: NodePool[];
  readonly excludePools: NodePool[];
  readonly pod: PodIntent;
  readonly canary?: CanaryIntent;
  readonly localService?: LocalServiceIntent;
  readonly networkPolicy?: k8s.NetworkPolicySpec;
  readonly priorityClass?: PriorityClassOptions;
}

/** The node-local Service of a service. @internal */
export interface LocalServiceIntent {
  readonly name: string;
  readonly ports: k8s.ServicePort[];
}

/** The canary half of a service. @internal */
export interface CanaryIntent {
  readonly canary: Canary;
  readonly selector: { [key: string]: string };
  readonly labels: { [key: string]: string };
  readonly pod: PodIntent;
  /** Whether the canary pods differ from the stable ones in anything but the canary label. */
  readonly changesSomething: boolean;
}

/** Resolves names, namespace and labels. */
function resolveMetadata(props: NodeServiceProps, kind: NodeServiceKind, chartNamespace: string | undefined, problems: ProblemCollector) {
  problems.check('name', props.name, dns1123LabelError(props.name), 'use a short lower-case name such as "fluent-bit"');
  const namespace = props.namespace ?? chartNamespace ?? DEFAULT_NAMESPACE;
  problems.check('namespace', namespace, dns1123LabelError(namespace), 'use a DNS-1123 label such as "node-services"');
  if (namespace === 'default') {
    problems.add(
      'namespace',
      namespace,
      'node services must not run in the default namespace',
      `use a platform namespace such as "${DEFAULT_NAMESPACE}" (see NodeServicesNamespace)`,
    );
  }
  const instance = props.instance ?? props.name;
  const version = props.version ?? imageVersion(props.containers[0]?.image);
  const component = props.component ?? kind;
  const partOf = props.partOf ?? 'node-services';
  for (const [field, value] of [
    ['instance', props.instance],
    ['version', props.version],
    ['component', props.component],
    ['partOf', props.partOf],
  ] as const) {
    if (value !== undefined)
      problems.check(field, value, labelValueError(value), 'use a valid label value (at most 63 characters of [A-Za-z0-9-_.])');
  }
  checkLabels('labels', props.labels, problems);
  for (const key of Object.keys(props.labels ?? {})) {
    if (key.startsWith(OWN_LABEL_PREFIX)) {
      problems.add(
        `labels["${key}"]`,
        props.labels![key],
        `is set by the service itself (${OWN_LABEL_PREFIX}* labels come from name, instance, version, component and partOf)`,
        'use the matching prop, or a label key of your own',
      );
    }
  }
  for (const key of [SERVICE_LABEL, TRACK_LABEL]) {
    if (props.labels?.[key] !== undefined)
      problems.add(
        `labels["${key}"]`,
        props.labels[key],
        'is set by the service itself (it groups the DaemonSets of the service)',
        'use a label key of your own',
      );
  }
  checkAnnotations('annotations', props.annotations, problems);
  checkAnnotations('podAnnotations', props.podAnnotations, problems);
  const labels = { ...(props.labels ?? {}), ...recommendedLabels({ name: props.name, instance, version, component, partOf }) };
  return { namespace, instance, component, partOf, labels, selector: selectorLabels(props.name, instance) };
}

/** Resolves the update strategy. */
function resolveRollout(rollout: Rollout, problems: ProblemCollector): k8s.DaemonSetUpdateStrategy {
  if (rollout.type === 'OnDelete') {
    problems.check(
      'rollout',
      rollout.reason,
      reasonError(rollout.reason),
      'say who replaces the pods and when, e.g. Rollout.onDelete("drained and replaced during node maintenance")',
    );
    return { type: 'OnDelete' };
  }
  const mu = checkAmount('rollout.maxUnavailable', 'maxUnavailable', rollout.maxUnavailableAmount, problems);
  const ms = checkAmount('rollout.maxSurge', 'surge', rollout.maxSurgeAmount, problems);
  if (mu === undefined || ms === undefined) return { type: 'RollingUpdate' };
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
  return { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: iv(mu), maxSurge: iv(ms) } };
}

/**
 * Checks one int-or-percent amount of a rolling update against the factory that made it (`Rollout.maxUnavailable`
 * takes a count, `Rollout.maxUnavailablePercent` a percentage) and the DaemonSet grammar; returns its manifest value,
 * or undefined when it is wrong (the problem is recorded).
 */
function checkAmount(
  field: string,
  factory: 'maxUnavailable' | 'surge',
  amount: IntOrPercent | undefined,
  problems: ProblemCollector,
): number | string | undefined {
  if (amount === undefined) return 0;
  const percentFactory = factory === 'surge' ? 'Rollout.surgePercent' : 'Rollout.maxUnavailablePercent';
  const countFactory = `Rollout.${factory}`;
  if (typeof amount.value !== 'number') {
    problems.add(
      field,
      amount.value,
      amount.isPercent ? 'must be a number (the percentage without %)' : 'must be a number (a count of pods)',
      amount.isPercent
        ? `use ${percentFactory}(10) for 10%`
        : `use ${countFactory}(1) for a count, or ${percentFactory}(10) for a percentage`,
    );
    return undefined;
  }
  const value = amount._toKubernetes() as number | string;
  const error = intOrPercentError(value);
  if (error === undefined) return value;
  const message = !amount.isPercent
    ? 'must be a non-negative integer'
    : amount.value > 100
      ? error
      : 'must be a whole percentage from 0 to 100';
  problems.add(field, amount.value, message, amount.isPercent ? `use ${percentFactory}(10) for 10%` : `use ${countFactory}(1)`);
  return undefined;
}

/** Resolves API access and the ServiceAccount; a derived ServiceAccount name is never reported as if set. */
function resolveIdentity(props: NodeServiceProps, namespace: string, problems: ProblemCollector) {
  const apiAccess = props.apiAccess ?? [];
  apiAccess.forEach((p, i) => {
    const problem = p.problem();
    if (problem)
      problems.add(
        `apiAccess[${i}]`,
        p.toJson(),
        `${problem} (node services get least-privilege access)`,
        'name exact resources (lower-case plurals such as "pods") and verbs, and never Secrets',
      );
  });
  if (props.serviceAccountName !== undefined) {
    problems.check(
      'serviceAccountName',
      props.serviceAccountName,
      dns1123SubdomainError(props.serviceAccountName),
      'use a ServiceAccount name (lower-case, e.g. "fluent-bit")',
    );
    if (apiAccess.length > 0)
      problems.add(
        'serviceAccountName',
        props.serviceAccountName,
        'cannot be combined with apiAccess (which creates its own ServiceAccount)',
        'use serviceAccount (a cdk8s-plus ServiceAccount) to bind the access to a ServiceAccount of your own, or drop one of the two',
      );
  }
  const brought = props.serviceAccount === undefined ? undefined : broughtServiceAccount(props, namespace, problems);
  return {
    apiAccess,
    serviceAccountName: brought ?? (apiAccess.length > 0 ? props.name : props.serviceAccountName),
    createServiceAccount: apiAccess.length > 0 && props.serviceAccount === undefined,
    automount: props.automountServiceAccountToken ?? apiAccess.length > 0,
  };
}

/** The name of a ServiceAccount given as `serviceAccount`, checked: its grammar, its namespace, not with `serviceAccountName`. */
function broughtServiceAccount(props: NodeServiceProps, namespace: string, problems: ProblemCollector): string | undefined {
  const sa = props.serviceAccount!;
  const fix = 'pass a cdk8s-plus ServiceAccount (new kplus.ServiceAccount(...) or kplus.ServiceAccount.fromServiceAccountName(...))';
  if (typeof (sa as any).toSubjectConfiguration !== 'function') {
    problems.add('serviceAccount', sa, 'must be a cdk8s-plus IServiceAccount (it has no toSubjectConfiguration())', fix);
    return undefined;
  }
  let subject: { name?: unknown; namespace?: unknown };
  try {
    subject = sa.toSubjectConfiguration() ?? {};
  } catch (e) {
    problems.add('serviceAccount', sa.name, `cannot be read (${e instanceof Error ? e.message : String(e)})`, fix);
    return undefined;
  }
  problems.check(
    'serviceAccount.name',
    sa.name,
    dns1123SubdomainError(sa.name),
    'use a ServiceAccount name (lower-case, e.g. "fluent-bit")',
  );
  // A ServiceAccount the app defines without a namespace of its own is written to its chart's namespace.
  const saNamespace = subject.namespace ?? chartNamespaceOf(sa);
  if (saNamespace === undefined) {
    problems.add(
      'serviceAccount',
      sa.name,
      `has no namespace (it would be created wherever it is applied), but the service runs in "${namespace}"`,
      `give the ServiceAccount metadata: { namespace: "${namespace}" }, or define it in a chart with that namespace`,
    );
  } else if (saNamespace !== namespace) {
    problems.add(
      'serviceAccount',
      `${String(saNamespace)}/${sa.name}`,
      `is in namespace "${String(saNamespace)}", but the service runs in "${namespace}" (pods can only run as a ServiceAccount of their own namespace)`,
      `use a ServiceAccount of namespace "${namespace}" (ServiceAccount.fromServiceAccountName(scope, id, name, { namespaceName: "${namespace}" }))`,
    );
  }
  if (props.serviceAccountName !== undefined) {
    problems.add('serviceAccountName', props.serviceAccountName, 'cannot be combined with serviceAccount', 'give one of the two');
  }
  return sa.name;
}

/** The namespace of the chart that holds `scope`, if it is in one and the chart names one. */
function chartNamespaceOf(scope: IConstruct): string | undefined {
  try {
    return Chart.of(scope).namespace;
  } catch {
    return undefined;
  }
}

/** Resolves tolerations and affinity from the placement options and the pools. */
function resolvePlacement(props: NodeServiceProps, problems: ProblemCollector) {
  const pools = [...(props.pools ?? [])];
  const excludePools = [...(props.excludePools ?? [])];
  checkPools('pools', pools, problems);
  checkPools('excludePools', excludePools, problems);
  const given = props.tolerations ?? [];
  const tolerations = [...given, ...poolTolerations(pools).filter((t) => !given.some((g) => covers(g, t)))];
  if (props.controlPlane) tolerations.push(Toleration.controlPlane());
  const baseTerms = props.nodeAffinity ?? poolAffinity(pools);
  const affinityTerms = (props.nodeRequirements ?? []).reduce((terms, r) => withRequirement(terms, r), baseTerms);
  return { pools, excludePools, tolerations, affinityTerms };
}

/** Reasons given in code become suppressions recorded on the object; every suppression is checked. */
function resolveAnnotations(
  props: NodeServiceProps,
  kind: NodeServiceKind,
  rollout: Rollout,
  problems: ProblemCollector,
): { [key: string]: string } {
  const all = [...props.containers, ...(props.initContainers ?? [])];
  const suppressions: RuleSuppression[] = [...(props.suppressions ?? [])];
  const derived = (ruleId: string, reasons: string[]): void => {
    if (reasons.length > 0) suppressions.push({ ruleId, reason: [...new Set(reasons)].join('; ') });
  };
  derived(
    'host-path-writable',
    all
      .flatMap((c) => c.hostPaths ?? [])
      .filter((h) => h.isWritable && h.reason)
      .map((h) => `${h.path}: ${h.reason}`),
  );
  derived(
    'privileged-container',
    all.filter((c) => c.privileged && c.privilegedReason).map((c) => `${c.name}: ${c.privilegedReason}`),
  );
  derived(
    'seccomp-unconfined',
    all
      .filter((c) => c.seccompProfile?.type === 'Unconfined' && c.seccompProfile.reason)
      .map((c) => `${c.name}: ${c.seccompProfile!.reason}`),
  );
  if (rollout.type === 'OnDelete' && rollout.reason) suppressions.push({ ruleId: 'on-delete-without-reason', reason: rollout.reason });
  const annotations: { [key: string]: string } = { ...(props.annotations ?? {}), [KIND_ANNOTATION]: kind };
  suppressions.forEach((s, i) => {
    const rule = findRule(s.ruleId);
    if (!rule)
      problems.add(`suppressions[${i}].ruleId`, s.ruleId, unknownRuleMessage(String(s.ruleId)), 'use a rule id from docs/rules.md');
    else if (!rule.suppressible)
      problems.add(
        `suppressions[${i}].ruleId`,
        s.ruleId,
        'is an API-validity rule (the API server would reject the object), which cannot be suppressed',
        'fix the manifest instead',
      );
    problems.check(`suppressions[${i}].reason`, s.reason, reasonError(s.reason), 'say why the finding is acceptable for this service');
    const key = suppressionAnnotationKey(s.ruleId);
    annotations[key] = annotations[key] ? `${annotations[key]}; ${s.reason}` : s.reason;
  });
  return annotations;
}

/**
 * Resolves the canary half: its pods differ only in what the canary changes, and its problems are reported once, for
 * what it changes (`canary.image`, `canary.args`, `canary.env[...]`), never repeating the stable pods' problems.
 */
function resolveCanary(
  props: NodeServiceProps,
  base: PodIntent,
  meta: ReturnType<typeof resolveMetadata>,
  problems: ProblemCollector,
): CanaryIntent | undefined {
  const canary = props.canary;
  if (!canary) return undefined;
  const o = canary.options;
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
  const all = [...props.containers, ...(props.initContainers ?? [])];
  for (const name of Object.keys(o.images ?? {})) {
    if (!all.some((c) => c.name === name))
      problems.add(`canary.images["${name}"]`, name, 'names no container of the service', 'use the name of one of the containers');
  }
  if (o.version !== undefined) problems.check('canary.version', o.version, labelValueError(o.version), 'use a valid label value');
  const main = props.containers[0]?.name;
  const renames: Array<[string, string]> = [];
  const swap = (c: ContainerSpec, field: string): ContainerSpec => {
    const isMain = c.name === main;
    const image = o.images?.[c.name] ?? (isMain && o.image ? o.image : c.image);
    if (image !== c.image)
      renames.push([`${field}.image`, o.images?.[c.name] !== undefined ? `canary.images["${c.name}"]` : 'canary.image']);
    if (isMain && o.args) renames.push([`${field}.args`, 'canary.args']);
    if (isMain && o.env) for (const k of Object.keys(o.env)) renames.push([`${field}.env["${k}"]`, `canary.env["${k}"]`]);
    let mounts = c.mounts;
    if (isMain && o.mounts) {
      const replaced = new Set(o.mounts.map((m) => m.mountPath));
      const kept = (c.mounts ?? []).filter((m) => !replaced.has(m.mountPath));
      mounts = [...kept, ...o.mounts];
      o.mounts.forEach((_, i) => renames.push([`${field}.mounts[${kept.length + i}]`, `canary.mounts[${i}]`]));
    }
    return {
      ...c,
      image,
      ...(isMain && o.args ? { args: o.args } : {}),
      ...(isMain && o.env ? { env: { ...(c.env ?? {}), ...o.env } } : {}),
      ...(mounts !== c.mounts ? { mounts } : {}),
    };
  };
  const instance = `${meta.instance}-canary`;
  const canaryImage = o.image ?? props.containers[0]?.image;
  const labels = {
    ...(props.labels ?? {}),
    ...recommendedLabels({
      name: props.name,
      instance,
      version: o.version ?? imageVersion(canaryImage),
      component: meta.component,
      partOf: meta.partOf,
    }),
    ...trackLabels(meta.instance, 'canary'),
  };
  const pod: PodIntent = {
    ...base,
    labels,
    containers: props.containers.map((c, i) => swap(c, `containers[${i}]`)),
    initContainers: (props.initContainers ?? []).map((c, i) => swap(c, `initContainers[${i}]`)),
    affinityTerms: withRequirement(base.affinityTerms, NodeRequirement.in(canary.key, [canary.value])),
  };
  const own = new ProblemCollector();
  renames.forEach(([from, to]) => own.rename(from, to));
  buildPodTemplate(pod, own);
  own.forEach((p) => {
    if (p.field.startsWith('canary')) problems.addRendered(p);
  });
  const changesSomething = renames.length > 0 || o.version !== undefined || o.mounts !== undefined;
  return { canary, selector: selectorLabels(props.name, instance), labels, pod, changesSomething };
}

/** Resolves the whole intent of a node service from shape-checked props. @internal */
export function resolveIntent(props: NodeServiceProps, chartNamespace: string | undefined, problems: ProblemCollector): ServiceIntent {
  const kind = props.kind ?? NodeServiceKind.GENERIC;
  const meta = resolveMetadata(props, kind, chartNamespace, problems);
  const rollout = props.rollout ?? Rollout.maxUnavailable(1);
  const updateStrategy = resolveRollout(rollout, problems);
  if (
    NEVER_SURGE[kind] &&
    rollout.type === 'RollingUpdate' &&
    !isZeroIntOrPercent(rollout.maxSurgeAmount?._toKubernetes() as number | string | undefined)
  ) {
    problems.add(
      'rollout',
      { maxSurge: rollout.maxSurgeAmount?._toKubernetes() },
      NEVER_SURGE[kind],
      'use Rollout.maxUnavailable(1), or Rollout.onDelete(reason) if you roll nodes yourself',
    );
  }
  const minReadySeconds = props.minReadySeconds ?? 0;
  const revisionHistoryLimit = props.revisionHistoryLimit ?? 10;
  problems.check('minReadySeconds', minReadySeconds, int32Error(minReadySeconds), 'use whole seconds from 0 to 2147483647');
  problems.check('revisionHistoryLimit', revisionHistoryLimit, int32Error(revisionHistoryLimit), 'use a count from 0 to 2147483647');
  const identity = resolveIdentity(props, meta.namespace, problems);
  const placement = resolvePlacement(props, problems);
  const hostNetwork = props.hostNetwork ?? false;
  const canary = props.canary;
  const pod: PodIntent = {
    kind,
    profile: kindProfile(kind),
    labels: { ...meta.labels, ...trackLabels(meta.instance, 'stable') },
    annotations: { ...(props.podAnnotations ?? {}) },
    containers: props.containers,
    initContainers: props.initContainers ?? [],
    hostNetwork,
    hostPID: props.hostPID ?? false,
    dnsPolicy: props.dnsPolicy ?? ((hostNetwork ? 'ClusterFirstWithHostNet' : 'ClusterFirst') as DnsPolicy),
    nodeSelector: props.nodeSelector ?? { 'kubernetes.io/os': 'linux' },
    affinityTerms: canary
      ? withRequirement(placement.affinityTerms, NodeRequirement.notIn(canary.key, [canary.value]))
      : placement.affinityTerms,
    tolerations: placement.tolerations,
    priorityClassName: props.priorityClass?.options.name ?? props.priorityClassName,
    serviceAccountName: identity.serviceAccountName,
    automountServiceAccountToken: identity.automount,
    terminationGracePeriodSeconds: props.terminationGracePeriodSeconds ?? 30,
    runAsUser: props.runAsUser,
    runAsGroup: props.runAsGroup,
    fsGroup: props.fsGroup,
    configHash: resolveConfigHash(props, problems),
    imagePullSecrets: resolveImagePullSecrets(props, problems),
    runtimeClassName: props.runtimeClassName,
    hostAliases: props.hostAliases ?? [],
    dnsConfig: props.dnsConfig,
  };
  const annotations = resolveAnnotations(props, kind, rollout, problems);
  return {
    name: props.name,
    namespace: meta.namespace,
    kind,
    instance: meta.instance,
    selector: meta.selector,
    labels: meta.labels,
    annotations,
    updateStrategy,
    minReadySeconds,
    revisionHistoryLimit,
    ...identity,
    pools: placement.pools,
    excludePools: placement.excludePools,
    pod,
    canary: resolveCanary(props, { ...pod, affinityTerms: placement.affinityTerms }, meta, problems),
    localService: resolveLocalService(props, problems),
    networkPolicy: resolveNetworkPolicy(props, problems),
    priorityClass: resolvePriorityClass(props, problems),
  };
}

/** The highest value of a PriorityClass that is not a system class. */
const MAX_USER_PRIORITY = 1_000_000_000;

/** Resolves `priorityClass`: a name that is not reserved, a value below the system classes', not with `priorityClassName`. */
function resolvePriorityClass(props: NodeServiceProps, problems: ProblemCollector): PriorityClassOptions | undefined {
  const o = props.priorityClass?.options;
  if (!o) return undefined;
  problems.check('priorityClass.name', o.name, dns1123SubdomainError(o.name), 'use a lower-case name such as "node-agents-high"');
  if (typeof o.name === 'string' && o.name.startsWith('system-'))
    problems.add(
      'priorityClass.name',
      o.name,
      "the 'system-' prefix is reserved for the built-in classes",
      'use priorityClassName for a system class, or another name',
    );
  if (typeof o.value === 'number' && (o.value > MAX_USER_PRIORITY || int32Error(o.value)))
    problems.add(
      'priorityClass.value',
      o.value,
      `must be a whole number of at most ${MAX_USER_PRIORITY} (higher values are reserved for system classes)`,
      'use e.g. 1000000',
    );
  if (props.priorityClassName !== undefined)
    problems.add(
      'priorityClassName',
      props.priorityClassName,
      'cannot be combined with priorityClass (which names the class it creates)',
      'use one or the other',
    );
  return o;
}

/** Resolves `imagePullSecrets` to Secret names (each once). */
function resolveImagePullSecrets(props: NodeServiceProps, problems: ProblemCollector): string[] {
  const names: string[] = [];
  (props.imagePullSecrets ?? []).forEach((s, i) => {
    problems.check(
      `imagePullSecrets[${i}]`,
      s.name,
      secretNameError(s.name),
      'use the name of a Secret of type kubernetes.io/dockerconfigjson',
    );
    if (names.includes(s.name)) problems.add(`imagePullSecrets[${i}]`, s.name, 'is listed twice', 'list each Secret once');
    else names.push(s.name);
  });
  return names;
}

/** Resolves `configHash`; the annotation it sets cannot also be given in `podAnnotations`. */
function resolveConfigHash(props: NodeServiceProps, problems: ProblemCollector): ConfigHash {
  const hash = props.configHash ?? ConfigHash.auto();
  if (hash.mode === 'Value' && (hash.value === undefined || hash.value === ''))
    problems.add(
      'configHash',
      hash.value,
      'ConfigHash.of needs a non-empty value',
      'pass the version or checksum of the external configuration',
    );
  if (props.podAnnotations?.[CONFIG_HASH_ANNOTATION] !== undefined && hash.mode !== 'Disabled')
    problems.add(
      `podAnnotations["${CONFIG_HASH_ANNOTATION}"]`,
      props.podAnnotations[CONFIG_HASH_ANNOTATION],
      'is set by configHash',
      'use configHash: ConfigHash.of(value), or drop the annotation',
    );
  return hash;
}

/** The NetworkPolicy form of a peer, checked: label maps, namespace names, CIDRs. */
function resolvePeer(peer: NetworkPeer, field: string, problems: ProblemCollector): k8s.NetworkPolicyPeer {
  const p = peer._peer ?? {};
  for (const part of ['namespaceSelector', 'podSelector'] as const) {
    if (p[part]) checkLabels(`${field}.${part}`, p[part].matchLabels, problems);
  }
  if (p.ipBlock) {
    problems.check(`${field}.cidr`, p.ipBlock.cidr, cidrError(p.ipBlock.cidr), 'use a CIDR such as "10.0.0.0/8"');
    (p.ipBlock.except ?? []).forEach((e: unknown, i: number) =>
      problems.check(`${field}.except[${i}]`, e, cidrError(e), 'use a CIDR inside the block, such as "10.1.0.0/16"'),
    );
  }
  return p as k8s.NetworkPolicyPeer;
}

/** Resolves `networkPolicy`: ingress rules name declared ports (by number and protocol), peers are checked. */
function resolveNetworkPolicy(props: NodeServiceProps, problems: ProblemCollector): k8s.NetworkPolicySpec | undefined {
  const o = props.networkPolicy;
  if (!o) return undefined;
  const declared = declaredPorts(props);
  const ingress: k8s.NetworkPolicyIngressRule[] = (o.ingress ?? []).map((rule, i) => {
    const f = `networkPolicy.ingress[${i}]`;
    if (rule.ports.length === 0) problems.add(`${f}.ports`, rule.ports, 'names no port', 'name the container ports the sources may reach');
    if (rule.from.length === 0)
      problems.add(
        `${f}.from`,
        rule.from,
        'names no source (an empty list would admit every source)',
        'name the sources, e.g. NetworkPeer.namespace("monitoring")',
      );
    const ports = rule.ports.flatMap((name, j) => {
      const port = declared.get(name);
      if (!port) {
        problems.add(
          `${f}.ports[${j}]`,
          name,
          'names no port of the containers',
          `use one of ${[...declared.keys()].map((n) => `"${n}"`).join(', ') || 'the declared port names'}`,
        );
        return [];
      }
      return [{ port: k8s.IntOrString.fromNumber(port.port), protocol: port.protocol ?? 'TCP' }];
    });
    return { ports, from: rule.from.map((peer, j) => resolvePeer(peer, `${f}.from[${j}]`, problems)) };
  });
  const egress = o.egress?.map((rule, i) => {
    const f = `networkPolicy.egress[${i}]`;
    if (rule.to.length === 0)
      problems.add(
        `${f}.to`,
        rule.to,
        'names no destination (an empty list would admit every destination)',
        'name the destinations, or drop the rule',
      );
    (rule.ports ?? []).forEach((p, j) =>
      problems.check(`${f}.ports[${j}].port`, p.port, portNumberError(p.port), 'use a port number from 1 to 65535'),
    );
    return {
      to: rule.to.map((peer, j) => resolvePeer(peer, `${f}.to[${j}]`, problems)),
      ...(rule.ports
        ? { ports: rule.ports.map((p) => ({ port: k8s.IntOrString.fromNumber(p.port), protocol: p.protocol ?? 'TCP' })) }
        : {}),
    };
  });
  return {
    podSelector: {},
    policyTypes: egress ? ['Ingress', 'Egress'] : ['Ingress'],
    ingress,
    ...(egress ? { egress } : {}),
  };
}

/** The named container ports of the long-running containers, first declaration of each name. */
function declaredPorts(props: NodeServiceProps): Map<string, k8s.ServicePort> {
  const declared = new Map<string, k8s.ServicePort>();
  for (const c of props.containers) {
    for (const p of c.ports ?? []) {
      if (typeof p?.name === 'string' && !declared.has(p.name)) {
        const protocol = p.protocol && p.protocol !== 'TCP' ? { protocol: p.protocol } : {};
        declared.set(p.name, { name: p.name, port: p.containerPort, targetPort: k8s.IntOrString.fromString(p.name), ...protocol });
      }
    }
  }
  return declared;
}

/** Resolves `localService`: its name and the named ports of the long-running containers it exposes. */
function resolveLocalService(props: NodeServiceProps, problems: ProblemCollector): LocalServiceIntent | undefined {
  const o = props.localService;
  if (!o) return undefined;
  const name = o.name ?? props.name;
  if (o.name !== undefined)
    problems.check('localService.name', o.name, dns1035LabelError(o.name), 'use a Service name such as "fluent-bit-local"');
  const declared = declaredPorts(props);
  const wanted = o.portNames ?? [...declared.keys()];
  if (wanted.length === 0)
    problems.add(
      o.portNames ? 'localService.portNames' : 'localService',
      o.portNames ?? {},
      'exposes no port (the containers declare none)',
      'declare a named container port, or drop localService',
    );
  const ports: k8s.ServicePort[] = [];
  wanted.forEach((portName, i) => {
    const port = declared.get(portName);
    if (!port) {
      problems.add(
        `localService.portNames[${i}]`,
        portName,
        'names no port of the containers',
        `use one of ${[...declared.keys()].map((n) => `"${n}"`).join(', ') || 'the declared port names'}`,
      );
    } else if (!ports.includes(port)) {
      ports.push(port);
    }
  });
  return { name, ports };
}

function checkPools(field: string, pools: NodePool[], problems: ProblemCollector): void {
  pools.forEach((pool, i) => {
    checkLabels(`${field}[${i}].labels`, pool.labels, problems);
    for (const [name, value] of Object.entries(pool.allocatable ?? {})) {
      problems.check(`${field}[${i}].allocatable["${name}"]`, value, quantityError(value), "use a quantity such as '16Gi' or '8'");
    }
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
  if ((a.key === undefined || a.key === '') && a.operator === 'Exists') return true;
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
  return terms.map((t) => ({ requirements: [...t.requirements, requirement] }));
}
