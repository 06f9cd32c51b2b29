/**
 * The Kubernetes versions whose API fields the library knows, and their grammar. Loads no field data, so that
 * option parsing stays cheap.
 */

/** The Kubernetes versions whose fields are known, oldest first. */
export enum KubernetesVersion {
  /** Kubernetes 1.28 (the library's default target). */
  V1_28 = '1.28',
  /** Kubernetes 1.29. */
  V1_29 = '1.29',
  /** Kubernetes 1.30. */
  V1_30 = '1.30',
  /** Kubernetes 1.31. */
  V1_31 = '1.31',
  /** Kubernetes 1.32. */
  V1_32 = '1.32',
  /** Kubernetes 1.33. */
  V1_33 = '1.33',
}

/** The supported versions, oldest first. */
export const KUBERNETES_VERSIONS: readonly KubernetesVersion[] = Object.values(KubernetesVersion);

/** The supported versions as help texts write them: `1.28 to 1.33`. */
export const KUBERNETES_VERSION_RANGE = `${KUBERNETES_VERSIONS[0]} to ${KUBERNETES_VERSIONS[KUBERNETES_VERSIONS.length - 1]}`;

/** The default target version. */
export const DEFAULT_KUBERNETES_VERSION = KubernetesVersion.V1_28;

/**
 * Why `value` is not a supported Kubernetes version, or `undefined`. Versions are written as `<major>.<minor>`
 * (`'1.30'`), as in {@link KubernetesVersion}.
 */
export function kubernetesVersionError(value: unknown): string | undefined {
  if (typeof value === 'string' && (KUBERNETES_VERSIONS as readonly string[]).includes(value)) return undefined;
  const supported = KUBERNETES_VERSIONS.join(', ');
  if (typeof value === 'number') {
    return `is the number ${value}; write the version as a string such as '1.30' (YAML reads 1.30 unquoted as 1.3), one of ${supported}`;
  }
  if (typeof value === 'string') {
    const m = /^v?(\d+)\.(\d+)(?:\.\d+)?$/.exec(value.trim());
    if (m && (KUBERNETES_VERSIONS as readonly string[]).includes(`${m[1]}.${m[2]}`) && value !== `${m[1]}.${m[2]}`) {
      return `must be a minor version written as '${m[1]}.${m[2]}' (one of ${supported})`;
    }
    return `is not a supported Kubernetes version (one of ${supported})`;
  }
  return `must be a Kubernetes version string, one of ${supported}`;
}

/** The minor number of a `1.<minor>` version. */
export function minor(version: string): number {
  return Number(version.split('.')[1]);
}

/** A Kubernetes version as read from a flag or a file: the version, or why it is not one. */
export interface ParsedKubernetesVersion {
  /** The version, when `value` is one of {@link KUBERNETES_VERSIONS}. */
  readonly version?: KubernetesVersion;
  /** Its minor number (`30` for `1.30`), when `value` is a version. */
  readonly minor?: number;
  /** Why `value` is not a supported version (see {@link kubernetesVersionError}), otherwise undefined. */
  readonly error?: string;
}

/**
 * Reads a Kubernetes version with the one grammar every command, configuration file, cluster version file and
 * construct uses: `<major>.<minor>`, one of {@link KUBERNETES_VERSIONS}. Surrounding whitespace is ignored (a version
 * file ends with a newline); anything else is an error, with the message of {@link kubernetesVersionError}.
 */
export function parseKubernetesVersion(value: unknown): ParsedKubernetesVersion {
  const text = typeof value === 'string' ? value.trim() : value;
  const error = kubernetesVersionError(text);
  if (error !== undefined) return { error };
  return { version: text as KubernetesVersion, minor: minor(text as string) };
}
