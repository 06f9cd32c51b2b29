/**
 * What a change to a set of manifests does to the fleet, per DaemonSet (matched by namespace/name): added, removed,
 * rolled out (the pod template changed: every covered node restarts its pod), rolled out for configuration only (only
 * a config hash annotation of the template moved), changed without a rollout (metadata, strategy, status fields), a
 * selector change (immutable: the API server refuses the update), and security widening. With nodes, which nodes
 * restart, start or stop the pod, per pool, from the coverage engine's controller verdicts.
 */

import type { WireDaemonSet, WireNode, WirePod, WirePodTemplateSpec } from '../k8s/wire';
import { analyzeCoverage } from '../coverage/analyze';
import { isApiDefault } from '../k8s/api-defaults';
import { CONFIG_HASH_ANNOTATION } from '../k8s/vocabulary';
import { CoverageReason } from '../coverage/types';
import { JsonChange, jsonChanges } from './changes';
import { CANARY_OF_ANNOTATION, InputObject, PoolNodes, daemonSetsByKey, groupByPool, jsonEqual, nameOf, namespaceOf } from './objects';
import { Widening, podSecurityWidening, rbacWidening, templateWidening } from './widening';

/** How a DaemonSet changed. The values are the strings of the JSON output and of `--fail-on`. */
export enum ChangeKind {
  /** Only in the new input. */
  ADDED = 'added',
  /** Only in the old input. */
  REMOVED = 'removed',
  /** The pod template changed: the controller replaces the pod on every node it covers. */
  ROLLOUT = 'rollout',
  /** Only configuration hash annotations of the pod template moved: a rollout that restarts pods with new configuration. */
  CONFIG = 'config',
  /** The DaemonSet changed but its pod template did not: no pod restarts. */
  METADATA = 'metadata',
}

/**
 * Pod-template annotations that carry a hash of configuration (a rollout trigger): the library's own and the Helm
 * convention `checksum/<anything>`.
 */

/** Whether a pod-template annotation key carries a configuration hash. */
export function isConfigHashAnnotation(key: string): boolean {
  return key === CONFIG_HASH_ANNOTATION || key.startsWith('checksum/');
}

/** Which nodes a change affects, per pool. */
export interface NodeImpact {
  /** Nodes where the pod is replaced (covered before and after). */
  readonly restart: PoolNodes[];
  /** Nodes that get the pod for the first time. */
  readonly start: PoolNodes[];
  /** Nodes that lose the pod. */
  readonly stop: PoolNodes[];
}

/** One changed DaemonSet. */
export interface DaemonSetDiff {
  /** Namespace. */
  readonly namespace: string;
  /** Name. */
  readonly name: string;
  /** How it changed. */
  readonly change: ChangeKind;
  /** Whether `spec.selector` changed (the API server refuses it: delete and re-create the DaemonSet). */
  readonly selectorChanged: boolean;
  /** The changed fields (pod template first, then the rest of the object); [] for added and removed DaemonSets. */
  readonly changes: JsonChange[];
  /** Access the new version has that the old one did not. */
  readonly widenings: Widening[];
  /**
   * ConfigMaps and Secrets the pod template uses (volumes, projected volumes, `envFrom`, `env[].valueFrom`) whose data
   * changed, as `ConfigMap <name>` / `Secret <name>`. Without a template change the running pods are not restarted:
   * they see a mounted ConfigMap once the kubelet refreshes it, and environment variables never.
   */
  readonly configChanged: string[];
  /** Affected nodes, when nodes were given and the change moves pods. */
  readonly nodes?: NodeImpact;
  /** The file and line of the new version (the old one for a removed DaemonSet), when known. */
  readonly file?: string;
  /** 1-based line, when known. */
  readonly line?: number;
}

/** The result of {@link diffManifests}. */
export interface DiffReport {
  /** Changed DaemonSets, in new-input order, removed ones last. */
  readonly daemonSets: DaemonSetDiff[];
  /** Number of DaemonSets present and identical in both inputs. */
  readonly unchanged: number;
  /**
   * Fields set on one side only, to the value the API server sets when the field is left out (a live
   * `kubectl get -o yaml` dump beside a manifest): the same object once stored, so not counted as changes.
   * @default 0
   */
  readonly apiDefaults?: number;
}

