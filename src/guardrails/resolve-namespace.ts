/**
 * The props of `NodeServiceNamespace` checked and resolved into plain settings: every problem lands in the
 * collector, and what the construct builds is decided here. No cdk8s: the construct only turns the settings into
 * API objects (and tells which listed services are node services, which is class identity, not data).
 */

import type { NodeService } from '../core/node-service';
import type { NodeServiceNamespaceProps } from './namespace';
import { ProblemCollector } from '../k8s/problems';
import { checkShape } from '../k8s/shape';
import { recommendedLabels } from '../core/labels';
import { checkAnnotations, checkLabels } from '../core/intent/maps';
import { dns1123LabelError, labelValueError } from '../k8s';
import { DEFAULT_NAMESPACE, reservedNamespaceProblem } from '../k8s/namespaces';
import { PodSecurityLevel } from '../admission/pod-security';
import { TRUST_LABEL_KEY, TRUST_LABEL_VALUE } from '../admission/trust-label';
import { namespacePropsShape } from './shapes';

/** Prefix of the Pod Security Admission namespace labels. */
export const POD_SECURITY_LABEL_PREFIX = 'pod-security.kubernetes.io/';

/** The two reserved priority classes the scheduler treats as system-critical. */
export enum SystemPriorityClass {
  /** Pods that must run on this node (CNI, CSI node plugins, kube-proxy); lowest OOM score adjustment. */
  SYSTEM_NODE_CRITICAL = 'system-node-critical',
  /** Cluster-critical pods that may be rescheduled elsewhere. */
  SYSTEM_CLUSTER_CRITICAL = 'system-cluster-critical',
}

/** Default `hard.pods` of the critical-pods ResourceQuota: large enough never to limit, the quota only authorises. */
export const DEFAULT_CRITICAL_PODS_LIMIT = 1000000;

const POD_SECURITY_VERSION = /^v1\.(0|[1-9][0-9]*)$/;

/** What the construct tells of one listed service. @internal */
export interface ListedService {
  /** Whether it is a `NodeService` (a preset included). */
  readonly nodeService: boolean;
  /** How it is shown in a problem: its construct path, or the value as given. */
  readonly shown: unknown;
  /** Its namespace, for a node service. */
  readonly namespace?: string;
}

/** What the resolution needs from the construct. @internal */
export interface NamespaceContext {
  /** The App's target Kubernetes minor (`1.28`). */
  readonly kubernetesVersion: string;
  /** Tells what one entry of `services` is. */
  readonly describe: (service: unknown) => ListedService;
}

/** The namespace as the construct builds it. @internal */
export interface NamespaceSettings {
  readonly name: string;
  /** `podSecurityLevel` as given. */
  readonly explicitLevel?: PodSecurityLevel;
  readonly services: NodeService[];
  readonly podSecurityVersion: string;
  readonly criticalPriorityClasses: SystemPriorityClass[];
  readonly criticalPodsLimit: number;
  readonly partOf: string;
  /** The checked props (fields that are not sound dropped). */
  readonly props: NodeServiceNamespaceProps;
}

/** Checks `props` into `problems` and resolves the settings (sound only when no problem was recorded). @internal */
export function resolveNamespace(
  given: NodeServiceNamespaceProps,
  context: NamespaceContext,
  problems: ProblemCollector,
): NamespaceSettings {
  // Props that are not an object are one problem (the rest is muted); the checks below then read no field.
  const props = checkShape<NodeServiceNamespaceProps>(given, namespacePropsShape(), problems, 'NodeServiceNamespace');
  const name = props.name ?? DEFAULT_NAMESPACE;
  problems.check('name', name, dns1123LabelError(name), 'use a DNS-1123 label such as "node-services"');
  const reserved = reservedNamespaceProblem(name);
  if (reserved !== undefined) problems.add('name', name, reserved.problem, reserved.fix);
  const explicitLevel = props.podSecurityLevel;
  if (explicitLevel !== undefined && !Object.values(PodSecurityLevel).includes(explicitLevel)) {
    problems.add(
      'podSecurityLevel',
      explicitLevel,
      'is not a Pod Security level',
      'use PodSecurityLevel.PRIVILEGED, BASELINE or RESTRICTED',
    );
  }
  const services = resolveServices(props, name, context, problems);
  const version = props.podSecurityVersion ?? `v${context.kubernetesVersion}`;
  if (typeof version !== 'string' || !POD_SECURITY_VERSION.test(version)) {
    problems.add(
      'podSecurityVersion',
      version,
      "must be a pinned policy version v1.N ('latest' would change the checks when the cluster is upgraded)",
      'use the cluster minor version, e.g. "v1.28"',
    );
  }
  const classes = props.criticalPriorityClasses ?? [];
  const limit = props.criticalPodsLimit ?? DEFAULT_CRITICAL_PODS_LIMIT;
  checkCriticalPods(props, name, classes, limit, problems);
  const partOf = props.partOf ?? 'node-services';
  problems.check('partOf', partOf, labelValueError(partOf), 'use a valid label value such as "node-services"');
  checkNamespaceLabels(props, problems);
  return {
    name,
    explicitLevel,
    services: services ?? [],
    podSecurityVersion: version,
    criticalPriorityClasses: classes,
    criticalPodsLimit: limit,
    partOf,
    props,
  };
}

