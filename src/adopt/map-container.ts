/**
 * One input container as a `ContainerSpec` expression: every field with a typed prop maps to it; what has none is
 * left for the escape hatch (the check finds it and `fixpoint.ts` carries it as a JSON patch). Human decisions the
 * library requires (a writable host path, `privileged`, an added capability) are stated with a reason that records
 * the input file and field, and a `REVIEW:` comment.
 */

import { asArray, asObject, isObject } from '../k8s/json';
import { arr, call, Expr, lit, member, obj, prop, Property } from './model';

/** Where a container is in the input, for reasons and comments. */
export interface ContainerContext {
  /** The input file. */
  readonly file: string;
  /** The JSON path of the container (`spec.template.spec.containers[agent]`). */
  readonly path: string;
  /** The pod's volumes by name. */
  readonly volumes: ReadonlyMap<string, Record<string, any>>;
  /** Variables of ConfigMaps and Secrets kept in the module, by `ConfigMap/name` and `Secret/name`. */
  readonly kept: ReadonlyMap<string, string>;
  /** Adds a named constant for a number and returns its expression. */
  readonly number: (name: string, value: number) => Expr;
}

const ENV_FIELDS: Readonly<Record<string, string>> = {
  'spec.nodeName': 'NODE_NAME',
  'status.hostIP': 'NODE_IP',
  'metadata.name': 'POD_NAME',
  'metadata.namespace': 'POD_NAMESPACE',
  'status.podIP': 'POD_IP',
  'spec.serviceAccountName': 'SERVICE_ACCOUNT',
};

const HOST_PATH_TYPES: Readonly<Record<string, string>> = {
  Directory: 'DIRECTORY',
  DirectoryOrCreate: 'DIRECTORY_OR_CREATE',
  File: 'FILE',
  FileOrCreate: 'FILE_OR_CREATE',
  Socket: 'SOCKET',
  CharDevice: 'CHAR_DEVICE',
  BlockDevice: 'BLOCK_DEVICE',
};

const PROPAGATIONS: Readonly<Record<string, string>> = {
  None: 'NONE',
  HostToContainer: 'HOST_TO_CONTAINER',
  Bidirectional: 'BIDIRECTIONAL',
};

const PULL_POLICIES: Readonly<Record<string, string>> = { IfNotPresent: 'IF_NOT_PRESENT', Always: 'ALWAYS', Never: 'NEVER' };

/** A constant name from words (`fluent-bit`, `http`, `port` → `FLUENT_BIT_HTTP_PORT`). */
export function constantName(...words: string[]): string {
  const name = words
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[0-9]/.test(name) ? `N_${name}` : name;
}

function strings(value: unknown): Expr | undefined {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return undefined;
  return lit(value);
}

/** Whether every entry of a plain env var is expressible as `env` (a string value) or `fieldEnv`. */
function envProps(container: Record<string, any>): Property[] {
  const plain: Property[] = [];
  const fields: Property[] = [];
  // The library renders `env` before `fieldEnv`; a plain variable after a field one keeps the rest for the escape hatch.
  let seenField = false;
  for (const e of asArray(container.env)) {
    const entry = asObject(e);
    if (typeof entry.name !== 'string') return [];
    const fieldPath = asObject(asObject(entry.valueFrom).fieldRef).fieldPath;
    const field = typeof fieldPath === 'string' ? ENV_FIELDS[fieldPath] : undefined;
    if (entry.valueFrom === undefined && !seenField)
      plain.push({ key: entry.name, value: lit(typeof entry.value === 'string' ? entry.value : '') });
    else if (
      field !== undefined &&
      Object.keys(entry.valueFrom).length === 1 &&
      Object.keys(asObject(entry.valueFrom.fieldRef)).every((k) => k === 'fieldPath' || k === 'apiVersion')
    ) {
      seenField = true;
      fields.push({ key: entry.name, value: member('EnvField', field) });
    } else break;
  }
  return [
    ...(plain.length > 0 ? [{ key: 'env', value: obj(plain) }] : []),
    ...(fields.length > 0 ? [{ key: 'fieldEnv', value: obj(fields) }] : []),
  ];
}

