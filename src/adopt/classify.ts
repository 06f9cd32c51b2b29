/**
 * Why a synthesized DaemonSet differs from its input, field by field: hardening the library adds (with the rule that
 * asks for it), a Kubernetes default made explicit (or left to the API server), the library's own identity metadata.
 * A difference no entry explains is *unexplained*. Pure data plus one small matcher per entry.
 */

import { API_DEFAULTS, TEMPLATE_CONTAINER_PATH } from '../k8s/api-defaults';
import { ANNOTATION_PREFIX_TEXT } from './constants';
import { LeafChange } from './walk';

/** How a difference is explained. */
export enum DifferenceClass {
  /** The library adds protection the input lacked. */
  HARDENING = 'hardening',
  /** A value the API server would set anyway, written out (or the input's explicit default left to the server). */
  DEFAULT = 'default',
  /** The library's identity labels and annotations. */
  METADATA = 'metadata',
  /** A value carried by the escape hatch (`daemonSet.addJsonPatch`). */
  ESCAPE_HATCH = 'escape-hatch',
  /** Node selection and tolerations written as node pools, covering exactly the same nodes of the node list. */
  PLACEMENT = 'placement',
  /** Nothing explains it. */
  UNEXPLAINED = 'unexplained',
}

/** One explained (or unexplained) difference. */
export interface ClassifiedChange extends LeafChange {
  /** Its class. */
  readonly class: DifferenceClass;
  /** The rule id of a hardening, when there is one. */
  readonly rule?: string;
  /** Why, in words. */
  readonly why: string;
}

interface Explanation {
  readonly path: RegExp;
  readonly when: (input: unknown, output: unknown) => boolean;
  readonly class: DifferenceClass;
  readonly rule?: string;
  readonly why: string;
}

const CONTAINER = TEMPLATE_CONTAINER_PATH;
const added = (value: unknown) => (input: unknown, output: unknown) => input === undefined && output === value;
const eitherDefault = (value: unknown) => (input: unknown, output: unknown) =>
  (input === undefined && output === value) || (output === undefined && input === value);
const addedAny = (input: unknown, output: unknown) => input === undefined && output !== undefined;

/** Values the library writes where the input has none, that change nothing the agent relies on. */
const LIBRARY_DEFAULTS: ReadonlyArray<[string, (i: unknown, o: unknown) => boolean, string]> = [
  [`${CONTAINER}\\.terminationMessagePolicy`, added('FallbackToLogsOnError'), 'the last log lines explain a crash (the library default)'],
  [String.raw`spec\.template\.spec\.enableServiceLinks`, added(false), 'no Service environment variables (KUBERNETES_SERVICE_HOST stays)'],
  [
    String.raw`spec\.template\.spec\.dnsPolicy`,
    added('Default'),
    'the input leaves ClusterFirst, which on the host network resolves like Default',
  ],
  [
    `${CONTAINER}\\.securityContext\\.allowPrivilegeEscalation`,
    added(true),
    'a privileged container can always escalate (the API requires true)',
  ],
  [`${CONTAINER}\\.env\\[[^\\]]+\\]\\.valueFrom\\.fieldRef\\.apiVersion`, eitherDefault('v1'), 'fieldRef apiVersion v1'],
  [`${CONTAINER}\\.ports\\[[^\\]]+\\]\\.hostPort`, addedAny, 'on the host network the API sets hostPort to containerPort'],
  [
    `${CONTAINER}\\.volumeMounts\\[[^\\]]+\\]\\.readOnly`,
    added(true),
    'the kubelet mounts ConfigMap and Secret volumes read-only whatever the mount says',
  ],
];

