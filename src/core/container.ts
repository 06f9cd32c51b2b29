/**
 * Typed container intent for node services: image, command, environment (including the node name from the downward
 * API), ports, probes, resources, host paths and other mounts, and a per-container security context that is secure by
 * default.
 */

import { ApiObject } from 'cdk8s';
import type { IConfigMap, ISecret } from 'cdk8s-plus-28';
import type { ConfigSource } from './config-hash';
import { HostPath } from './host-path';
import { bool, checkArguments, implementing, instance, int, json, list, map, object, opt, req, ShapeTable, str } from '../k8s/shape';
import type { ContainerOptions, ContainerSecurityOptions, PrivilegeOptions } from './props';

/** Downward API fields a node service commonly needs. */
export enum EnvField {
  /** The node's name (`spec.nodeName`): lets an agent watch only its own node's pods. */
  NODE_NAME = 'spec.nodeName',
  /** The node's primary IP (`status.hostIP`). */
  NODE_IP = 'status.hostIP',
  /** The pod's name. */
  POD_NAME = 'metadata.name',
  /** The pod's namespace. */
  POD_NAMESPACE = 'metadata.namespace',
  /** The pod's IP. */
  POD_IP = 'status.podIP',
  /** The pod's service account name. */
  SERVICE_ACCOUNT = 'spec.serviceAccountName',
}

/** Network protocol of a container port. */
export enum Protocol {
  /** TCP. */
  TCP = 'TCP',
  /** UDP. */
  UDP = 'UDP',
  /** SCTP. */
  SCTP = 'SCTP',
}

/** When the kubelet pulls the image. */
export enum ImagePullPolicy {
  /** Pull only when the image is not on the node (right for pinned tags and digests). */
  IF_NOT_PRESENT = 'IfNotPresent',
  /** Pull on every container start. */
  ALWAYS = 'Always',
  /** Never pull. */
  NEVER = 'Never',
}

/** A port the container listens on. */
export interface PortSpec {
  /** Port name: at most 15 lower-case alphanumerics or '-', with a letter; unique in the container. */
  readonly name: string;
  /** Port number in the container (1–65535). */
  readonly containerPort: number;
  /**
   * Protocol.
   * @default Protocol.TCP
   */
  readonly protocol?: Protocol;
  /**
   * Port on the node. With `hostNetwork` it must equal `containerPort` (and is set to it).
   * @default no host port (with hostNetwork: containerPort)
   */
  readonly hostPort?: number;
}

/** Timing options shared by all probes. */
export interface ProbeOptions {
  /**
   * Seconds after start before the first probe.
   * @default 0
   */
  readonly initialDelaySeconds?: number;
  /**
   * Seconds between probes.
   * @default 10
   */
  readonly periodSeconds?: number;
  /**
   * Seconds before a probe times out.
   * @default 1
   */
  readonly timeoutSeconds?: number;
  /**
   * Consecutive failures before the probe fails.
   * @default 3
   */
  readonly failureThreshold?: number;
}

/** Shape of {@link ProbeOptions}. @internal */
const PROBE_OPTION_FIELDS: ShapeTable = {
  initialDelaySeconds: opt(int),
  periodSeconds: opt(int),
  timeoutSeconds: opt(int),
  failureThreshold: opt(int),
};
/** Shape of {@link ProbeOptions}. @internal */
export const PROBE_OPTIONS_SHAPE = object('ProbeOptions', PROBE_OPTION_FIELDS);
const HTTP_PROBE_OPTIONS = opt(object('HttpProbeOptions', { ...PROBE_OPTION_FIELDS, host: opt(str), https: opt(bool) }));
const PROBE_OPTIONS = opt(PROBE_OPTIONS_SHAPE);
const NAME = req(str);
const PREFIX = opt(str);
const MOUNT_PATH = req(str);
const MOUNT_OPTION_FIELDS: ShapeTable = { volumeName: opt(str), readOnly: opt(bool), subPath: opt(str) };
const MOUNT_OPTIONS = opt(object('MountOptions', MOUNT_OPTION_FIELDS));
const CONFIG_MAP = req(implementing('IConfigMap (a cdk8s-plus ConfigMap)', { name: req(str) }));
const SECRET = req(implementing('ISecret (a cdk8s-plus Secret)', { name: req(str) }));
const API_OBJECT = req(instance(ApiObject, 'new ApiObject(scope, id, { apiVersion, kind, ... })'));