/** Options of {@link diffManifests}. */
export interface DiffOptions {
  /** Node objects; with them the report lists the nodes each change restarts, starts and stops. */
  readonly nodes?: readonly WireNode[];
  /** Pods already running (their requests and ports count in the coverage verdicts). */
  readonly pods?: readonly WirePod[];
  /** Node label to group nodes by; default: the first well-known pool label found (see `POOL_LABELS`). */
  readonly groupBy?: string;
}

/** The ConfigMaps and Secrets a pod template references, as `ConfigMap <name>` / `Secret <name>`. */
function configReferences(template: WirePodTemplateSpec | undefined): Set<string> {
  const out = new Set<string>();
  const add = (kind: string, name: unknown) => {
    if (typeof name === 'string' && name.length > 0) out.add(`${kind} ${name}`);
  };
  const spec = template?.spec;
  for (const v of Array.isArray(spec?.volumes) ? spec.volumes : []) {
    add('ConfigMap', v?.configMap?.name);
    add('Secret', v?.secret?.secretName);
    for (const source of Array.isArray(v?.projected?.sources) ? v.projected.sources : []) {
      add('ConfigMap', source?.configMap?.name);
      add('Secret', source?.secret?.name);
    }
  }
  for (const list of ['initContainers', 'containers'] as const) {
    for (const c of Array.isArray(spec?.[list]) ? spec[list] : []) {
      for (const e of Array.isArray(c?.envFrom) ? c.envFrom : []) {
        add('ConfigMap', e?.configMapRef?.name);
        add('Secret', e?.secretRef?.name);
      }
      for (const e of Array.isArray(c?.env) ? c.env : []) {
        add('ConfigMap', e?.valueFrom?.configMapKeyRef?.name);
        add('Secret', e?.valueFrom?.secretKeyRef?.name);
      }
    }
  }
  return out;
}

/** `namespace/Kind name` of every ConfigMap and Secret whose data differs between the inputs (added and removed too). */
function changedConfig(oldObjects: readonly InputObject[], newObjects: readonly InputObject[]): Set<string> {
  const index = (objects: readonly InputObject[]) => {
    const out = new Map<string, unknown>();
    for (const { object } of objects) {
      if (object?.kind !== 'ConfigMap' && object?.kind !== 'Secret') continue;
      out.set(`${namespaceOf(object)}/${object.kind} ${nameOf(object)}`, [object.data, object.stringData, object.binaryData]);
    }
    return out;
  };
  const before = index(oldObjects);
  const after = index(newObjects);
  const out = new Set<string>();
  for (const key of new Set([...before.keys(), ...after.keys()])) if (!jsonEqual(before.get(key), after.get(key))) out.add(key);
  return out;
}

/** Whether the only template differences are config-hash annotations. */
function configOnly(changes: readonly JsonChange[]): boolean {
  return (
    changes.length > 0 &&
    changes.every((c) => {
      const m = /^spec\.template\.metadata\.annotations\["(.*)"\]$|^spec\.template\.metadata\.annotations\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(
        c.path,
      );
      const key = m ? (m[1] !== undefined ? JSON.parse(`"${m[1]}"`) : m[2]) : undefined;
      return key !== undefined && isConfigHashAnnotation(key);
    })
  );
}

/** Fields the API server owns: not part of a change a reviewer makes. */
const SERVER_FIELDS = [
  'status',
  'metadata.resourceVersion',
  'metadata.uid',
  'metadata.generation',
  'metadata.creationTimestamp',
  'metadata.managedFields',
  'metadata.selfLink',
];

/** A DaemonSet copied as plain JSON, to take fields out of. */
interface DetachedCopy {
  status?: unknown;
  spec?: { template?: unknown };
  metadata?: { [field: string]: unknown; annotations?: { [key: string]: string } };
}

function withoutServerFields(ds: WireDaemonSet | undefined): DetachedCopy {
  const copy: DetachedCopy = JSON.parse(JSON.stringify(ds ?? {}));
  delete copy.status;
  if (copy.metadata) {
    for (const f of SERVER_FIELDS) if (f.startsWith('metadata.')) delete copy.metadata[f.slice('metadata.'.length)];
    if (copy.metadata.annotations) {
      delete copy.metadata.annotations['deprecated.daemonset.template.generation'];
      delete copy.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'];
      if (Object.keys(copy.metadata.annotations).length === 0) delete copy.metadata.annotations;
    }
  }
  return copy;
}

