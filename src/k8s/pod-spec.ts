/**
 * Pod and container spec grammar of the Kubernetes 1.28 API server (`pkg/apis/core/validation`): the enumerations it
 * accepts, the names of referenced objects, environment variables and the downward API, DNS, sysctls and probes'
 * port references. Each error function returns `undefined` when the value is valid, or a sentence saying why not.
 */

import { showValue as show } from './json';
import { dns1123LabelError, dns1123SubdomainError, envVarNameError, portNameError, qualifiedNameError } from './names';
import { portNumberError } from './numbers';

/** hostPath `type` values (empty means no check). */
export const HOST_PATH_TYPES: readonly string[] = [
  '',
  'DirectoryOrCreate',
  'Directory',
  'FileOrCreate',
  'File',
  'Socket',
  'CharDevice',
  'BlockDevice',
];

/** Container port protocols. */
export const PORT_PROTOCOLS: readonly string[] = ['TCP', 'UDP', 'SCTP'];

/** Mount propagation modes. */
export const MOUNT_PROPAGATIONS: readonly string[] = ['None', 'HostToContainer', 'Bidirectional'];

/** Volume source fields of a Kubernetes 1.28 pod volume (exactly one must be set). */
export const VOLUME_SOURCES: readonly string[] = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
];

/** Image pull policies. */
export const IMAGE_PULL_POLICIES: readonly string[] = ['Always', 'IfNotPresent', 'Never'];

/** Pod DNS policies. */
export const DNS_POLICIES: readonly string[] = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];

/** Restart policies of a pod. */
export const RESTART_POLICIES: readonly string[] = ['Always', 'OnFailure', 'Never'];

/** Why `value` is not one of `allowed` (written as `name`), or `undefined`. Matching is case-sensitive, as in the API. */
export function enumError(value: unknown, allowed: readonly string[]): string | undefined {
  if (typeof value === 'string' && allowed.includes(value)) return undefined;
  const near = typeof value === 'string' ? allowed.find((a) => a.toLowerCase() === value.toLowerCase()) : undefined;
  const list = allowed.filter((a) => a !== '').join(', ');
  return near ? `must be one of ${list} (case matters: did you mean '${near}'?)` : `must be one of ${list}`;
}

/** Why `value` is not an image pull policy (`Always`, `IfNotPresent`, `Never`), or `undefined`. */
export function imagePullPolicyError(value: unknown): string | undefined {
  return enumError(value, IMAGE_PULL_POLICIES);
}

/** Why `value` is not a DNS policy (`ClusterFirstWithHostNet`, `ClusterFirst`, `Default`, `None`), or `undefined`. */
export function dnsPolicyError(value: unknown): string | undefined {
  return enumError(value, DNS_POLICIES);
}

/** The most nameservers, search domains and total search length a pod's `dnsConfig` may have (1.28). */
export const DNS_CONFIG_LIMITS = { nameservers: 3, searches: 32, searchLength: 2048 } as const;

/**
 * Why a pod's `dnsConfig` does not fit its `dnsPolicy`, or `undefined`: with `None` a dnsConfig with at least one
 * nameserver is required; at most 3 nameservers, 32 search domains of 2048 characters in all, each a DNS subdomain.
 */
export function dnsConfigError(
  dnsPolicy: unknown,
  dnsConfig: { nameservers?: unknown; searches?: unknown } | undefined,
): string | undefined {
  const nameservers = Array.isArray(dnsConfig?.nameservers) ? dnsConfig.nameservers : [];
  const searches = Array.isArray(dnsConfig?.searches) ? dnsConfig.searches : [];
  if (dnsPolicy === 'None' && nameservers.length === 0) {
    return "dnsPolicy 'None' needs a dnsConfig with at least one nameserver (the pod would have no resolver)";
  }
  if (nameservers.length > DNS_CONFIG_LIMITS.nameservers)
    return `at most ${DNS_CONFIG_LIMITS.nameservers} nameservers are allowed (has ${nameservers.length})`;
  for (const ns of nameservers) {
    if (typeof ns !== 'string' || !isIpAddress(ns)) return `nameserver ${show(ns)} must be an IP address`;
  }
  if (searches.length > DNS_CONFIG_LIMITS.searches)
    return `at most ${DNS_CONFIG_LIMITS.searches} search domains are allowed (has ${searches.length})`;
  let total = 0;
  for (const s of searches) {
    const text = typeof s === 'string' ? s.replace(/\.$/, '') : s;
    const err = typeof text === 'string' ? dns1123SubdomainError(text) : 'must be a string';
    if (err) return `search domain ${show(s)} ${err}`;
    total += (text as string).length + 1;
  }
  if (total > DNS_CONFIG_LIMITS.searchLength)
    return `search domains must be at most ${DNS_CONFIG_LIMITS.searchLength} characters in all (has ${total})`;
  return undefined;
}

/** Whether `value` is an IPv4 or IPv6 address. */
export function isIpAddress(value: string): boolean {
  const v4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
  if (v4.test(value)) return true;
  if (!/^[0-9A-Fa-f:.]+$/.test(value) || !value.includes(':')) return false;
  const halves = value.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((h) => (h === '' ? [] : h.split(':')));
  const last = groups[groups.length - 1];
  const v4Tail = last !== undefined && last.includes('.');
  if (v4Tail && !v4.test(last)) return false;
  const hex = v4Tail ? groups.slice(0, -1) : groups;
  if (hex.some((g) => !/^[0-9A-Fa-f]{1,4}$/.test(g))) return false;
  const count = hex.length + (v4Tail ? 2 : 0);
  return halves.length === 2 ? count < 8 : count === 8;
}