const EXPLANATIONS: readonly Explanation[] = [
  ...LIBRARY_DEFAULTS.map(([path, when, why]) => ({ path: new RegExp(`^${path}$`), when, class: DifferenceClass.DEFAULT, why })),
  {
    path: /^spec\.template\.spec\.securityContext\.seccompProfile\.type$/,
    when: added('RuntimeDefault'),
    class: DifferenceClass.HARDENING,
    rule: 'seccomp-profile-missing',
    why: "the container runtime's default syscall filter for the pod",
  },
  {
    path: new RegExp(`^${CONTAINER}\\.securityContext\\.readOnlyRootFilesystem$`),
    when: added(true),
    class: DifferenceClass.HARDENING,
    rule: 'writable-root-filesystem',
    why: 'a read-only root filesystem',
  },
  ...API_DEFAULTS.map(({ path, value, what }) => ({
    path: new RegExp(`^${path}$`),
    when: eitherDefault(value),
    class: DifferenceClass.DEFAULT,
    why: `Kubernetes default: ${what}`,
  })),
  {
    path: new RegExp(`^${CONTAINER}\\.securityContext\\.capabilities\\.drop$`),
    when: (i, o) => i === undefined && Array.isArray(o) && o.includes('ALL'),
    class: DifferenceClass.HARDENING,
    rule: 'capabilities-not-dropped',
    why: 'every capability the input does not add is dropped (drop ALL)',
  },
  {
    path: new RegExp(`^${CONTAINER}\\.securityContext\\.allowPrivilegeEscalation$`),
    when: added(false),
    class: DifferenceClass.HARDENING,
    rule: 'privilege-escalation-allowed',
    why: 'no privilege escalation (setuid binaries cannot gain privileges)',
  },
  {
    path: new RegExp(`^${CONTAINER}\\.securityContext\\.seccompProfile\\.type$`),
    when: added('RuntimeDefault'),
    class: DifferenceClass.HARDENING,
    rule: 'seccomp-profile-missing',
    why: "the container runtime's default syscall filter",
  },
  {
    path: new RegExp(`^${CONTAINER}\\.resources\\.requests\\.cpu$`),
    when: addedAny,
    class: DifferenceClass.HARDENING,
    rule: 'cpu-request-missing',
    why: 'a CPU request, so the scheduler reserves what the agent uses on every node',
  },
  {
    path: new RegExp(`^${CONTAINER}\\.resources\\.requests\\.memory$`),
    when: addedAny,
    class: DifferenceClass.HARDENING,
    rule: 'memory-request-missing',
    why: 'a memory request',
  },
  {
    path: new RegExp(`^${CONTAINER}\\.resources\\.limits\\.memory$`),
    when: addedAny,
    class: DifferenceClass.HARDENING,
    rule: 'memory-limit-missing',
    why: "a memory limit, so a leaking agent cannot take the node's memory",
  },
  {
    path: /^spec\.template\.spec\.volumes\[[^\]]+\]\.hostPath\.type$/,
    when: added('Directory'),
    class: DifferenceClass.HARDENING,
    rule: 'host-path-type-missing',
    why: 'the kubelet checks that the host path is a directory before mounting it',
  },
  {
    path: /^spec\.template\.spec\.automountServiceAccountToken$/,
    when: added(false),
    class: DifferenceClass.HARDENING,
    rule: 'service-account-rbac',
    why: 'no API token is mounted into a pod that has no API access',
  },
  {
    path: /^(?:metadata|spec\.template\.metadata)\.labels\[["']app\.kubernetes\.io\/(?:name|instance|version|component|part-of|managed-by)["']\]$/,
    when: () => true,
    class: DifferenceClass.METADATA,
    why: 'the recommended app.kubernetes.io labels the library writes on every object',
  },
  {
    path: new RegExp(
      `^(?:metadata|spec\\.template\\.metadata)\\.(?:labels|annotations)\\[["'](?:[a-z0-9.-]+\\.)?${ANNOTATION_PREFIX_TEXT}/[^"']+["']\\]$`,
    ),
    when: addedAny,
    class: DifferenceClass.METADATA,
    why: "the library's own labels and annotations (service, track, kind, reasons recorded for reviewers, config hash)",
  },
];

/** The class of one leaf difference. */
export function classifyChange(change: LeafChange): ClassifiedChange {
  for (const e of EXPLANATIONS) {
    if (e.path.test(change.path) && e.when(change.input, change.output)) return { ...change, class: e.class, rule: e.rule, why: e.why };
  }
  return { ...change, class: DifferenceClass.UNEXPLAINED, why: 'no prop, default or hardening explains it' };
}