/** The nodes where the controller wants the DaemonSet's pod (`desiredNumberScheduled`). */
function desiredNodes(ds: WireDaemonSet, options: DiffOptions): Set<string> {
  const report = analyzeCoverage([ds], options.nodes ?? [], options.pods);
  const rows = report.workloads[0]?.nodes ?? [];
  return new Set(
    rows.filter((r) => r.runs || r.reason === CoverageReason.HOST_PORT || r.reason === CoverageReason.RESOURCES).map((r) => r.node),
  );
}

function nodeImpact(
  oldDs: WireDaemonSet | undefined,
  newDs: WireDaemonSet | undefined,
  change: ChangeKind,
  options: DiffOptions,
): NodeImpact | undefined {
  if (options.nodes === undefined || change === ChangeKind.METADATA) return undefined;
  const byName = new Map<string, WireNode>(options.nodes.map((n) => [nameOf(n), n]));
  const names = options.nodes.map(nameOf);
  const before = oldDs === undefined ? new Set<string>() : desiredNodes(oldDs, options);
  const after = newDs === undefined ? new Set<string>() : desiredNodes(newDs, options);
  const templateChanged = change === ChangeKind.ROLLOUT || change === ChangeKind.CONFIG;
  return {
    restart: groupByPool(
      names.filter((n) => templateChanged && before.has(n) && after.has(n)),
      byName,
      options.groupBy,
    ),
    start: groupByPool(
      names.filter((n) => after.has(n) && !before.has(n)),
      byName,
      options.groupBy,
    ),
    stop: groupByPool(
      names.filter((n) => before.has(n) && !after.has(n)),
      byName,
      options.groupBy,
    ),
  };
}

/** What the comparison of each DaemonSet shares. */
interface DiffContext {
  readonly oldObjects: readonly InputObject[];
  readonly newObjects: readonly InputObject[];
  readonly options: DiffOptions;
  /** The old DaemonSets by namespace/name. */
  readonly before: ReadonlyMap<string, InputObject>;
  /** `namespace/Kind name` of the ConfigMaps and Secrets whose data changed. */
  readonly configs: ReadonlySet<string>;
  /** The Pod Security widening of a namespace, computed once per namespace. */
  readonly namespaceWidening: (ns: string) => Widening[];
  /** How many fields differed only by a stated API default. */
  readonly apiDefaults: { count: number };
}

/** `file` and `line` of an input object, each when known. */
function whereOf(input: InputObject): { file?: string; line?: number } {
  return {
    ...(input.file !== undefined ? { file: input.file } : {}),
    ...(input.line !== undefined ? { line: input.line } : {}),
  };
}

/** The fields of a DaemonSet besides its pod template and the fields the API server owns. */
function withoutTemplate(ds: WireDaemonSet): DetachedCopy {
  const copy = withoutServerFields(ds);
  if (copy.spec) delete copy.spec.template;
  return copy;
}

/** The image of the container a path is under (`spec.template.spec.containers[agent]…`) in `ds`. */
function containerImage(ds: WireDaemonSet | undefined, path: string): string | undefined {
  const m = /^spec\.template\.spec\.(containers|initContainers)\[([^\]]+)\]/.exec(path);
  if (m === null) return undefined;
  const list = ds?.spec?.template?.spec?.[m[1] as 'containers' | 'initContainers'] ?? [];
  const c = list.find((x) => x?.name === m[2] || JSON.stringify(x?.name) === m[2]);
  return typeof c?.image === 'string' ? c.image : undefined;
}

/** A filter of the changes that are real: a field stated on one side only, at its API default, is none (counted). */
function statedChanges(previous: WireDaemonSet, ds: WireDaemonSet, ctx: DiffContext): (changes: JsonChange[]) => JsonChange[] {
  return (changes) =>
    changes.filter((c) => {
      const defaulted =
        (c.old === undefined && isApiDefault(c.path, c.new, (p) => containerImage(ds, p))) ||
        (c.new === undefined && isApiDefault(c.path, c.old, (p) => containerImage(previous, p)));
      if (defaulted) ctx.apiDefaults.count++;
      return !defaulted;
    });
}

