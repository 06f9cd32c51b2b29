/**
 * The values the API server writes into a DaemonSet where the manifest leaves a field out (the apps/v1 and core/v1
 * defaulting of `SetDefaults_DaemonSet`, `SetDefaults_PodSpec`, `SetDefaults_Container`, `SetDefaults_Probe`…). A field
 * absent on one side and at its default on the other is the same object once stored: `diff` does not count it as a
 * change, and `import --check` explains it as a default. Paths are those of the structural comparison
 * (`spec.template.spec.containers[agent].imagePullPolicy`: list items by their keys).
 */

import { parseImage } from './image';

/** The path of a container or init container of the pod template, as a regular expression source. */
export const TEMPLATE_CONTAINER_PATH = String.raw`spec\.template\.spec\.(?:initContainers|containers)\[[^\]]+\]`;

/** One field the API server defaults. */
export interface ApiDefault {
  /** The field's path, as a regular expression source (anchored by its users). */
  readonly path: string;
  /** The value the API server sets. */
  readonly value: unknown;
  /** The default in words. */
  readonly what: string;
  /** The default holds only for a container whose image has a tag other than `latest` or a digest. */
  readonly pinnedImageOnly?: boolean;
  /**
   * The same in effect, but the API server stores the field as written (a pointer field): the stored pod template
   * differs, so the DaemonSet controller rolls the pods out. `import` explains it; `diff` counts it as a change.
   */
  readonly storedAsWritten?: boolean;
}

const C = TEMPLATE_CONTAINER_PATH;
const PROBE = `${C}\\.(?:readiness|liveness|startup)Probe`;

/** The fields the API server defaults in a DaemonSet, with their defaults. */
export const API_DEFAULTS: readonly ApiDefault[] = [
  {
    path: `${C}\\.imagePullPolicy`,
    value: 'IfNotPresent',
    what: 'imagePullPolicy IfNotPresent (the API default for a pinned tag)',
    pinnedImageOnly: true,
  },
  { path: `${C}\\.ports\\[[^\\]]+\\]\\.protocol`, value: 'TCP', what: 'port protocol TCP' },
  { path: `${C}\\.terminationMessagePath`, value: '/dev/termination-log', what: 'terminationMessagePath' },
  { path: `${C}\\.terminationMessagePolicy`, value: 'File', what: 'terminationMessagePolicy' },
  { path: `${PROBE}\\.periodSeconds`, value: 10, what: 'probe period 10 s' },
  { path: `${PROBE}\\.timeoutSeconds`, value: 1, what: 'probe timeout 1 s' },
  { path: `${PROBE}\\.successThreshold`, value: 1, what: 'probe success threshold 1' },
  { path: `${PROBE}\\.failureThreshold`, value: 3, what: 'probe failure threshold 3' },
  { path: `${PROBE}\\.httpGet\\.scheme`, value: 'HTTP', what: 'probe scheme HTTP' },
  { path: `${C}\\.volumeMounts\\[[^\\]]+\\]\\.readOnly`, value: false, what: 'a writable mount (readOnly false)' },
  { path: `${C}\\.securityContext\\.readOnlyRootFilesystem`, value: false, what: 'a writable root filesystem', storedAsWritten: true },
  { path: `${C}\\.securityContext\\.privileged`, value: false, what: 'not privileged', storedAsWritten: true },
  { path: String.raw`spec\.template\.spec\.terminationGracePeriodSeconds`, value: 30, what: 'terminationGracePeriodSeconds 30' },
  { path: String.raw`spec\.template\.spec\.restartPolicy`, value: 'Always', what: 'restartPolicy Always' },
  { path: String.raw`spec\.template\.spec\.schedulerName`, value: 'default-scheduler', what: 'the default scheduler' },
  { path: String.raw`spec\.template\.spec\.dnsPolicy`, value: 'ClusterFirst', what: 'dnsPolicy ClusterFirst' },
  { path: String.raw`spec\.template\.spec\.hostNetwork`, value: false, what: 'hostNetwork false' },
  {
    path: String.raw`spec\.template\.spec\.automountServiceAccountToken`,
    value: true,
    what: 'the ServiceAccount token is mounted',
    storedAsWritten: true,
  },
  { path: String.raw`spec\.template\.spec\.hostPID`, value: false, what: 'hostPID false' },
  { path: String.raw`spec\.revisionHistoryLimit`, value: 10, what: 'revisionHistoryLimit 10' },
  { path: String.raw`spec\.minReadySeconds`, value: 0, what: 'minReadySeconds 0' },
  { path: String.raw`spec\.updateStrategy\.type`, value: 'RollingUpdate', what: 'the RollingUpdate strategy' },
  { path: String.raw`spec\.updateStrategy\.rollingUpdate\.maxUnavailable`, value: 1, what: 'maxUnavailable 1' },
  { path: String.raw`spec\.updateStrategy\.rollingUpdate\.maxSurge`, value: 0, what: 'maxSurge 0' },
  { path: String.raw`spec\.template\.spec\.volumes\[[^\]]+\]\.hostPath\.type`, value: '', what: 'hostPath type "" (no check)' },
];

/** Objects the API server stores as `{}` where the manifest has none, and the template's `creationTimestamp: null`. */
const EMPTY_DEFAULTS: readonly RegExp[] = [new RegExp(`^${C}\\.resources$`), /^spec\.template\.spec\.securityContext$/];
const NULL_DEFAULTS: readonly RegExp[] = [/^spec\.template\.metadata\.creationTimestamp$/];

const COMPILED = API_DEFAULTS.map((d) => ({ ...d, re: new RegExp(`^${d.path}$`) }));

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Whether `value` at `path` is what the API server stores when the field is left out (entries the server stores as
 * written, {@link ApiDefault.storedAsWritten}, are not): a defaulted field at its default,
 * or an object whose every field is (`updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 1,
 * maxSurge: 0}}`). `imageOf` gives the image of the container a path is under, for the image-dependent default.
 */
export function isApiDefault(path: string, value: unknown, imageOf: (path: string) => string | undefined): boolean {
  if (value === null) return NULL_DEFAULTS.some((re) => re.test(path));
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return EMPTY_DEFAULTS.some((re) => re.test(path));
    return entries.every(([k, v]) => isApiDefault(`${path}.${k}`, v, imageOf));
  }
  const d = COMPILED.find((x) => x.re.test(path));
  if (d === undefined || d.value !== value || d.storedAsWritten) return false;
  if (!d.pinnedImageOnly) return true;
  const image = imageOf(path);
  const parsed = image === undefined ? undefined : parseImage(image);
  // the API server's rule (`SetDefaults_Container`): Always for `:latest` and for an image with neither tag nor digest.
  return parsed !== undefined && parsed.tag !== 'latest' && (parsed.tag !== undefined || parsed.digest !== undefined);
}
