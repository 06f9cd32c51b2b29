/**
 * Security widening between two versions of a DaemonSet: host access, privilege and API permissions the new version
 * has that the old one did not. Each category is a small function over the two pod templates (or, for RBAC and Pod
 * Security, over the objects around them). The caller picks what to compare with: for an added DaemonSet nothing (all
 * of its access is new), for an added canary its stable DaemonSet.
 */

import type {
  WireContainer,
  WireDaemonSet,
  WireEphemeralContainer,
  WirePodSpec,
  WirePodTemplateSpec,
  WireRole,
  WireRoleBinding,
  WireSubject,
} from '../k8s/wire';
import { HostPort, podHostPorts } from '../coverage/resources';
import { InputObject, namespaceOf, nameOf } from './objects';

/** A container of any of the pod's lists (ephemeral containers have the same security fields). */
type AnyContainer = WireContainer | WireEphemeralContainer;

/** The container lists of a pod spec. */
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** What kind of access widened. The values are the strings of the JSON output and of `--fail-on`. */
export enum WideningCategory {
  /** A host path that was not mounted before. */
  HOST_PATH = 'host-path',
  /** A host path mounted read-only before is now writable. */
  HOST_PATH_WRITABLE = 'host-path-writable',
  /** A Linux capability added, or `drop: [ALL]` given up (the runtime's default set is back). */
  CAPABILITY = 'capability',
  /** A container became privileged or may escalate privileges. */
  PRIVILEGED = 'privileged',
  /** The pod joins the node's network, PID or IPC namespace. */
  HOST_NAMESPACE = 'host-namespace',
  /** A new host port (after host-network defaulting: every container port of a host-network pod is a host port). */
  HOST_PORT = 'host-port',
  /** A container's seccomp profile went from RuntimeDefault/Localhost to Unconfined (or none). */
  SECCOMP = 'seccomp',
  /** A container's AppArmor profile became `unconfined`. */
  APPARMOR = 'apparmor',
  /** The DaemonSet's ServiceAccount may do something it could not before (a verb, resource or URL). */
  RBAC = 'rbac',
  /** The enforced Pod Security level of the DaemonSet's namespace went down. */
  POD_SECURITY = 'pod-security',
}

/** Every category, in report order. */
export const WIDENING_CATEGORIES: readonly WideningCategory[] = Object.values(WideningCategory);

/** One widening. */
export interface Widening {
  /** What widened. */
  readonly category: WideningCategory;
  /** Where, in the new DaemonSet (or the RBAC / Namespace object). */
  readonly path: string;
  /** What changed, in words. */
  readonly detail: string;
}

function containersOf(spec: WirePodSpec | undefined): Array<{ c: AnyContainer | undefined; where: string }> {
  const out: Array<{ c: AnyContainer | undefined; where: string }> = [];
  for (const list of CONTAINER_LISTS) {
    const items: (AnyContainer | undefined)[] | undefined = spec?.[list];
    if (!Array.isArray(items)) continue;
    items.forEach((c, i) => out.push({ c, where: `spec.template.spec.${list}[${typeof c?.name === 'string' ? c.name : i}]` }));
  }
  return out;
}