function envFromExpr(container: Record<string, any>): Expr | undefined {
  const items: Expr[] = [];
  for (const e of asArray(container.envFrom)) {
    const entry = asObject(e);
    const prefix = typeof entry.prefix === 'string' ? [lit(entry.prefix)] : [];
    const cm = asObject(entry.configMapRef).name;
    const secret = asObject(entry.secretRef).name;
    if (typeof cm === 'string') items.push(call('EnvSource', 'configMap', lit(cm), ...prefix));
    else if (typeof secret === 'string') items.push(call('EnvSource', 'secret', lit(secret), ...prefix));
  }
  return items.length > 0 ? arr(items) : undefined;
}

function portsExpr(container: Record<string, any>, ctx: ContainerContext): Expr | undefined {
  const items: Expr[] = [];
  for (const p of asArray(container.ports)) {
    const port = asObject(p);
    if (typeof port.name !== 'string' || typeof port.containerPort !== 'number') continue;
    items.push(
      obj([
        prop('name', lit(port.name)),
        prop('containerPort', ctx.number(constantName(String(container.name), port.name, 'port'), port.containerPort)),
        prop('protocol', typeof port.protocol === 'string' && port.protocol !== 'TCP' ? member('Protocol', port.protocol) : undefined),
        prop(
          'hostPort',
          typeof port.hostPort === 'number'
            ? ctx.number(constantName(String(container.name), port.name, 'host-port'), port.hostPort)
            : undefined,
        ),
      ]),
    );
  }
  return items.length > 0 ? arr(items) : undefined;
}

/** The expression of one host-path mount, with the REVIEW comment of a writable one. */
function hostPathExpr(
  mount: Record<string, any>,
  volume: Record<string, any>,
  where: string,
  ctx: ContainerContext,
): { expr: Expr; comment?: string } {
  const hostPath = asObject(volume.hostPath);
  const path = String(hostPath.path);
  const type = typeof hostPath.type === 'string' ? HOST_PATH_TYPES[hostPath.type] : undefined;
  const propagation = typeof mount.mountPropagation === 'string' ? PROPAGATIONS[mount.mountPropagation] : undefined;
  const writable = mount.readOnly !== true;
  const options = (reason?: string) =>
    obj([
      prop('reason', reason !== undefined ? lit(reason) : undefined),
      prop('type', type !== undefined ? member('HostPathType', type) : undefined),
      prop('mountPath', mount.mountPath !== path ? lit(mount.mountPath) : undefined),
      prop('propagation', propagation !== undefined && propagation !== 'NONE' ? member('MountPropagation', propagation) : undefined),
      prop('volumeName', lit(mount.name)),
    ]);
  if (!writable) return { expr: call('HostPath', 'readOnly', lit(path), options()) };
  const reason = `imported writable from ${ctx.file}: ${where}.readOnly is not true`;
  return {
    expr: call('HostPath', 'writable', lit(path), options(reason)),
    comment: `REVIEW: the input mounts ${path} writable; confirm the agent writes there, or make it HostPath.readOnly.`,
  };
}

function mountOptions(mount: Record<string, any>, defaultReadOnly: boolean): Expr {
  return obj([
    prop('volumeName', lit(mount.name)),
    prop('readOnly', (mount.readOnly === true) !== defaultReadOnly ? lit(mount.readOnly === true) : undefined),
    prop('subPath', typeof mount.subPath === 'string' ? lit(mount.subPath) : undefined),
  ]);
}

/** A config volume the typed mounts carry whole (no items, mode or optional flag). */
function plainConfigVolume(source: Record<string, any>, nameKey: string): boolean {
  return Object.keys(source).every((k) => k === nameKey);
}

