/**
 * What an import starts from: the objects read (by the manifest reader the CLI shares), with the fields a live dump
 * (`kubectl get -o yaml`) carries that the API server set stripped, each DaemonSet's kind and why, and the objects that
 * belong to each DaemonSet. Pure functions over plain JSON; no cdk8s import.
 */

import { asArray, asObject, isObject } from '../k8s/json';
import { resolveKind } from '../policy/kind-inference';
import { isKruiseDaemonSet, KIND_ANNOTATION, KindSource, NodeServiceKind } from '../policy/kinds';
import { InputObject, keyOf, nameOf, namespaceOf } from '../day2/objects';
import { isClusterScoped } from '../k8s/namespaces';

/** Metadata fields only the API server sets. */
const SERVER_METADATA_FIELDS: readonly string[] = [
  'managedFields',
  'resourceVersion',
  'uid',
  'creationTimestamp',
  'generation',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
];

/** Annotations written by the server or by `kubectl apply`, never by the author. */
const SERVER_ANNOTATIONS: readonly string[] = [
  'deprecated.daemonset.template.generation',
  'kubectl.kubernetes.io/last-applied-configuration',
];

/** One field removed from an input object because the server set it. */
export interface StrippedField {
  /** `Kind namespace/name`. */
  readonly object: string;
  /** The field path (`metadata.managedFields`). */
  readonly field: string;
}

/** `Kind namespace/name` of an object, for reports. */
export function describeObject(object: unknown): string {
  const o = asObject(object);
  const ns = asObject(o.metadata).namespace;
  return `${String(o.kind ?? '?')} ${typeof ns === 'string' && ns !== '' ? `${ns}/` : ''}${nameOf(o)}`;
}

function stripMetadata(metadata: Record<string, unknown>, where: string, object: string, out: StrippedField[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (SERVER_METADATA_FIELDS.includes(key)) {
      out.push({ object, field: `${where}${key}` });
      continue;
    }
    kept[key] = value;
  }
  if (isObject(kept.annotations)) {
    const annotations: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(kept.annotations)) {
      if (SERVER_ANNOTATIONS.includes(key)) out.push({ object, field: `${where}annotations[${JSON.stringify(key)}]` });
      else annotations[key] = value;
    }
    if (Object.keys(annotations).length > 0) kept.annotations = annotations;
    else delete kept.annotations;
  }
  return kept;
}

/**
 * A copy of `object` without the fields the API server set (`status`, `metadata.managedFields`, `resourceVersion`,
 * `uid`, `creationTimestamp`, `generation`, the controller's generation annotation, kubectl's last-applied
 * configuration, the pod template's `creationTimestamp: null`), each listed in `stripped`.
 */
export function stripServerFields(object: unknown, stripped: StrippedField[]): unknown {
  if (!isObject(object)) return object;
  const name = describeObject(object);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (key === 'status') {
      stripped.push({ object: name, field: 'status' });
      continue;
    }
    out[key] = key === 'metadata' && isObject(value) ? stripMetadata(value, 'metadata.', name, stripped) : value;
  }
  const template = asObject(asObject(out.spec).template);
  if (isObject(template.metadata)) {
    const metadata = stripMetadata(template.metadata, 'spec.template.metadata.', name, stripped);
    out.spec = { ...asObject(out.spec), template: { ...template, metadata } };
  }
  return out;
}

/** Whether an object is a DaemonSet the import turns into a node service (apps/v1 or an OpenKruise Advanced DaemonSet). */
export function isImportedDaemonSet(object: unknown): boolean {
  const o = asObject(object);
  return o.kind === 'DaemonSet' && (o.apiVersion === 'apps/v1' || isKruiseDaemonSet(o));
}

/** Which construct kind a DaemonSet becomes, and why. */
export interface KindChoice {
  /** The kind. */
  readonly kind: NodeServiceKind;
  /** `annotation`, `option` (`--kind`), `inferred` or `default`. */
  readonly source: string;
  /** The sentence that says why. */
  readonly reason: string;
  /** The kind whose allowlists refused the input's host access (the service is then built as a generic one). */
  readonly refused?: NodeServiceKind;
  /** The host access refused (`host path /var/log (writable)`, `capability SYS_ADMIN`). */
  readonly refusedAccess?: readonly string[];
}

/** The kind of a DaemonSet: its kind annotation, else `requested` (`--kind`), else its shape's, else the generic kind. */
export function chooseKind(daemonSet: unknown, requested?: NodeServiceKind): KindChoice {
  const resolved = resolveKind(daemonSet);
  if (resolved.source === KindSource.ANNOTATION) {
    return { kind: resolved.kind, source: 'annotation', reason: `the ${KIND_ANNOTATION} annotation declares ${resolved.kind}` };
  }
  if (requested !== undefined) return { kind: requested, source: 'option', reason: `--kind ${requested} was given` };
  if (resolved.source === KindSource.INFERRED) {
    return { kind: resolved.kind, source: 'inferred', reason: `its shape shows a ${resolved.kind}: ${resolved.evidence}` };
  }
  return { kind: NodeServiceKind.GENERIC, source: 'default', reason: 'nothing in its shape identifies a kind' };
}