/** How the DaemonSet of `current` changed from the old input, or undefined when it did not. */
function diffOne(ctx: DiffContext, key: string, current: InputObject): DaemonSetDiff | undefined {
  const { before, options } = ctx;
  const ds = current.object;
  const previous = before.get(key)?.object;
  // An added canary is compared with the old version of the DaemonSet it is a canary of.
  const canaryOf = ds?.metadata?.annotations?.[CANARY_OF_ANNOTATION];
  const baseline = previous ?? (typeof canaryOf === 'string' ? before.get(`${namespaceOf(ds)}/${canaryOf}`)?.object : undefined);
  const widenings = [
    ...templateWidening(baseline?.spec?.template, ds?.spec?.template),
    ...rbacWidening(ctx.oldObjects, baseline, ctx.newObjects, ds),
    ...ctx.namespaceWidening(namespaceOf(ds)),
  ];
  const configChanged = [...configReferences(ds?.spec?.template)].filter((ref) => ctx.configs.has(`${namespaceOf(ds)}/${ref}`)).sort();
  if (previous === undefined) {
    return {
      namespace: namespaceOf(ds),
      name: nameOf(ds),
      change: ChangeKind.ADDED,
      selectorChanged: false,
      changes: [],
      widenings,
      configChanged: [],
      ...withNodes(nodeImpact(undefined, ds, ChangeKind.ADDED, options)),
      ...whereOf(current),
    };
  }
  const stated = statedChanges(previous, ds, ctx);
  const templateChanges = stated(jsonChanges(previous?.spec?.template, ds?.spec?.template, 'spec.template'));
  const otherChanges = stated(jsonChanges(withoutTemplate(previous), withoutTemplate(ds)));
  if (templateChanges.length === 0 && otherChanges.length === 0 && widenings.length === 0 && configChanged.length === 0) return undefined;
  const change = templateChanges.length === 0 ? ChangeKind.METADATA : configOnly(templateChanges) ? ChangeKind.CONFIG : ChangeKind.ROLLOUT;
  return {
    namespace: namespaceOf(ds),
    name: nameOf(ds),
    change,
    selectorChanged: !jsonEqual(previous?.spec?.selector, ds?.spec?.selector),
    changes: [...templateChanges, ...otherChanges],
    widenings,
    configChanged,
    ...withNodes(nodeImpact(previous, ds, change, options)),
    ...whereOf(current),
  };
}

/** A DaemonSet only in the old input. */
function removedDiff(previous: InputObject, options: DiffOptions): DaemonSetDiff {
  return {
    namespace: namespaceOf(previous.object),
    name: nameOf(previous.object),
    change: ChangeKind.REMOVED,
    selectorChanged: false,
    changes: [],
    widenings: [],
    configChanged: [],
    ...withNodes(nodeImpact(previous.object, undefined, ChangeKind.REMOVED, options)),
    ...whereOf(previous),
  };
}

/**
 * Compares two sets of objects (e.g. the committed `dist/` of the main branch and of a pull request). DaemonSets are
 * matched by namespace/name; ClusterRoles, Roles, their bindings and Namespaces of each side feed the RBAC and Pod
 * Security widening checks.
 */
export function diffManifests(
  oldObjects: readonly InputObject[],
  newObjects: readonly InputObject[],
  options: DiffOptions = {},
): DiffReport {
  const before = daemonSetsByKey(oldObjects);
  const after = daemonSetsByKey(newObjects);
  const podSecurity = new Map<string, Widening[]>();
  const namespaceWidening = (ns: string) => {
    let w = podSecurity.get(ns);
    if (w === undefined) podSecurity.set(ns, (w = podSecurityWidening(oldObjects, newObjects, ns)));
    return w;
  };
  const apiDefaults = { count: 0 };
  const ctx: DiffContext = {
    oldObjects,
    newObjects,
    options,
    before,
    configs: changedConfig(oldObjects, newObjects),
    namespaceWidening,
    apiDefaults,
  };
  const out: DaemonSetDiff[] = [];
  let unchanged = 0;
  for (const [key, current] of after) {
    const diff = diffOne(ctx, key, current);
    if (diff === undefined) unchanged++;
    else out.push(diff);
  }
  for (const [key, previous] of before) if (!after.has(key)) out.push(removedDiff(previous, options));
  return { daemonSets: out, unchanged, ...(apiDefaults.count > 0 ? { apiDefaults: apiDefaults.count } : {}) };
}

function withNodes(nodes: NodeImpact | undefined): { nodes?: NodeImpact } {
  return nodes === undefined ? {} : { nodes };
}

/** What `--fail-on` can name: a change kind, `selector`, `widening` (any category) or a widening category. */
export function diffMatches(report: DiffReport, failOn: readonly string[]): boolean {
  return report.daemonSets.some((d) =>
    failOn.some(
      (f) =>
        f === d.change ||
        (f === 'selector' && d.selectorChanged) ||
        (f === 'widening' && d.widenings.length > 0) ||
        d.widenings.some((w) => w.category === f),
    ),
  );
}