/** The seccomp profile of a container. Create with the static factories. */
export class SeccompProfile {
  /** The container runtime's default profile (the default, and what Pod Security restricted asks for). */
  public static runtimeDefault(): SeccompProfile {
    checkArguments('SeccompProfile.runtimeDefault', arguments, []);
    return new SeccompProfile('RuntimeDefault', undefined, undefined);
  }

  /**
   * A profile file on the node, relative to the kubelet's seccomp directory (e.g. `profiles/falco.json`): the way to
   * allow the extra syscalls of an eBPF sensor without turning the filter off.
   */
  public static localhost(path: string): SeccompProfile {
    checkArguments('SeccompProfile.localhost', arguments, [['path', req(str)]]);
    return new SeccompProfile('Localhost', path, undefined);
  }

  /** No syscall filter at all; `reason` (at least 10 characters) is recorded in the manifest. */
  public static unconfined(reason: string): SeccompProfile {
    checkArguments('SeccompProfile.unconfined', arguments, [['reason', req(str)]]);
    return new SeccompProfile('Unconfined', undefined, reason);
  }

  /** `RuntimeDefault`, `Localhost` or `Unconfined`. */
  public readonly type: string;
  /** The Localhost profile path. */
  public readonly localhostProfile?: string;
  /** Why the container runs Unconfined. */
  public readonly reason?: string;

  private constructor(type: string, localhostProfile: string | undefined, reason: string | undefined) {
    this.type = type;
    this.localhostProfile = localhostProfile;
    this.reason = reason;
  }
}

/** Options of an HTTP probe. */
export interface HttpProbeOptions extends ProbeOptions {
  /**
   * Host to connect to, e.g. `127.0.0.1` for a health endpoint that listens on loopback only (host-network agents).
   * @default the pod IP
   */
  readonly host?: string;
  /**
   * Use HTTPS (the certificate is not verified).
   * @default false (HTTP)
   */
  readonly https?: boolean;
}

/** A readiness, liveness or startup probe. Create with the static factories. */
export class Probe {
  /**
   * An HTTP GET probe of `path` on the container port named `portName` (one of the container's `ports`; the probe
   * follows the port if its number changes). For a port number, use {@link Probe.httpGetOnPort}.
   */
  public static httpGet(path: string, portName: string, options: HttpProbeOptions = {}): Probe {
    checkArguments('Probe.httpGet', arguments, [
      ['path', req(str)],
      ['portName', req(str), 'for a port number, use Probe.httpGetOnPort(path, port)'],
      ['options', HTTP_PROBE_OPTIONS],
    ]);
    return Probe.http(path, portName, 'name', options);
  }

  /** An HTTP GET probe of `path` on port number `port` (1–65535). For a named container port, use {@link Probe.httpGet}. */
  public static httpGetOnPort(path: string, port: number, options: HttpProbeOptions = {}): Probe {
    checkArguments('Probe.httpGetOnPort', arguments, [
      ['path', req(str)],
      ['port', req(int), 'for a named port, use Probe.httpGet(path, portName)'],
      ['options', HTTP_PROBE_OPTIONS],
    ]);
    return Probe.http(path, port, 'number', options);
  }

  /**
   * A TCP connect probe on the container port named `portName` (one of the container's `ports`). For a port number,
   * use {@link Probe.tcpSocketOnPort}.
   */
  public static tcpSocket(portName: string, options: ProbeOptions = {}): Probe {
    checkArguments('Probe.tcpSocket', arguments, [
      ['portName', req(str), 'for a port number, use Probe.tcpSocketOnPort(port)'],
      ['options', PROBE_OPTIONS],
    ]);
    return new Probe({ tcpSocket: { port: portName }, portBy: 'name' }, options ?? {});
  }

  /** A TCP connect probe on port number `port` (1–65535). For a named container port, use {@link Probe.tcpSocket}. */
  public static tcpSocketOnPort(port: number, options: ProbeOptions = {}): Probe {
    checkArguments('Probe.tcpSocketOnPort', arguments, [
      ['port', req(int), 'for a named port, use Probe.tcpSocket(portName)'],
      ['options', PROBE_OPTIONS],
    ]);
    return new Probe({ tcpSocket: { port }, portBy: 'number' }, options ?? {});
  }

  private static http(path: string, port: unknown, portBy: 'name' | 'number', options: HttpProbeOptions): Probe {
    const { host, https, ...timing } = options ?? {};
    return new Probe({ httpGet: { path, port, scheme: https ? 'HTTPS' : 'HTTP', ...(host ? { host } : {}) }, portBy }, timing);
  }