/** Downward-API field paths a container's `env[].valueFrom.fieldRef` may name in Kubernetes 1.28 (besides label and annotation subscripts). */
export const ENV_FIELD_PATHS: readonly string[] = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];

const FIELD_SUBSCRIPT = /^metadata\.(labels|annotations)\['(.*)'\]$/;

/**
 * Why `path` is not a downward-API field path an environment variable may use (`metadata.name`, `spec.nodeName`,
 * `status.hostIP`, `metadata.labels['key']` …), or `undefined`.
 */
export function envFieldPathError(path: unknown): string | undefined {
  if (typeof path === 'string') {
    if (ENV_FIELD_PATHS.includes(path)) return undefined;
    const m = FIELD_SUBSCRIPT.exec(path);
    if (m) {
      const key = m[1] === 'annotations' ? m[2].toLowerCase() : m[2];
      const err = qualifiedNameError(key);
      return err ? `subscript ${show(m[2])} ${err}` : undefined;
    }
  }
  const near = typeof path === 'string' ? ENV_FIELD_PATHS.find((p) => p.toLowerCase() === path.toLowerCase()) : undefined;
  return (
    `must be one of ${ENV_FIELD_PATHS.join(', ')}, metadata.labels['<key>'] or metadata.annotations['<key>']` +
    (near ? ` (case matters: did you mean '${near}'?)` : '')
  );
}

/** Why `name` is not an environment variable name for Kubernetes 1.28, or `undefined` (see {@link envVarNameError}). */
export function envNameError(name: unknown): string | undefined {
  return typeof name === 'string' ? envVarNameError(name) : 'must be a string';
}

/** Why `prefix` is not a valid `envFrom` prefix (it is validated as the start of an environment variable name), or `undefined`. */
export function envFromPrefixError(prefix: unknown): string | undefined {
  if (prefix === undefined || prefix === '') return undefined;
  if (typeof prefix !== 'string') return 'must be a string';
  return envVarNameError(prefix);
}

/** Why `name` is not a ConfigMap name (a DNS-1123 subdomain), or `undefined`. */
export function configMapNameError(name: unknown): string | undefined {
  return typeof name === 'string' ? dns1123SubdomainError(name) : 'must be a string';
}

/** Why `name` is not a Secret name (a DNS-1123 subdomain), or `undefined`. */
export function secretNameError(name: unknown): string | undefined {
  return typeof name === 'string' ? dns1123SubdomainError(name) : 'must be a string';
}

/** Why `name` is not a pod volume name (a DNS-1123 label of at most 63 characters; never shortened), or `undefined`. */
export function volumeNameError(name: unknown): string | undefined {
  return typeof name === 'string' ? dns1123LabelError(name) : 'must be a string';
}

/** Why `name` is not a PriorityClass name (a DNS-1123 subdomain), or `undefined`. */
export function priorityClassNameError(name: unknown): string | undefined {
  return typeof name === 'string' ? dns1123SubdomainError(name) : 'must be a string';
}

/** Why `name` is not a RuntimeClass name (a DNS-1123 subdomain), or `undefined`. */
export function runtimeClassNameError(name: unknown): string | undefined {
  return typeof name === 'string' ? dns1123SubdomainError(name) : 'must be a string';
}

/** The PriorityClasses every cluster has. */
export const BUILT_IN_PRIORITY_CLASSES: readonly string[] = ['system-node-critical', 'system-cluster-critical'];

/**
 * Why `name` is not a CSI driver name (`ValidateCSIDriverName`: at most 63 characters, a DNS-1123 subdomain once
 * lower-cased, e.g. `ebs.csi.aws.com`), or `undefined`.
 */
export function csiDriverNameError(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'must be a string';
  if (name.length === 0) return 'must not be empty';
  if (name.length > 63) return `must be at most 63 characters (has ${name.length})`;
  return dns1123SubdomainError(name.toLowerCase());
}

const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_NAME = new RegExp(`^(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}$`);

/** Why `name` is not a sysctl name (1.28 `IsValidSysctlName`: at most 253 characters of dot- or slash-separated segments), or `undefined`. */
export function sysctlNameError(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'must not be empty';
  if (name.length > 253) return `must be at most 253 characters (has ${name.length})`;
  if (!SYSCTL_NAME.test(name)) {
    return "must be dot- or slash-separated segments of lower-case alphanumerics, '-' or '_', each starting and ending alphanumeric (e.g. net.ipv4.ip_forward)";
  }
  return undefined;
}

/** Why `value` is not a valid probe port reference (1–65535, or a port name), or `undefined`. */
export function portReferenceError(value: unknown, nameError: (v: string) => string | undefined = portNameError): string | undefined {
  if (typeof value === 'number') return portNumberError(value) ? `port ${value} must be between 1 and 65535` : undefined;
  if (typeof value === 'string') {
    const err = nameError(value);
    return err ? `port name ${show(value)} ${err}` : undefined;
  }
  return `port must be a number or a port name (has ${show(value)})`;
}
