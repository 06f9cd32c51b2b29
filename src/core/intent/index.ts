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
  windowsUserNameError,
  ownValue,
} from '../../k8s';
import { findRule, unknownRuleMessage } from '../../policy/config';
import { KIND_ANNOTATION, kindProfile, NEVER_SURGE, NodeServiceKind } from '../../policy/kinds';
import { suppressionAnnotationKey } from '../../policy/suppression';
import { ApiPermission } from '../api-access';
import { Canary } from '../canary';
import { PoolVariantOptions, Variant, VariantOptions, VariantType, WindowsVariantOptions } from '../variant';
import { ConfigHash, CONFIG_HASH_ANNOTATION } from '../config-hash';
import { ContainerSpec, Probe } from '../container';
import { ProblemCollector } from '../errors';
import { CANARY_LABEL_ANNOTATION, CANARY_OF_ANNOTATION, VARIANT_OF_ANNOTATION } from '../../k8s/vocabulary';
import { recommendedLabels, selectorLabels, SERVICE_LABEL, TRACK_LABEL, trackLabels, VARIANT_LABEL } from '../labels';
import { checkPoolBudget } from '../node-budget';
import { NodePool } from '../node-pool';
import type { DnsPolicy, NodeServiceProps } from '../props';
import { RuleSuppression } from '../props';
import { NetworkPeer } from '../network-policy';
import type { PriorityClassOptions } from '../priority-class';
import { NodeAffinityTerm, NodeRequirement, TaintEffect, Toleration } from '../placement';
import { Wire, WirePodTemplateSpec } from '../wire';
import { buildPodTemplate, checkAnnotations, checkLabels, imageVersion, PodIntent } from '../render/pod';
import { IntOrPercent, Rollout } from '../rollout';

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
  readonly updateStrategy: Wire<k8s.DaemonSetUpdateStrategy>;
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
  /** The canary split of the default DaemonSet, if any. */
  readonly canary?: Canary;
  /** Every DaemonSet besides the default one: the canary, the variants and their canaries. */
  readonly tracks: TrackIntent[];
  readonly localService?: LocalServiceIntent;
  readonly networkPolicy?: k8s.NetworkPolicySpec;
  readonly priorityClass?: PriorityClassOptions;
}