/** The labels of the Namespace besides the Pod Security ones: extra and recommended labels, and the trust label. @internal */
export function namespaceLabels(settings: NamespaceSettings): { extra: { [key: string]: string }; trust: { [key: string]: string } } {
  const { name, partOf, props } = settings;
  return {
    extra: { ...(props.labels ?? {}), ...recommendedLabels({ name, instance: name, component: 'namespace', partOf }) },
    trust: (props.trusted ?? true) ? { [TRUST_LABEL_KEY]: TRUST_LABEL_VALUE } : {},
  };
}

/** `services` as a list (undefined when it is not one), each entry a node service of namespace `name`. */
function resolveServices(
  props: NodeServiceNamespaceProps,
  name: string,
  context: NamespaceContext,
  problems: ProblemCollector,
): NodeService[] | undefined {
  const services = props.services === undefined ? [] : Array.isArray(props.services) ? [...props.services] : undefined;
  if (services === undefined) {
    problems.add(
      'services',
      props.services,
      'must be a list of node services',
      'pass the NodeService (or preset) constructs that run in this namespace, e.g. [logs, metrics]',
    );
  } else if (props.services !== undefined && services.length === 0) {
    problems.add(
      'services',
      services,
      'is empty, so no Pod Security level can be derived from it (often the namespace was built before the services)',
      'build the services first and pass them, or omit services and set podSecurityLevel',
    );
  }
  (services ?? []).forEach((service, i) => {
    const listed = context.describe(service);
    if (!listed.nodeService) {
      problems.add(
        `services[${i}]`,
        listed.shown,
        'is not a NodeService',
        'pass NodeService or preset (LogAgent, MonitoringAgent, …) constructs',
      );
    } else if (listed.namespace !== name) {
      problems.add(
        `services[${i}]`,
        listed.shown,
        `runs in namespace "${listed.namespace}", not "${name}", so its pods are not checked by this namespace's labels`,
        `list only the services of namespace "${name}", or set their namespace to "${name}"`,
      );
    }
  });
  return services;
}

/** Checks `criticalPriorityClasses` and `criticalPodsLimit`. */
function checkCriticalPods(
  props: NodeServiceNamespaceProps,
  name: string,
  classes: SystemPriorityClass[],
  limit: number,
  problems: ProblemCollector,
): void {
  classes.forEach((c, i) => {
    if (!Object.values(SystemPriorityClass).includes(c)) {
      problems.add(
        `criticalPriorityClasses[${i}]`,
        c,
        'is not a system priority class',
        'use SystemPriorityClass.SYSTEM_NODE_CRITICAL or SYSTEM_CLUSTER_CRITICAL',
      );
    }
  });
  if (new Set(classes).size !== classes.length) {
    problems.add('criticalPriorityClasses', classes, 'lists a class twice', 'list each class once');
  }
  if (classes.length > 0 && name === 'kube-system') {
    problems.add(
      'criticalPriorityClasses',
      classes,
      "kube-system is where critical pods are always admitted; a quota there would compete with the cluster administrator's own",
      'remove criticalPriorityClasses for kube-system',
    );
  }
  if (!Number.isInteger(limit) || limit < 1) {
    problems.add(
      'criticalPodsLimit',
      limit,
      'must be a positive whole number',
      `keep the default ${DEFAULT_CRITICAL_PODS_LIMIT}, or a number above nodes × node services`,
    );
  }
  if (props.criticalPodsLimit !== undefined && classes.length === 0) {
    problems.add(
      'criticalPodsLimit',
      props.criticalPodsLimit,
      'has no effect without criticalPriorityClasses',
      'set criticalPriorityClasses, or remove criticalPodsLimit',
    );
  }
}

/** Checks `labels` and `annotations`; the Pod Security and trust labels are the construct's. */
function checkNamespaceLabels(props: NodeServiceNamespaceProps, problems: ProblemCollector): void {
  checkLabels('labels', props.labels, problems);
  checkAnnotations('annotations', props.annotations, problems);
  for (const key of Object.keys(props.labels ?? {})) {
    if (key.startsWith(POD_SECURITY_LABEL_PREFIX) || key === TRUST_LABEL_KEY) {
      problems.add(
        `labels["${key}"]`,
        key,
        'is set by the construct',
        key === TRUST_LABEL_KEY ? 'use the trusted prop' : 'use podSecurityLevel / podSecurityVersion',
      );
    }
  }
}