function containerByName(spec: WirePodSpec | undefined, name: unknown): AnyContainer | undefined {
  if (typeof name !== 'string') return undefined;
  for (const list of CONTAINER_LISTS) {
    const items: (AnyContainer | undefined)[] | undefined = spec?.[list];
    const found = Array.isArray(items) ? items.find((c) => c?.name === name) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Host paths the pod mounts, normalised (no trailing slash), with whether some mount of them is writable. */
function hostPaths(spec: WirePodSpec | undefined): Map<string, boolean> {
  const volumes = new Map<string, string>();
  for (const v of Array.isArray(spec?.volumes) ? spec.volumes : []) {
    if (typeof v?.name === 'string' && typeof v?.hostPath?.path === 'string') volumes.set(v.name, normalisePath(v.hostPath.path));
  }
  const out = new Map<string, boolean>();
  for (const { c } of containersOf(spec)) {
    for (const m of Array.isArray(c?.volumeMounts) ? c.volumeMounts : []) {
      const path = typeof m?.name === 'string' ? volumes.get(m.name) : undefined;
      if (path === undefined) continue;
      out.set(path, (out.get(path) ?? false) || m.readOnly !== true);
    }
  }
  return out;
}

function normalisePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.length === 0 ? '/' : trimmed;
}

/** Whether `path` is `base` or below it. */
function under(path: string, base: string): boolean {
  return base === '/' || path === base || path.startsWith(`${base}/`);
}

function hostPathWidening(oldSpec: WirePodSpec | undefined, newSpec: WirePodSpec | undefined, out: Widening[]): void {
  const before = hostPaths(oldSpec);
  const after = hostPaths(newSpec);
  for (const [path, writable] of after) {
    const covering = [...before].filter(([base]) => under(path, base));
    if (covering.length === 0) {
      out.push({
        category: WideningCategory.HOST_PATH,
        path: 'spec.template.spec.volumes',
        detail: `new host path ${path} (${writable ? 'writable' : 'read-only'})`,
      });
    } else if (writable && !covering.some(([, w]) => w)) {
      out.push({
        category: WideningCategory.HOST_PATH_WRITABLE,
        path: 'spec.template.spec.volumes',
        detail: `host path ${path} is now writable (was read-only)`,
      });
    }
  }
}

function capabilitySet(c: AnyContainer | undefined, key: 'add' | 'drop'): Set<string> {
  const list = c?.securityContext?.capabilities?.[key];
  return new Set(
    Array.isArray(list) ? list.filter((x: unknown) => typeof x === 'string').map((x: string) => x.toUpperCase().replace(/^CAP_/, '')) : [],
  );
}

function capabilityWidening(oldSpec: WirePodSpec | undefined, newSpec: WirePodSpec | undefined, out: Widening[]): void {
  for (const { c, where } of containersOf(newSpec)) {
    const before = containerByName(oldSpec, c?.name);
    const added = capabilitySet(c, 'add');
    const addedBefore = capabilitySet(before, 'add');
    const newCaps = [...added].filter((cap) => !addedBefore.has(cap) && !addedBefore.has('ALL'));
    if (newCaps.length > 0) {
      out.push({
        category: WideningCategory.CAPABILITY,
        path: `${where}.securityContext.capabilities.add`,
        detail: `adds ${newCaps.sort().join(', ')}`,
      });
    }
    if (before !== undefined && capabilitySet(before, 'drop').has('ALL') && !capabilitySet(c, 'drop').has('ALL')) {
      out.push({
        category: WideningCategory.CAPABILITY,
        path: `${where}.securityContext.capabilities.drop`,
        detail: 'no longer drops ALL: the container runtime’s default capabilities are back',
      });
    }
  }
}

function privilegeWidening(oldSpec: WirePodSpec | undefined, newSpec: WirePodSpec | undefined, out: Widening[]): void {
  for (const { c, where } of containersOf(newSpec)) {
    const before = containerByName(oldSpec, c?.name);
    if (c?.securityContext?.privileged === true && before?.securityContext?.privileged !== true) {
      out.push({
        category: WideningCategory.PRIVILEGED,
        path: `${where}.securityContext.privileged`,
        detail: 'privileged: root on the node with every device and capability',
      });
    }
    // allowPrivilegeEscalation defaults to true; only an explicit false confines.
    if (before?.securityContext?.allowPrivilegeEscalation === false && c?.securityContext?.allowPrivilegeEscalation !== false) {
      out.push({
        category: WideningCategory.PRIVILEGED,
        path: `${where}.securityContext.allowPrivilegeEscalation`,
        detail: 'allowPrivilegeEscalation is no longer false: setuid binaries can gain privileges',
      });
    }
  }
}

function hostNamespaceWidening(oldSpec: WirePodSpec | undefined, newSpec: WirePodSpec | undefined, out: Widening[]): void {
  const names: Array<['hostNetwork' | 'hostPID' | 'hostIPC', string]> = [
    ['hostNetwork', 'network'],
    ['hostPID', 'PID'],
    ['hostIPC', 'IPC'],
  ];
  for (const [field, ns] of names) {
    if (newSpec?.[field] === true && oldSpec?.[field] !== true) {
      out.push({
        category: WideningCategory.HOST_NAMESPACE,
        path: `spec.template.spec.${field}`,
        detail: `joins the node’s ${ns} namespace (${field}: true)`,
      });
    }
  }
}

function portText(p: HostPort): string {
  return `${p.protocol} ${p.ip === '0.0.0.0' ? '' : `${p.ip}:`}${p.port}`;
}

function hostPortWidening(oldSpec: WirePodSpec | undefined, newSpec: WirePodSpec | undefined, out: Widening[]): void {
  const before = new Set(podHostPorts(oldSpec ?? {}, false).map((p) => p.key));
  const added = podHostPorts(newSpec ?? {}, false).filter((p) => !before.has(p.key));
  const seen = new Set<string>();
  for (const p of added) {
    if (seen.has(p.key)) continue;
    seen.add(p.key);
    out.push({
      category: WideningCategory.HOST_PORT,
      path: 'spec.template.spec.containers[].ports',
      detail: `binds host port ${portText(p)}`,
    });
  }
}

/** The effective seccomp profile type of a container: its own, else the pod's, else none. */
function seccompOf(spec: WirePodSpec | undefined, c: AnyContainer | undefined): string | undefined {
  const own = c?.securityContext?.seccompProfile?.type;
  if (typeof own === 'string') return own;
  const pod = spec?.securityContext?.seccompProfile?.type;
  return typeof pod === 'string' ? pod : undefined;
}

function confinedSeccomp(type: string | undefined): boolean {
  return type === 'RuntimeDefault' || type === 'Localhost';
}

function seccompWidening(oldSpec: WirePodSpec | undefined, newSpec: WirePodSpec | undefined, out: Widening[]): void {
  for (const { c, where } of containersOf(newSpec)) {
    const before = containerByName(oldSpec, c?.name);
    if (before === undefined) continue;
    const was = seccompOf(oldSpec, before);
    const now = seccompOf(newSpec, c);
    if (confinedSeccomp(was) && !confinedSeccomp(now)) {
      out.push({
        category: WideningCategory.SECCOMP,
        path: `${where}.securityContext.seccompProfile`,
        detail: `seccomp ${was} → ${now ?? 'none (Unconfined unless the kubelet defaults to RuntimeDefault)'}`,
      });
    }
  }
}

const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** The AppArmor profile of a container (`unconfined`, `runtime/default`, `localhost/<name>`), or undefined (the runtime's default). */
function appArmorOf(template: WirePodTemplateSpec | undefined, c: AnyContainer | undefined): string | undefined {
  const field = c?.securityContext?.appArmorProfile?.type ?? template?.spec?.securityContext?.appArmorProfile?.type;
  if (field === 'Unconfined') return 'unconfined';
  if (field === 'RuntimeDefault') return 'runtime/default';
  if (field === 'Localhost') return 'localhost';
  const annotation = template?.metadata?.annotations?.[`${APPARMOR_PREFIX}${c?.name}`];
  return typeof annotation === 'string' ? annotation : undefined;
}

function appArmorWidening(
  oldTemplate: WirePodTemplateSpec | undefined,
  newTemplate: WirePodTemplateSpec | undefined,
  out: Widening[],
): void {
  for (const { c, where } of containersOf(newTemplate?.spec)) {
    const now = appArmorOf(newTemplate, c);
    if (now !== 'unconfined') continue;
    const before = containerByName(oldTemplate?.spec, c?.name);
    if (before !== undefined && appArmorOf(oldTemplate, before) === 'unconfined') continue;
    out.push({
      category: WideningCategory.APPARMOR,
      path: where,
      detail: `AppArmor ${before === undefined ? 'unconfined' : `${appArmorOf(oldTemplate, before) ?? 'runtime default'} → unconfined`}`,
    });
  }
}

/**
 * Widening of one DaemonSet's pod template: host paths, capabilities, privilege, host namespaces, host ports, seccomp,
 * AppArmor. `oldTemplate` is `undefined` for an added DaemonSet.
 */
export function templateWidening(oldTemplate: WirePodTemplateSpec | undefined, newTemplate: WirePodTemplateSpec | undefined): Widening[] {
  const out: Widening[] = [];
  const oldSpec = oldTemplate?.spec;
  const newSpec = newTemplate?.spec;
  hostPathWidening(oldSpec, newSpec, out);
  capabilityWidening(oldSpec, newSpec, out);
  privilegeWidening(oldSpec, newSpec, out);
  hostNamespaceWidening(oldSpec, newSpec, out);
  hostPortWidening(oldSpec, newSpec, out);
  seccompWidening(oldSpec, newSpec, out);
  appArmorWidening(oldTemplate, newTemplate, out);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// RBAC

/** One permission: a verb on a resource of an API group (`resourceName` "*" for all names), or on a URL. */
interface Permission {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly name: string;
  readonly url: string;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function permissionsOfRules(rules: unknown): Permission[] {
  const out: Permission[] = [];
  for (const rule of Array.isArray(rules) ? rules : []) {
    const verbs = strings(rule?.verbs);
    for (const url of strings(rule?.nonResourceURLs)) for (const verb of verbs) out.push({ verb, group: '', resource: '', name: '', url });
    const groups = strings(rule?.apiGroups);
    const resources = strings(rule?.resources);
    const names = strings(rule?.resourceNames);
    for (const verb of verbs) {
      for (const group of groups) {
        for (const resource of resources) {
          for (const name of names.length > 0 ? names : ['*']) out.push({ verb, group, resource, name, url: '' });
        }
      }
    }
  }
  return out;
}

function wildcard(pattern: string, value: string): boolean {
  return pattern === '*' || pattern === value || (pattern.endsWith('*') && value.startsWith(pattern.slice(0, -1)));
}

/** Whether `held` grants at least `wanted` (RBAC matching: `*` verbs, groups, resources; `*` names = every name). */
function grants(held: Permission, wanted: Permission): boolean {
  if (!wildcard(held.verb, wanted.verb)) return false;
  if (wanted.url !== '') return held.url !== '' && wildcard(held.url, wanted.url);
  if (held.url !== '') return false;
  if (!wildcard(held.group, wanted.group)) return false;
  if (
    held.resource !== '*' &&
    held.resource !== wanted.resource &&
    !(held.resource.endsWith('/*') && wanted.resource.startsWith(held.resource.slice(0, -1)))
  ) {
    return false;
  }
  return held.name === '*' || held.name === wanted.name;
}

/** What a permission applies to: `events`, `daemonsets.apps`, `configmaps "name"`, or a URL. */
function permissionTarget(p: Permission): string {
  if (p.url !== '') return p.url;
  const resource = p.group === '' ? p.resource : `${p.resource}.${p.group}`;
  return p.name === '*' ? resource : `${resource} ${JSON.stringify(p.name)}`;
}

/** The roles bound to a ServiceAccount in the inputs, with where each binding is. */
function boundRoles(
  objects: readonly InputObject[],
  namespace: string,
  serviceAccount: string,
): Array<{ role: WireRole; binding: WireRoleBinding }> {
  const out: Array<{ role: WireRole; binding: WireRoleBinding }> = [];
  for (const { object } of objects) {
    const b: WireRoleBinding | undefined = object;
    if (b?.kind !== 'ClusterRoleBinding' && b?.kind !== 'RoleBinding') continue;
    const subjects: (WireSubject | undefined)[] = Array.isArray(b?.subjects) ? b.subjects : [];
    const bindingNs = namespaceOf(b);
    const matches = subjects.some(
      (s) =>
        (s?.kind === 'ServiceAccount' && s?.name === serviceAccount && (s?.namespace ?? bindingNs) === namespace) ||
        (s?.kind === 'Group' && (s?.name === 'system:serviceaccounts' || s?.name === `system:serviceaccounts:${namespace}`)) ||
        (s?.kind === 'User' && s?.name === `system:serviceaccount:${namespace}:${serviceAccount}`),
    );
    if (!matches) continue;
    if (b.kind === 'RoleBinding' && bindingNs !== namespace) continue;
    const ref = b?.roleRef;
    const role = objects.find(
      ({ object: r }) => r?.kind === ref?.kind && nameOf(r) === ref?.name && (r.kind === 'ClusterRole' || namespaceOf(r) === bindingNs),
    );
    if (role !== undefined) out.push({ role: role.object, binding: b });
  }
  return out;
}

/** The ServiceAccount a pod template runs as (`default` when unset). */
function serviceAccountOf(template: WirePodTemplateSpec | undefined): string {
  const sa = template?.spec?.serviceAccountName ?? template?.spec?.serviceAccount;
  return typeof sa === 'string' && sa.length > 0 ? sa : 'default';
}

function permissionsOf(objects: readonly InputObject[], namespace: string, serviceAccount: string): Permission[] {
  return boundRoles(objects, namespace, serviceAccount).flatMap(({ role }) => permissionsOfRules(role?.rules));
}

/**
 * New API permissions of a DaemonSet's ServiceAccount: the rules of the ClusterRoles and Roles bound to it (through
 * ClusterRoleBindings and RoleBindings in the same input) that grant something the old input did not grant it.
 * Aggregated ClusterRoles are read as given (their `rules` as written). For an added DaemonSet everything is new.
 */
export function rbacWidening(
  oldObjects: readonly InputObject[],
  oldDs: WireDaemonSet | undefined,
  newObjects: readonly InputObject[],
  newDs: WireDaemonSet,
): Widening[] {
  const namespace = namespaceOf(newDs);
  const sa = serviceAccountOf(newDs?.spec?.template);
  const after = permissionsOf(newObjects, namespace, sa);
  const before = oldDs === undefined ? [] : permissionsOf(oldObjects, namespaceOf(oldDs), serviceAccountOf(oldDs?.spec?.template));
  const added = after.filter((p) => !before.some((h) => grants(h, p)));
  if (added.length === 0) return [];
  // "create, patch events; get nodes/proxy"
  const verbsByTarget = new Map<string, Set<string>>();
  for (const p of added) {
    const target = permissionTarget(p);
    let verbs = verbsByTarget.get(target);
    if (!verbs) verbsByTarget.set(target, (verbs = new Set()));
    verbs.add(p.verb);
  }
  const texts = [...verbsByTarget]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([target, verbs]) => `${[...verbs].join(', ')} ${target}`);
  return [{ category: WideningCategory.RBAC, path: `ServiceAccount ${namespace}/${sa}`, detail: `may now ${texts.join('; ')}` }];
}

// ---------------------------------------------------------------------------------------------------------------
// Pod Security

/** Pod Security levels from the least to the most restrictive. */
const LEVELS = ['privileged', 'baseline', 'restricted'];
const ENFORCE = 'pod-security.kubernetes.io/enforce';

/**
 * The enforced Pod Security level of a namespace as the inputs give it: the `pod-security.kubernetes.io/enforce` label
 * of its Namespace object (`privileged` when the label is absent: that is the admission plugin's default), or
 * `undefined` when the inputs have no Namespace object of that name.
 */
export function enforcedLevel(objects: readonly InputObject[], namespace: string): string | undefined {
  const ns = objects.find(({ object }) => object?.kind === 'Namespace' && nameOf(object) === namespace);
  if (ns === undefined) return undefined;
  const label = ns.object?.metadata?.labels?.[ENFORCE];
  return typeof label === 'string' && LEVELS.includes(label) ? label : 'privileged';
}

/** A lower enforced level of the DaemonSet's namespace in the new input than in the old one (both must give the Namespace). */
export function podSecurityWidening(oldObjects: readonly InputObject[], newObjects: readonly InputObject[], namespace: string): Widening[] {
  const before = enforcedLevel(oldObjects, namespace);
  const after = enforcedLevel(newObjects, namespace);
  if (before === undefined || after === undefined || LEVELS.indexOf(after) >= LEVELS.indexOf(before)) return [];
  return [
    {
      category: WideningCategory.POD_SECURITY,
      path: `Namespace ${namespace} metadata.labels["${ENFORCE}"]`,
      detail: `enforced Pod Security level ${before} → ${after}`,
    },
  ];
}