/** The ConfigMaps and Secrets a pod spec mounts or reads, by name. */
function configNames(podSpec: unknown): { configMaps: Set<string>; secrets: Set<string> } {
  const spec = asObject(podSpec);
  const configMaps = new Set<string>();
  const secrets = new Set<string>();
  const add = (set: Set<string>, name: unknown) => typeof name === 'string' && name !== '' && set.add(name);
  for (const v of asArray(spec.volumes)) {
    add(configMaps, asObject(asObject(v).configMap).name);
    add(secrets, asObject(asObject(v).secret).secretName);
    for (const s of asArray(asObject(asObject(v).projected).sources)) {
      add(configMaps, asObject(asObject(s).configMap).name);
      add(secrets, asObject(asObject(s).secret).name);
    }
  }
  for (const c of [...asArray(spec.initContainers), ...asArray(spec.containers)]) {
    for (const e of asArray(asObject(c).envFrom)) {
      add(configMaps, asObject(asObject(e).configMapRef).name);
      add(secrets, asObject(asObject(e).secretRef).name);
    }
    for (const e of asArray(asObject(c).env)) {
      const from = asObject(asObject(e).valueFrom);
      add(configMaps, asObject(from.configMapKeyRef).name);
      add(secrets, asObject(from.secretKeyRef).name);
    }
  }
  return { configMaps, secrets };
}

function labelsMatch(selector: unknown, labels: Record<string, unknown>): boolean {
  const s = asObject(selector);
  const entries = Object.entries(s);
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}

function subjectsName(binding: unknown, namespace: string, account: string): boolean {
  return asArray(asObject(binding).subjects).some((s) => {
    const subject = asObject(s);
    return subject.kind === 'ServiceAccount' && subject.name === account && (subject.namespace ?? namespace) === namespace;
  });
}

/** Whether `object` belongs to `daemonSet` (see {@link gatherObjects}). */
function belongs(object: Record<string, any>, ds: Record<string, any>, roles: Set<string>): boolean {
  const ns = namespaceOf(ds);
  const pod = asObject(asObject(asObject(ds.spec).template).spec);
  const podLabels = asObject(asObject(asObject(asObject(ds.spec).template).metadata).labels);
  const account = typeof pod.serviceAccountName === 'string' ? pod.serviceAccountName : pod.serviceAccount;
  const sameNs = namespaceOf(object) === ns;
  const { configMaps, secrets } = configNames(pod);
  switch (object.kind) {
    case 'ServiceAccount':
      return sameNs && nameOf(object) === account;
    case 'ClusterRoleBinding':
    case 'RoleBinding':
      return typeof account === 'string' && (object.kind === 'ClusterRoleBinding' || sameNs) && subjectsName(object, ns, account);
    case 'ClusterRole':
      return roles.has(`ClusterRole/${nameOf(object)}`);
    case 'Role':
      return sameNs && roles.has(`Role/${nameOf(object)}`);
    case 'ConfigMap':
      return sameNs && configMaps.has(nameOf(object));
    case 'Secret':
      return sameNs && secrets.has(nameOf(object));
    case 'Service':
      return sameNs && labelsMatch(asObject(object.spec).selector, podLabels);
    case 'PodMonitor':
      return labelsMatch(asObject(asObject(object.spec).selector).matchLabels, podLabels);
    case 'PriorityClass':
      return nameOf(object) === pod.priorityClassName;
    default:
      return false;
  }
}

/** The roles that the bindings among `objects` which belong to `ds` refer to, as `Kind/name`. */
function boundRoles(objects: readonly InputObject[], ds: Record<string, any>): Set<string> {
  const out = new Set<string>();
  for (const { object } of objects) {
    if ((object?.kind === 'ClusterRoleBinding' || object?.kind === 'RoleBinding') && belongs(object, ds, out)) {
      const ref = asObject(object.roleRef);
      if (typeof ref.name === 'string') out.add(`${ref.kind === 'Role' ? 'Role' : 'ClusterRole'}/${ref.name}`);
    }
  }
  return out;
}

/** A DaemonSet with the objects that belong to it. */
export interface ServiceInput {
  /** The DaemonSet (server fields stripped). */
  readonly daemonSet: InputObject;
  /** Its ServiceAccount, RBAC, mounted ConfigMaps and Secrets, node-local Service, monitors and PriorityClass. */
  readonly belonging: InputObject[];
}

/**
 * Groups `objects`: each DaemonSet with the objects that belong to it — the ServiceAccount it runs as, the bindings of
 * that account and their roles, the ConfigMaps and Secrets it mounts or reads, a Service selecting its pods (and a
 * ServiceMonitor selecting that Service), a PodMonitor selecting its pods, its PriorityClass. An object claimed by an
 * earlier DaemonSet stays with it. Everything else is returned in `others`.
 */
export function gatherObjects(objects: readonly InputObject[]): { services: ServiceInput[]; others: InputObject[] } {
  const claimed = new Set<InputObject>();
  const services: ServiceInput[] = [];
  for (const input of objects) {
    if (!isImportedDaemonSet(input.object)) continue;
    claimed.add(input);
    const roles = boundRoles(objects, input.object);
    const belonging = objects.filter((o) => !claimed.has(o) && isObject(o.object) && belongs(o.object, input.object, roles));
    for (const o of belonging) claimed.add(o);
    const services2 = belonging.filter((o) => o.object.kind === 'Service').map((o) => asObject(o.object.metadata).labels);
    const monitors = objects.filter(
      (o) =>
        !claimed.has(o) &&
        o.object?.kind === 'ServiceMonitor' &&
        services2.some((labels) => labelsMatch(asObject(asObject(o.object.spec).selector).matchLabels, asObject(labels))),
    );
    for (const o of monitors) claimed.add(o);
    services.push({ daemonSet: input, belonging: [...belonging, ...monitors] });
  }
  return { services, others: objects.filter((o) => !claimed.has(o)) };
}

/**
 * Identity of an object for matching input with output and for reports: `Kind namespace/name`, or `Kind name` for a
 * cluster-scoped kind (a ClusterRole has no namespace, whatever its metadata says).
 */
export function identityOf(object: unknown): string {
  const kind = asObject(object).kind;
  return `${String(kind)} ${isClusterScoped(kind) ? nameOf(object) : keyOf(object)}`;
}