  /** A probe that runs `command` in the container; exit code 0 is success. */
  public static exec(command: string[], options: ProbeOptions = {}): Probe {
    checkArguments('Probe.exec', arguments, [
      ['command', req(list(str))],
      ['options', PROBE_OPTIONS],
    ]);
    return new Probe({ exec: { command: Array.isArray(command) ? [...command] : command } }, options ?? {});
  }

  /** A gRPC health-check probe on `port`, optionally for a named `service`. */
  public static grpc(port: number, service?: string, options: ProbeOptions = {}): Probe {
    checkArguments('Probe.grpc', arguments, [
      ['port', req(int), 'pass the port number, from 1 to 65535 (gRPC probes take no port name)'],
      ['service', opt(str)],
      ['options', PROBE_OPTIONS],
    ]);
    return new Probe({ grpc: service ? { port, service } : { port }, portBy: 'number' }, options ?? {});
  }

  /** @internal */
  public readonly _handler: any;
  /** Timing options. */
  public readonly options: ProbeOptions;

  private constructor(handler: any, options: ProbeOptions) {
    this._handler = handler;
    this.options = options;
  }
}

/** Compute resources of a container. Quantities use Kubernetes syntax (`100m`, `128Mi`). */
export interface Resources {
  /** CPU request (what the scheduler reserves on every node). */
  readonly cpuRequest: string;
  /** Memory request. */
  readonly memoryRequest: string;
  /** Memory limit (required: a node agent without one can take a node's memory). */
  readonly memoryLimit: string;
  /**
   * CPU limit. Node agents usually run without one to avoid throttling.
   * @default no CPU limit
   */
  readonly cpuLimit?: string;
  /**
   * Ephemeral-storage request.
   * @default none
   */
  readonly ephemeralStorageRequest?: string;
  /**
   * Ephemeral-storage limit.
   * @default none
   */
  readonly ephemeralStorageLimit?: string;
  /**
   * Extended resources (e.g. `nvidia.com/gpu`); request and limit are set to the same value, as the API requires.
   * @default none
   */
  readonly extended?: { [resource: string]: string };
}

/** A source of environment variables for a whole ConfigMap or Secret. */
export class EnvSource {
  /** All keys of the named ConfigMap. */
  public static configMap(name: string, prefix?: string): EnvSource {
    checkArguments('EnvSource.configMap', arguments, [
      ['name', NAME],
      ['prefix', PREFIX],
    ]);
    return new EnvSource({ configMapRef: { name }, ...(prefix ? { prefix } : {}) }, name);
  }

  /** All keys of a cdk8s-plus ConfigMap; one defined in the app rolls the pods when its content changes (see `configHash`). */
  public static fromConfigMap(configMap: IConfigMap, prefix?: string): EnvSource {
    checkArguments('EnvSource.fromConfigMap', arguments, [
      ['configMap', CONFIG_MAP],
      ['prefix', PREFIX],
    ]);
    return EnvSource.referencing({ kind: 'ConfigMap', scope: configMap }, 'configMapRef', configMap?.name, prefix);
  }

  /** All keys of a ConfigMap given as a raw API object of the app (kind `ConfigMap`); it rolls the pods when its content changes. */
  public static fromConfigMapObject(configMap: ApiObject, prefix?: string): EnvSource {
    checkArguments('EnvSource.fromConfigMapObject', arguments, [
      ['configMap', API_OBJECT],
      ['prefix', PREFIX],
    ]);
    return EnvSource.referencing({ kind: 'ConfigMap', scope: configMap }, 'configMapRef', configMap?.name, prefix);
  }

  /** All keys of the named Secret. */
  public static secret(name: string, prefix?: string): EnvSource {
    checkArguments('EnvSource.secret', arguments, [
      ['name', NAME],
      ['prefix', PREFIX],
    ]);
    return new EnvSource({ secretRef: { name }, ...(prefix ? { prefix } : {}) }, name);
  }

  /** All keys of a cdk8s-plus Secret; one defined in the app rolls the pods when its content changes (see `configHash`). */
  public static fromSecret(secret: ISecret, prefix?: string): EnvSource {
    checkArguments('EnvSource.fromSecret', arguments, [
      ['secret', SECRET],
      ['prefix', PREFIX],
    ]);
    return EnvSource.referencing({ kind: 'Secret', scope: secret }, 'secretRef', secret?.name, prefix);
  }