/** The node-local Service of a service. @internal */
export interface LocalServiceIntent {
  readonly name: string;
  readonly ports: k8s.ServicePort[];
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
      `use a platform namespace such as "${DEFAULT_NAMESPACE}" (see NodeServiceNamespace)`,
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
  for (const key of [SERVICE_LABEL, TRACK_LABEL, VARIANT_LABEL]) {
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
function resolveRollout(rollout: Rollout, problems: ProblemCollector): Wire<k8s.DaemonSetUpdateStrategy> {
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
  return { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: mu, maxSurge: ms } };
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
  const affinityTerms = (props.nodeRequirements ?? []).reduce((terms, r) => andIntoEvery(terms, r), baseTerms);
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

/** One DaemonSet of a service besides the default one: the canary, a variant, or a variant's canary. @internal */
export interface TrackIntent {
  /** The construct id of its DaemonSet. */
  readonly id: string;
  readonly daemonSetName: string;
  /** The field the user wrote it under (`canary`, `variants[1]`, `variants[1].canary`). */
  readonly field: string;
  /** The variant it belongs to, if any. */
  readonly variant?: string;
  /** The canary split it is the canary half of, if it is a canary. */
  readonly canary?: Canary;
  readonly selector: { [key: string]: string };
  readonly labels: { [key: string]: string };
  readonly annotations: { [key: string]: string };
  readonly pod: PodIntent;
  /** Labels a pool's node needs besides the pool's own to run this DaemonSet (canary and node-label values). */
  readonly nodeLabels: { [key: string]: string };
  /** The pool a pool variant is for. */
  readonly pool?: string;
  /** Whether its pods differ from the ones it derives from in anything but the labels that select its nodes. */
  readonly changesSomething: boolean;
  /** Its pod template, rendered (problems of what the track changes are reported with the intent). */
  readonly template: WirePodTemplateSpec;
}

/** What a canary or variant changes. */
type TrackOverrides = VariantOptions & Partial<WindowsVariantOptions>;

/** A variant's match, checked. */
interface VariantMatch {
  readonly variant: Variant;
  readonly field: string;
  readonly match: NodeRequirement;
  readonly windows: boolean;
  readonly nodeLabels: { [key: string]: string };
  readonly pool?: string;
}

/** Whether `field` is `prefix` or lies under it. */
function under(field: string, prefix: string): boolean {
  return field === prefix || field.startsWith(`${prefix}.`) || field.startsWith(`${prefix}[`);
}

/** The containers with `o` laid over them (images by name, the main container's args, env, mounts and resources). */
function overridden(
  containers: ContainerSpec[],
  initContainers: ContainerSpec[],
  field: string,
  o: TrackOverrides,
): { containers: ContainerSpec[]; initContainers: ContainerSpec[]; renames: Array<[string, string]> } {
  const main = containers[0]?.name;
  const renames: Array<[string, string]> = [];
  const swap = (c: ContainerSpec, cf: string): ContainerSpec => {
    const isMain = c.name === main;
    const own = ownValue(o.images, c.name) as string | undefined;
    const image = own ?? (isMain && o.image ? o.image : c.image);
    if (image !== c.image) renames.push([`${cf}.image`, own !== undefined ? `${field}.images["${c.name}"]` : `${field}.image`]);
    if (isMain && o.args) renames.push([`${cf}.args`, `${field}.args`]);
    if (isMain && o.env) for (const k of Object.keys(o.env)) renames.push([`${cf}.env["${k}"]`, `${field}.env["${k}"]`]);
    if (isMain && o.resources) renames.push([`${cf}.resources`, `${field}.resources`]);
    let mounts = c.mounts;
    if (isMain && o.mounts) {
      const replaced = new Set(o.mounts.map((m) => m.mountPath));
      const kept = (c.mounts ?? []).filter((m) => !replaced.has(m.mountPath));
      mounts = [...kept, ...o.mounts];
      o.mounts.forEach((_, i) => renames.push([`${cf}.mounts[${kept.length + i}]`, `${field}.mounts[${i}]`]));
    }
    return {
      ...c,
      image,
      ...(isMain && o.args ? { args: o.args } : {}),
      ...(isMain && o.env ? { env: { ...(c.env ?? {}), ...o.env } } : {}),
      ...(mounts !== c.mounts ? { mounts } : {}),
      ...(isMain && o.resources ? { resources: o.resources } : {}),
    };
  };
  return {
    containers: containers.map((c, i) => swap(c, `containers[${i}]`)),
    initContainers: initContainers.map((c, i) => swap(c, `initContainers[${i}]`)),
    renames,
  };
}

/**
 * The one container of a Windows pod: the main container's name, ports, downward-API env, envFrom, non-exec probes and
 * resources, with the Windows image, command, args, env and mounts of `o`.
 */
function windowsContainer(
  main: ContainerSpec | undefined,
  field: string,
  o: TrackOverrides,
): { containers: ContainerSpec[]; renames: Array<[string, string]> } {
  if (!main) return { containers: [], renames: [] };
  const probe = (p: Probe | undefined) => (p !== undefined && p._handler?.exec === undefined ? p : undefined);
  const renames: Array<[string, string]> = [['containers[0].image', `${field}.image`]];
  if (o.command) renames.push(['containers[0].command', `${field}.command`]);
  if (o.args) renames.push(['containers[0].args', `${field}.args`]);
  if (o.env) for (const k of Object.keys(o.env)) renames.push([`containers[0].env["${k}"]`, `${field}.env["${k}"]`]);
  if (o.resources) renames.push(['containers[0].resources', `${field}.resources`]);
  (o.mounts ?? []).forEach((_, i) => renames.push([`containers[0].mounts[${i}]`, `${field}.mounts[${i}]`]));
  const [readiness, liveness, startup] = [probe(main.readiness), probe(main.liveness), probe(main.startup)];
  const c: ContainerSpec = {
    name: main.name,
    image: o.image ?? main.image,
    ...(o.command ? { command: o.command } : {}),
    ...(o.args ? { args: o.args } : {}),
    ...(o.env ? { env: o.env } : {}),
    ...(main.fieldEnv ? { fieldEnv: main.fieldEnv } : {}),
    ...(main.envFrom ? { envFrom: main.envFrom } : {}),
    ...(o.mounts ? { mounts: o.mounts } : {}),
    ...(main.ports ? { ports: main.ports } : {}),
    ...(readiness ? { readiness } : {}),
    ...(liveness ? { liveness } : {}),
    ...(startup ? { startup } : {}),
    ...((o.resources ?? main.resources) ? { resources: o.resources ?? main.resources } : {}),
    ...(main.imagePullPolicy ? { imagePullPolicy: main.imagePullPolicy } : {}),
  };
  return { containers: [c], renames };
}

/** Checks the overrides every track has: image names of containers, the version label. */
function checkOverrides(props: NodeServiceProps, field: string, o: TrackOverrides, windows: boolean, problems: ProblemCollector): void {
  const all = [...props.containers, ...(props.initContainers ?? [])];
  if (!windows)
    for (const [name, image] of Object.entries(o.images ?? {})) {
      if (!all.some((c) => c.name === name))
        problems.add(`${field}.images["${name}"]`, image, 'names no container of the service', 'use the name of one of the containers');
    }
  if (o.version !== undefined) problems.check(`${field}.version`, o.version, labelValueError(o.version), 'use a valid label value');
}

/** Checks a canary split's label. */
function checkCanary(canary: Canary, field: string, problems: ProblemCollector): void {
  problems.check(
    `${field}.key`,
    canary.key,
    qualifiedNameError(canary.key),
    'use a node label key such as "node-services.example.com/canary"',
  );
  problems.check(
    `${field}.value`,
    canary.value,
    labelValueError(canary.value) ?? (canary.value === '' ? 'must not be empty' : undefined),
    'use a label value such as "true"',
  );
}

/** Checks the variants and resolves their matches (each one `key In values`). */
function resolveVariants(props: NodeServiceProps, kind: NodeServiceKind, problems: ProblemCollector): VariantMatch[] {
  const out: VariantMatch[] = [];
  const names = new Map<string, string>();
  let windowsField: string | undefined;
  const declared = props.pools ?? [];
  (props.variants ?? []).forEach((v, i) => {
    const f = `variants[${i}]`;
    const o = v.options as TrackOverrides & PoolVariantOptions;
    problems.check(`${f}.name`, v.name, dns1123LabelError(v.name), 'use a short lower-case name such as "gpu"');
    if (v.name === 'canary')
      problems.add(`${f}.name`, v.name, 'is taken by the canary DaemonSet (<service>-canary)', 'use another name, or the canary option');
    const previous = names.get(v.name);
    if (previous !== undefined) problems.add(`${f}.name`, v.name, `duplicates ${previous}.name`, 'give each variant its own name');
    else names.set(v.name, f);
    const windows = v.type === VariantType.WINDOWS;
    if (!windows)
      for (const k of ['command', 'runAsUserName', 'reason'] as const)
        if (o[k] !== undefined)
          problems.add(`${f}.${k}`, o[k], 'is an option of Variant.windows only', 'remove it, or use Variant.windows');
    if (v.type !== VariantType.POOL && o.poolLabel !== undefined)
      problems.add(`${f}.poolLabel`, o.poolLabel, 'is an option of Variant.forPool only', 'remove it');
    checkOverrides(props, f, o, windows, problems);
    if (o.canary) checkCanary(o.canary, `${f}.canary`, problems);
    const before = problems.size;
    // Only a sound variant gets DaemonSets (its problems are reported once, here, not again from the pods).
    const found = (match: NodeRequirement, nodeLabels: { [key: string]: string }, pool?: string) => {
      if (previous === undefined && problems.size === before)
        out.push({ variant: v, field: f, match, windows, nodeLabels, ...(pool !== undefined ? { pool } : {}) });
    };
    if (v.type === VariantType.POOL) {
      const pool = v.pool;
      if (pool === undefined) {
        problems.add(`${f}.pool`, pool, 'is required for a pool variant', 'use Variant.forPool(name, pool, options)');
        return;
      }
      const keys = Object.keys(pool.labels);
      if (!declared.some((p) => p.name === pool.name))
        problems.add(
          `${f}.pool`,
          pool.name,
          'is not one of the pools the service covers',
          declared.length > 0
            ? `add it to pools (now ${declared.map((p) => `"${p.name}"`).join(', ')})`
            : 'declare the pools the service covers in pools, this one included',
        );
      if ((props.excludePools ?? []).some((p) => p.name === pool.name))
        problems.add(`${f}.pool`, pool.name, 'is one of the excludePools', 'drop it from excludePools, or drop the variant');
      if (pool.labels['kubernetes.io/os'] === 'windows')
        problems.add(`${f}.pool`, pool.name, 'is a pool of Windows nodes', 'use Variant.windows(name, options) for Windows nodes');
      if (keys.length === 0) {
        problems.add(
          `${f}.pool`,
          pool.name,
          'has no label that selects its nodes (it stands for every node)',
          'use a pool with a label, or change the service itself',
        );
        return;
      }
      if (o.poolLabel !== undefined && !keys.includes(o.poolLabel)) {
        problems.add(
          `${f}.poolLabel`,
          o.poolLabel,
          `is not a label of pool "${pool.name}"`,
          `use one of ${keys.map((k) => `"${k}"`).join(', ')}`,
        );
        return;
      }
      if (o.poolLabel === undefined && keys.length > 1) {
        problems.add(
          `${f}.poolLabel`,
          o.poolLabel,
          `must name the label that selects pool "${pool.name}" (it has ${keys.length})`,
          `set poolLabel to one of ${keys.map((k) => `"${k}"`).join(', ')}`,
        );
        return;
      }
      const key = o.poolLabel ?? keys[0];
      found(NodeRequirement.in(key, [pool.labels[key]]), {}, pool.name);
    } else if (v.type === VariantType.NODE_LABEL) {
      const key = v.key ?? '';
      const values = v.values ?? [];
      problems.check(`${f}.key`, key, qualifiedNameError(key), 'use a node label key such as "node.example.com/size"');
      if (values.length === 0)
        problems.add(`${f}.values`, values, 'must name at least one label value', 'list the values that select the nodes, e.g. ["xl"]');
      values.forEach((value, j) => {
        problems.check(`${f}.values[${j}]`, value, labelValueError(value), 'use a label value such as "xl"');
        if (values.indexOf(value) !== j) problems.add(`${f}.values[${j}]`, value, 'is listed twice', 'list each value once');
      });
      if (key === 'kubernetes.io/os')
        problems.add(`${f}.key`, key, 'selects nodes by operating system', 'use Variant.windows(name, options) for Windows nodes');
      if (values.length > 0) found(NodeRequirement.in(key, values), { [key]: values[0] });
    } else {
      if (!Variant.WINDOWS_KINDS.includes(kind))
        problems.add(
          f,
          v.name,
          `a ${kind} may not have a Windows HostProcess variant (kinds that may: ${Variant.WINDOWS_KINDS.join(', ')})`,
          'run a service built for Windows separately, or drop the variant',
        );
      if (windowsField !== undefined)
        problems.add(f, v.name, `is a second Windows variant (${windowsField} is one)`, 'give the service one Windows variant');
      else windowsField = f;
      if (o.image === undefined)
        problems.add(
          `${f}.image`,
          o.image,
          'is required for a Windows variant (the Linux image does not run on Windows)',
          'give the Windows build of the image, e.g. "fluent/fluent-bit:3.1.9-windows-2022"',
        );
      if (o.images !== undefined)
        problems.add(
          `${f}.images`,
          o.images,
          'a Windows pod runs only the main container',
          "set image (the main container's Windows image), or drop images",
        );
      problems.check(`${f}.reason`, o.reason, reasonError(o.reason), 'say why the service needs a HostProcess container on Windows nodes');
      if (o.runAsUserName !== undefined)
        problems.check(
          `${f}.runAsUserName`,
          o.runAsUserName,
          windowsUserNameError(o.runAsUserName),
          'use e.g. "NT AUTHORITY\\\\SYSTEM" or "NT AUTHORITY\\\\Local service"',
        );
      found(NodeRequirement.in(WINDOWS_KEY, ['windows']), {});
    }
  });
  // A variant whose match lies within an earlier one's would run on no node.
  out.forEach((v, j) => {
    const earlier = out
      .slice(0, j)
      .find((u) => !(u.windows && v.windows) && u.match.key === v.match.key && v.match.values!.every((x) => u.match.values!.includes(x)));
    if (earlier)
      problems.add(
        v.field,
        v.variant.name,
        `selects only nodes that ${earlier.field} ("${earlier.variant.name}") already runs on: its DaemonSet would run on no node`,
        'select other nodes, or drop one of the variants',
      );
  });
  return out;
}

/** The node label key of the operating system. */
const WINDOWS_KEY = 'kubernetes.io/os';

/** The complement of a variant's match (`key NotIn values`). */
function complementOf(match: NodeRequirement): NodeRequirement {
  return NodeRequirement.notIn(match.key, match.values ?? []);
}

/**
 * Resolves every DaemonSet of the service besides the default one, and the default one's affinity. Variants are
 * disjoint by construction: Windows variants come first in the exclusion order (so every Linux DaemonSet requires
 * `kubernetes.io/os NotIn [windows]`), then the others in the order given; each gets its match and the complement of
 * every earlier match, the default DaemonSet the complement of every match. A canary splits its DaemonSet in two by
 * its label. Problems are reported once, for what a track changes (`canary.image`, `variants[0].resources`, …).
 */
function resolveTracks(
  props: NodeServiceProps,
  base: PodIntent,
  meta: ReturnType<typeof resolveMetadata>,
  annotations: { [key: string]: string },
  problems: ProblemCollector,
): { stableTerms: NodeAffinityTerm[]; tracks: TrackIntent[] } {
  const variants = resolveVariants(props, base.kind, problems);
  const chain = [...variants.filter((v) => v.windows), ...variants.filter((v) => !v.windows)];
  const complements = chain.map((v) => complementOf(v.match));
  const tracks: TrackIntent[] = [];
  const names = new Map<string, string>([[props.name, 'name']]);
  const build = (
    t: Omit<TrackIntent, 'selector' | 'labels' | 'changesSomething' | 'template'> & {
      instance: string;
      track: 'stable' | 'canary';
      o: TrackOverrides;
      renames: Array<[string, string]>;
      image?: string;
      only: string;
    },
  ) => {
    const previous = names.get(t.daemonSetName);
    if (previous !== undefined)
      problems.add(
        `${t.field}`,
        t.daemonSetName,
        `its DaemonSet name "${t.daemonSetName}" is also that of ${previous}`,
        'give the variant another name',
      );
    else names.set(t.daemonSetName, t.field);
    if (t.variant !== undefined && dns1123LabelError(t.variant) === undefined) {
      const nameField = `${t.field.replace(/\.canary$/, '')}.name`;
      problems.check(
        nameField,
        t.variant,
        dns1123LabelError(t.daemonSetName)
          ? `makes the DaemonSet name "${t.daemonSetName}" ${dns1123LabelError(t.daemonSetName)}`
          : undefined,
        'use a shorter variant name',
      );
      problems.check(
        nameField,
        t.variant,
        labelValueError(t.instance) ? `makes the instance label "${t.instance}" invalid: ${labelValueError(t.instance)}` : undefined,
        'use a shorter variant name',
      );
    }
    const labels = {
      ...(props.labels ?? {}),
      ...recommendedLabels({
        name: props.name,
        instance: t.instance,
        version: t.o.version ?? imageVersion(t.image ?? t.pod.containers[0]?.image),
        component: meta.component,
        partOf: meta.partOf,
      }),
      ...trackLabels(meta.instance, t.track, t.variant),
    };
    const pod: PodIntent = { ...t.pod, labels };
    const own = new ProblemCollector();
    t.renames.forEach(([from, to]) => own.rename(from, to));
    const template = buildPodTemplate(pod, own);
    own.forEach((p) => {
      if (under(p.field, t.only)) problems.addRendered(p);
    });
    const changesSomething = t.renames.length > 0 || t.o.version !== undefined || t.o.mounts !== undefined || t.o.resources !== undefined;
    const { instance: _i, track: _t, o: _o, renames: _r, image: _im, only: _on, ...rest } = t;
    tracks.push({ ...rest, pod, labels, selector: selectorLabels(props.name, t.instance), changesSomething, template });
  };
  const canaryAnnotations = (of: string, c: Canary) => ({
    ...annotations,
    [CANARY_OF_ANNOTATION]: of,
    [CANARY_LABEL_ANNOTATION]: `${c.key}=${c.value}`,
  });
  const stableTerms = withRequirements(base.affinityTerms, complements);
  if (props.canary) {
    const c = props.canary;
    checkCanary(c, 'canary', problems);
    checkOverrides(props, 'canary', c.options, false, problems);
    const o = overridden(props.containers, props.initContainers ?? [], 'canary', c.options);
    build({
      id: 'Canary',
      daemonSetName: `${props.name}-canary`,
      field: 'canary',
      only: 'canary',
      canary: c,
      instance: `${meta.instance}-canary`,
      track: 'canary',
      o: c.options,
      renames: o.renames,
      image: c.options.image ?? props.containers[0]?.image,
      annotations: canaryAnnotations(props.name, c),
      pod: {
        ...base,
        containers: o.containers,
        initContainers: o.initContainers,
        affinityTerms: withRequirements(stableTerms, [NodeRequirement.in(c.key, [c.value])]),
      },
      nodeLabels: { [c.key]: c.value },
    });
  }
  for (const v of variants) {
    const o = v.variant.options as TrackOverrides;
    const terms = withRequirements(base.affinityTerms, [v.match, ...complements.slice(0, chain.indexOf(v))]);
    const dsName = `${props.name}-${v.variant.name}`;
    const instance = `${meta.instance}-${v.variant.name}`;
    let containers: ContainerSpec[];
    let initContainers: ContainerSpec[];
    let renames: Array<[string, string]>;
    let pod: PodIntent;
    let own: { [key: string]: string } = { ...annotations, [VARIANT_OF_ANNOTATION]: props.name };
    if (v.windows) {
      const w = windowsContainer(props.containers[0], v.field, o);
      [containers, initContainers, renames] = [w.containers, [], w.renames];
      const key = suppressionAnnotationKey('privileged-container');
      const reason = `Windows HostProcess: ${o.reason ?? ''}`;
      own = { ...own, [key]: own[key] ? `${own[key]}; ${reason}` : reason };
      pod = {
        ...base,
        containers,
        initContainers,
        hostNetwork: true,
        hostPID: false,
        dnsPolicy: base.dnsPolicy === 'ClusterFirst' ? 'ClusterFirstWithHostNet' : base.dnsPolicy,
        nodeSelector: { ...base.nodeSelector, [WINDOWS_KEY]: 'windows' },
        runAsUser: undefined,
        runAsGroup: undefined,
        fsGroup: undefined,
        // A RuntimeClass names a Linux runtime handler (e.g. nvidia); the Windows pod runs on the node's default.
        runtimeClassName: undefined,
        windows: { runAsUserName: o.runAsUserName ?? Variant.WINDOWS_SYSTEM_USER },
        affinityTerms: terms,
      };
    } else {
      const lo = overridden(props.containers, props.initContainers ?? [], v.field, o);
      [containers, initContainers, renames] = [lo.containers, lo.initContainers, lo.renames];
      pod = { ...base, containers, initContainers, affinityTerms: terms };
    }
    const c = o.canary;
    const split = (t: NodeRequirement): PodIntent => ({ ...pod, affinityTerms: withRequirements(terms, [t]) });
    build({
      id: `Variant${v.variant.name}`,
      daemonSetName: dsName,
      field: v.field,
      only: v.field,
      variant: v.variant.name,
      instance,
      track: 'stable',
      o,
      renames,
      image: o.image ?? props.containers[0]?.image,
      annotations: own,
      pod: c ? split(NodeRequirement.notIn(c.key, [c.value])) : pod,
      nodeLabels: v.nodeLabels,
      ...(v.pool !== undefined ? { pool: v.pool } : {}),
    });
    if (c) {
      const cf = `${v.field}.canary`;
      const co = overridden(containers, initContainers, cf, c.options);
      build({
        id: `Variant${v.variant.name}Canary`,
        daemonSetName: `${dsName}-canary`,
        field: cf,
        only: cf,
        variant: v.variant.name,
        canary: c,
        instance: `${instance}-canary`,
        track: 'canary',
        o: c.options,
        renames: [...co.renames, ...renames],
        image: c.options.image ?? o.image ?? props.containers[0]?.image,
        annotations: canaryAnnotations(dsName, c),
        pod: { ...split(NodeRequirement.in(c.key, [c.value])), containers: co.containers, initContainers: co.initContainers },
        nodeLabels: { ...v.nodeLabels, [c.key]: c.value },
        ...(v.pool !== undefined ? { pool: v.pool } : {}),
      });
    }
  }
  return { stableTerms, tracks };
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
    affinityTerms: placement.affinityTerms,
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
  const { stableTerms, tracks } = resolveTracks(props, pod, meta, annotations, problems);
  const canary = props.canary;
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
    pod: {
      ...pod,
      affinityTerms: canary ? withRequirements(stableTerms, [NodeRequirement.notIn(canary.key, [canary.value])]) : stableTerms,
    },
    ...(canary ? { canary } : {}),
    tracks,
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
  if (o.hostNetworkReason !== undefined) {
    const reason = o.hostNetworkReason;
    problems.check('networkPolicy.hostNetworkReason', reason, reasonError(reason), 'say why the host-network pods need no NetworkPolicy');
  }
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

/**
 * ANDs `requirements` into every term ((A∨B)∧C = (A∧C)∨(B∧C)); without terms, one term of just the requirements.
 * Terms that no node can satisfy (`k In [a]` with `k NotIn [a]`, …) are dropped while one remains, and a term that
 * contains every requirement of another is dropped (absorption: A∨(A∧B) = A), so the result selects the same nodes.
 */
function withRequirements(terms: NodeAffinityTerm[], requirements: NodeRequirement[]): NodeAffinityTerm[] {
  if (requirements.length === 0) return terms;
  const anded: NodeAffinityTerm[] =
    terms.length === 0
      ? [{ requirements: [...requirements] }]
      : terms.map((t) => ({ requirements: dedupeRequirements([...t.requirements, ...requirements]) }));
  const satisfiable = anded.filter((t) => !contradicts(t.requirements));
  const kept = satisfiable.length > 0 ? satisfiable : anded.slice(0, 1);
  const ids = kept.map((t) => new Set(t.requirements.map((r) => JSON.stringify(r.toJson()))));
  return kept.filter(
    (_, i) =>
      !ids.some(
        (other, j) => j !== i && other.size <= ids[i].size && [...other].every((x) => ids[i].has(x)) && (other.size < ids[i].size || j < i),
      ),
  );
}

/** The requirements without exact repeats. */
function dedupeRequirements(requirements: NodeRequirement[]): NodeRequirement[] {
  const seen = new Set<string>();
  return requirements.filter((r) => {
    const id = JSON.stringify(r.toJson());
    return !seen.has(id) && seen.add(id) !== undefined;
  });
}

/** Whether no node satisfies every requirement (decided for In, NotIn, Exists and DoesNotExist on one key). */
function contradicts(requirements: NodeRequirement[]): boolean {
  return requirements.some((a) =>
    requirements.some((b) => {
      if (a === b || a.key !== b.key) return false;
      const av = a.values ?? [];
      const bv = b.values ?? [];
      if (a.operator === 'In' && b.operator === 'In') return !av.some((v) => bv.includes(v));
      if (a.operator === 'In' && b.operator === 'NotIn') return av.every((v) => bv.includes(v));
      if (a.operator === 'In' && b.operator === 'DoesNotExist') return true;
      return a.operator === 'Exists' && b.operator === 'DoesNotExist';
    }),
  );
}

/** ANDs `requirement` into every term as given (the user's own terms are rendered as written). */
function andIntoEvery(terms: NodeAffinityTerm[], requirement: NodeRequirement): NodeAffinityTerm[] {
  if (terms.length === 0) return [{ requirements: [requirement] }];
  return terms.map((t) => ({ requirements: [...t.requirements, requirement] }));
}