/** The ConfigMap, Secret or emptyDir mount expression of a volume mount, if the volume has a typed mount. */
function podMountExpr(mount: Record<string, any>, volume: Record<string, any>, ctx: ContainerContext): Expr | undefined {
  const path = lit(mount.mountPath);
  if (isObject(volume.configMap) && plainConfigVolume(volume.configMap, 'name')) {
    const ref = ctx.kept.get(`ConfigMap/${volume.configMap.name}`);
    const options = mountOptions(mount, false);
    return ref !== undefined
      ? call('Mount', 'fromConfigMapObject', { type: 'ref', variable: ref }, path, options)
      : call('Mount', 'configMap', lit(volume.configMap.name), path, options);
  }
  if (isObject(volume.secret) && plainConfigVolume(volume.secret, 'secretName')) {
    return call('Mount', 'secret', lit(volume.secret.secretName), path, mountOptions(mount, false));
  }
  if (isObject(volume.emptyDir) && mount.subPath === undefined) {
    const e = volume.emptyDir;
    return call(
      'Mount',
      'emptyDir',
      path,
      obj([
        prop('volumeName', lit(mount.name)),
        prop('readOnly', mount.readOnly === true ? lit(true) : undefined),
        prop('memory', e.medium === 'Memory' ? lit(true) : undefined),
        prop('sizeLimit', typeof e.sizeLimit === 'string' ? lit(e.sizeLimit) : undefined),
      ]),
    );
  }
  return undefined;
}

/** Host paths and pod-local mounts of a container; volumes of other types are left for the escape hatch. */
function mountProps(container: Record<string, any>, ctx: ContainerContext): Property[] {
  const hostPaths: Expr[] = [];
  const hostComments: (string | undefined)[] = [];
  const mounts: Expr[] = [];
  asArray(container.volumeMounts).forEach((m) => {
    const mount = asObject(m);
    const volume = ctx.volumes.get(String(mount.name));
    if (volume === undefined || typeof mount.mountPath !== 'string') return;
    if (
      isObject(volume.hostPath) &&
      typeof volume.hostPath.path === 'string' &&
      volume.hostPath.path.startsWith('/') &&
      mount.subPath === undefined &&
      mount.subPathExpr === undefined
    ) {
      // A mount is cited by its mount path (the list's merge key), not its index: the library orders mounts itself.
      const { expr, comment } = hostPathExpr(mount, volume, `${ctx.path}.volumeMounts[${mount.mountPath}]`, ctx);
      hostPaths.push(expr);
      hostComments.push(comment);
      return;
    }
    if (isObject(volume.hostPath)) return;
    // ConfigMap and Secret volumes are mounted read-only by the kubelet whatever the mount says.
    const expr = podMountExpr({ ...mount, readOnly: isObject(volume.emptyDir) ? mount.readOnly : true }, volume, ctx);
    if (expr !== undefined) mounts.push(expr);
  });
  return [
    ...(hostPaths.length > 0 ? [{ key: 'hostPaths', value: arr(hostPaths, hostComments) }] : []),
    ...(mounts.length > 0 ? [{ key: 'mounts', value: arr(mounts) }] : []),
  ];
}

function resourcesExpr(container: Record<string, any>): Expr | undefined {
  const r = asObject(container.resources);
  const requests = asObject(r.requests);
  const limits = asObject(r.limits);
  const q = (v: unknown) => (typeof v === 'string' ? lit(v) : typeof v === 'number' ? lit(String(v)) : undefined);
  if (requests.cpu === undefined || requests.memory === undefined || limits.memory === undefined) return undefined;
  const known = new Set(['cpu', 'memory', 'ephemeral-storage']);
  const extended = Object.keys(limits).filter((k) => !known.has(k));
  if (Object.keys(requests).some((k) => !known.has(k) && requests[k] !== limits[k])) return undefined;
  return obj([
    prop('cpuRequest', q(requests.cpu)),
    prop('memoryRequest', q(requests.memory)),
    prop('memoryLimit', q(limits.memory)),
    prop('cpuLimit', q(limits.cpu)),
    prop('ephemeralStorageRequest', q(requests['ephemeral-storage'])),
    prop('ephemeralStorageLimit', q(limits['ephemeral-storage'])),
    prop('extended', extended.length > 0 ? obj(extended.map((k) => ({ key: k, value: q(limits[k]) ?? lit('') }))) : undefined),
  ]);
}

export { HOST_PATH_TYPES, PULL_POLICIES, strings, envProps, envFromExpr, portsExpr, mountProps, resourcesExpr };