  /** All keys of a Secret given as a raw API object of the app (kind `Secret`); it rolls the pods when its content changes. */
  public static fromSecretObject(secret: ApiObject, prefix?: string): EnvSource {
    checkArguments('EnvSource.fromSecretObject', arguments, [
      ['secret', API_OBJECT],
      ['prefix', PREFIX],
    ]);
    return EnvSource.referencing({ kind: 'Secret', scope: secret }, 'secretRef', secret?.name, prefix);
  }

  private static referencing(config: ConfigSource, ref: string, name: string, prefix: string | undefined): EnvSource {
    return new EnvSource({ [ref]: { name }, ...(prefix ? { prefix } : {}) }, name, config);
  }

  /** @internal */
  public readonly _spec: any;
  /** The referenced object's name. */
  public readonly name: string;
  /** @internal */
  public readonly _config?: ConfigSource;

  private constructor(spec: any, name: string, config?: ConfigSource) {
    this._spec = spec;
    this.name = name;
    this._config = config;
  }
}

/** Options for a non-host volume mount. */
export interface MountOptions {
  /**
   * Pod volume name (DNS-1123 label, unique in the pod).
   * @default derived from the source
   */
  readonly volumeName?: string;
  /**
   * Mount read-only.
   * @default true for ConfigMaps and Secrets, false for emptyDir
   */
  readonly readOnly?: boolean;
  /**
   * Mount only this key or sub-path of the volume.
   * @default the whole volume
   */
  readonly subPath?: string;
}

/** Options for an emptyDir mount. */
export interface EmptyDirOptions extends MountOptions {
  /**
   * Size limit (a quantity such as `64Mi`).
   * @default no limit
   */
  readonly sizeLimit?: string;
  /**
   * Back the directory with memory (tmpfs).
   * @default false
   */
  readonly memory?: boolean;
}

/** A mount of a pod-local volume (emptyDir, ConfigMap, Secret). Host paths use {@link HostPath}. */
export class Mount {
  /** A scratch directory (writable), e.g. `/tmp` for a read-only root filesystem. */
  public static emptyDir(mountPath: string, options: EmptyDirOptions = {}): Mount {
    checkArguments('Mount.emptyDir', arguments, [
      ['mountPath', MOUNT_PATH],
      ['options', opt(object('EmptyDirOptions', { ...MOUNT_OPTION_FIELDS, sizeLimit: opt(str), memory: opt(bool) }))],
    ]);
    options = options ?? {};
    const source: any = {};
    if (options.memory) source.medium = 'Memory';
    if (options.sizeLimit) source.sizeLimit = options.sizeLimit;
    const name = options.volumeName ?? `tmp-${slug(mountPath)}`;
    return new Mount(mountPath, name, { emptyDir: source }, options.readOnly ?? false, options.subPath);
  }

  /** The named ConfigMap (read-only by default). */
  public static configMap(configMapName: string, mountPath: string, options: MountOptions = {}): Mount {
    checkArguments('Mount.configMap', arguments, [
      ['configMapName', NAME],
      ['mountPath', MOUNT_PATH],
      ['options', MOUNT_OPTIONS],
    ]);
    options = options ?? {};
    const name = options.volumeName ?? `cm-${slug(configMapName)}`;
    return new Mount(mountPath, name, { configMap: { name: configMapName } }, options.readOnly ?? true, options.subPath);
  }

  /**
   * A cdk8s-plus ConfigMap (read-only by default); one defined in the app rolls the pods when its content changes (see
   * `configHash`).
   */
  public static fromConfigMap(configMap: IConfigMap, mountPath: string, options: MountOptions = {}): Mount {
    checkArguments('Mount.fromConfigMap', arguments, [
      ['configMap', CONFIG_MAP],
      ['mountPath', MOUNT_PATH],
      ['options', MOUNT_OPTIONS],
    ]);
    return Mount.configMap(configMap?.name, mountPath, options).referencing({ kind: 'ConfigMap', scope: configMap });
  }

  /** A ConfigMap given as a raw API object of the app (kind `ConfigMap`, read-only by default); it rolls the pods when its content changes. */
  public static fromConfigMapObject(configMap: ApiObject, mountPath: string, options: MountOptions = {}): Mount {
    checkArguments('Mount.fromConfigMapObject', arguments, [
      ['configMap', API_OBJECT],
      ['mountPath', MOUNT_PATH],
      ['options', MOUNT_OPTIONS],
    ]);
    return Mount.configMap(configMap?.name, mountPath, options).referencing({ kind: 'ConfigMap', scope: configMap });
  }

