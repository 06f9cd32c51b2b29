/**
 * Declared host access: every hostPath is read-only unless declared writable with a reason, always carries a hostPath
 * `type`, and states its mount propagation.
 */

import { checkArguments, object, oneOf, opt, req, ShapeTable, str } from '../k8s/shape';

/** The hostPath `type`, checked by the kubelet before the mount. */
export enum HostPathType {
  /** An existing directory. */
  DIRECTORY = 'Directory',
  /** A directory, created (0755, kubelet's owner) when missing. */
  DIRECTORY_OR_CREATE = 'DirectoryOrCreate',
  /** An existing file. */
  FILE = 'File',
  /** A file, created (0644) when missing. */
  FILE_OR_CREATE = 'FileOrCreate',
  /** An existing UNIX socket. */
  SOCKET = 'Socket',
  /** An existing character device. */
  CHAR_DEVICE = 'CharDevice',
  /** An existing block device. */
  BLOCK_DEVICE = 'BlockDevice',
}

/** How mounts propagate between the host and the container. */
export enum MountPropagation {
  /** No propagation (the Kubernetes default). */
  NONE = 'None',
  /** Mounts made on the host later appear in the container (e.g. new filesystems for a metrics agent). */
  HOST_TO_CONTAINER = 'HostToContainer',
  /** Mounts propagate both ways; the API server requires the container to be privileged (CSI node drivers). */
  BIDIRECTIONAL = 'Bidirectional',
}

/** Options for a read-only host path. */
export interface HostPathOptions {
  /**
   * The hostPath type the kubelet checks before mounting.
   * @default HostPathType.DIRECTORY
   */
  readonly type?: HostPathType;
  /**
   * Where the path appears in the container.
   * @default the host path itself
   */
  readonly mountPath?: string;
  /**
   * Mount propagation.
   * @default MountPropagation.NONE (the field is omitted)
   */
  readonly propagation?: MountPropagation;
  /**
   * Name of the pod volume; must be a DNS-1123 label and unique in the pod.
   * @default derived from the path, e.g. `host-var-log` for `/var/log` (`host-root` for `/`)
   */
  readonly volumeName?: string;
}

/** Options for a writable host path: a reason is required. */
export interface WritableHostPathOptions extends HostPathOptions {
  /** Why the node service must write to the host (at least 10 characters); recorded in the manifest for reviewers. */
  readonly reason: string;
}

const HOST_PATH_OPTION_FIELDS: ShapeTable = {
  type: opt(oneOf('HostPathType', Object.values(HostPathType))),
  mountPath: opt(str),
  propagation: opt(oneOf('MountPropagation', Object.values(MountPropagation))),
  volumeName: opt(str),
};

/** A host directory, file, socket or device made visible to a container. Create with the static factories. */
export class HostPath {
  /** Mounts `path` read-only. */
  public static readOnly(path: string, options: HostPathOptions = {}): HostPath {
    checkArguments('HostPath.readOnly', arguments, [
      ['path', req(str)],
      ['options', opt(object('HostPathOptions', HOST_PATH_OPTION_FIELDS))],
    ]);
    return new HostPath(path, false, options ?? {}, undefined);
  }

  /** Mounts `path` writable; `options.reason` says why the service must write to the host. */
  public static writable(path: string, options: WritableHostPathOptions): HostPath {
    checkArguments('HostPath.writable', arguments, [
      ['path', req(str)],
      ['options', req(object('WritableHostPathOptions', { ...HOST_PATH_OPTION_FIELDS, reason: req(str) }))],
    ]);
    return new HostPath(path, true, options ?? ({} as WritableHostPathOptions), options?.reason);
  }

  /** The path on the host. */
  public readonly path: string;
  /** Whether the mount is writable. */
  public readonly isWritable: boolean;
  /** The hostPath type. */
  public readonly type: HostPathType;
  /** Where the path appears in the container. */
  public readonly mountPath: string;
  /** Mount propagation. */
  public readonly propagation: MountPropagation;
  /** The pod volume name. */
  public readonly volumeName: string;
  /** Why the mount is writable (writable mounts only). */
  public readonly reason?: string;

  private constructor(path: string, writable: boolean, options: HostPathOptions, reason: string | undefined) {
    this.path = path;
    this.isWritable = writable;
    options = typeof options === 'object' && options !== null ? options : {};
    this.type = options.type ?? HostPathType.DIRECTORY;
    this.mountPath = options.mountPath ?? path;
    this.propagation = options.propagation ?? MountPropagation.NONE;
    this.volumeName = options.volumeName ?? (typeof path === 'string' ? HostPath.volumeNameFor(path) : 'host-path');
    this.reason = reason;
  }

  /** The default volume name for a host path: `host-` plus the path's elements joined by `-`, cut to 63 characters. */
  public static volumeNameFor(path: string): string {
    checkArguments('HostPath.volumeNameFor', arguments, [['path', req(str)]]);
    const slug = String(path)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
    return `host-${slug || 'root'}`.slice(0, 63).replace(/-+$/, '');
  }
}