  /** The named Secret (read-only by default). */
  public static secret(secretName: string, mountPath: string, options: MountOptions = {}): Mount {
    checkArguments('Mount.secret', arguments, [
      ['secretName', NAME],
      ['mountPath', MOUNT_PATH],
      ['options', MOUNT_OPTIONS],
    ]);
    options = options ?? {};
    const name = options.volumeName ?? `secret-${slug(secretName)}`;
    return new Mount(mountPath, name, { secret: { secretName } }, options.readOnly ?? true, options.subPath);
  }

  /**
   * A cdk8s-plus Secret (read-only by default); one defined in the app rolls the pods when its content changes (see
   * `configHash`).
   */
  public static fromSecret(secret: ISecret, mountPath: string, options: MountOptions = {}): Mount {
    checkArguments('Mount.fromSecret', arguments, [
      ['secret', SECRET],
      ['mountPath', MOUNT_PATH],
      ['options', MOUNT_OPTIONS],
    ]);
    return Mount.secret(secret?.name, mountPath, options).referencing({ kind: 'Secret', scope: secret });
  }

  /** A Secret given as a raw API object of the app (kind `Secret`, read-only by default); it rolls the pods when its content changes. */
  public static fromSecretObject(secret: ApiObject, mountPath: string, options: MountOptions = {}): Mount {
    checkArguments('Mount.fromSecretObject', arguments, [
      ['secret', API_OBJECT],
      ['mountPath', MOUNT_PATH],
      ['options', MOUNT_OPTIONS],
    ]);
    return Mount.secret(secret?.name, mountPath, options).referencing({ kind: 'Secret', scope: secret });
  }

  /** Where the volume appears in the container. */
  public readonly mountPath: string;
  /** The pod volume name. */
  public readonly volumeName: string;
  /** Whether the mount is read-only. */
  public readonly readOnly: boolean;
  /** Sub-path of the volume, if any. */
  public readonly subPath?: string;
  /** @internal */
  public readonly _source: any;
  /** @internal */
  public readonly _config?: ConfigSource;

  private constructor(mountPath: string, volumeName: string, source: any, readOnly: boolean, subPath?: string, config?: ConfigSource) {
    this.mountPath = mountPath;
    this.volumeName = volumeName;
    this._source = source;
    this.readOnly = readOnly;
    this.subPath = subPath;
    this._config = config;
  }

  private referencing(config: ConfigSource): Mount {
    return new Mount(this.mountPath, this.volumeName, this._source, this.readOnly, this.subPath, config);
  }
}

/** A DNS-1123 label fragment derived from `value` (derived volume names stay valid; given ones are never changed). */
function slug(value: string): string {
  const text =
    String(value)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'root';
  return text.slice(0, 50).replace(/-+$/, '');
}

/** One container of a node service. */
export interface ContainerSpec extends ContainerOptions, PrivilegeOptions, ContainerSecurityOptions {
  /** Container name (DNS-1123 label), unique across containers and init containers. */
  readonly name: string;
  /**
   * Ports.
   * @default none
   */
  readonly ports?: PortSpec[];
  /**
   * Host paths mounted into this container (read-only unless declared writable).
   * @default none
   */
  readonly hostPaths?: HostPath[];
  /**
   * Linux capabilities to add (names without `CAP_`); all others are dropped.
   * @default none (drop ALL)
   */
  readonly capabilities?: string[];
}

/** Shape of {@link Resources}. @internal */
export const RESOURCES_SHAPE: ShapeTable = {
  // Required, but reported missing with the quantities' grammar (renderResources), so that one error lists both.
  cpuRequest: opt(str),
  memoryRequest: opt(str),
  memoryLimit: opt(str),
  cpuLimit: opt(str),
  ephemeralStorageRequest: opt(str),
  ephemeralStorageLimit: opt(str),
  extended: opt(map(str)),
};

/** Shape of a list of {@link Mount}s. @internal */
export const MOUNTS_SHAPE = list(
  instance(Mount, 'Mount.emptyDir, Mount.configMap, Mount.secret or Mount.fromConfigMap', {
    mountPath: req(str),
    volumeName: req(str),
    readOnly: req(bool),
    subPath: opt(str),
    _source: req(json),
    _config: opt(json),
  }),
);
