/**
 * The props of `NodeServiceGuardrails` checked and resolved into the settings the admission policies render from:
 * every problem lands in the collector, every warning in the result. No cdk8s: the construct only wraps the
 * resolved policies in API objects.
 */

import type { IPolicyLogger } from '../policy/synth';
import type { NodeServiceGuardrailsProps } from './admission-policy';
import { ProblemCollector } from '../k8s/problems';
import { checkShape } from '../k8s/shape';
import { dns1123LabelError, hostPathError, labelValueError, normalizeHostPath, parseImage } from '../k8s';
import { kindServedFrom } from '../k8s/api-fields';
import type { KubernetesVersion } from '../k8s/api-fields/versions';
import { BASELINE_VOLUME_SOURCES, GuardrailSettings } from '../admission/admission-spec';
import { RESTRICTED_VOLUME_SOURCES, VOLUME_SOURCES_128 } from '../admission/pod-security/restricted-volumes';
import { PodSecurityLevel } from '../admission/pod-security';
import { TRUST_LABEL_KEY, TRUST_LABEL_VALUE } from '../admission/trust-label';
import { guardrailsPropsShape } from './shapes';

/** What the API server does when a validation fails (binding `validationActions`). */
export enum ValidationAction {
  /** Reject the request. */
  DENY = 'Deny',
  /** Accept the request and return the message as a warning to the client (`kubectl` prints it). */
  WARN = 'Warn',
  /** Accept the request and record the failure in the audit log. */
  AUDIT = 'Audit',
}

/** API version of the emitted ValidatingAdmissionPolicy and binding objects. */
export enum AdmissionPolicyApiVersion {
  /** Kubernetes 1.28–1.29 (beta; needs the `ValidatingAdmissionPolicy` feature gate and the v1beta1 runtime config on 1.28). */
  V1BETA1 = 'admissionregistration.k8s.io/v1beta1',
  /** Kubernetes 1.30 and later (GA, on by default). Same fields as v1beta1. */
  V1 = 'admissionregistration.k8s.io/v1',
}

/** What the API server does when a policy cannot be evaluated (CEL error, misconfiguration). */
export enum AdmissionFailurePolicy {
  /** Reject the request (fail closed). */
  FAIL = 'Fail',
  /** Admit the request (fail open). */
  IGNORE = 'Ignore',
}
/** Groups every tenant is a member of: naming one as a platform group would let tenants mark namespaces trusted. */
const CLUSTER_WIDE_GROUPS = ['system:serviceaccounts', 'system:authenticated', 'system:unauthenticated'];
const NAMESPACE_SERVICE_ACCOUNTS = /^system:serviceaccounts:(.+)$/;

// Matching control characters is the point: they may not appear in admission messages.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** What the resolution needs from the construct. @internal */
export interface GuardrailsContext {
  /** The construct path, which the warnings name. */
  readonly path: string;
  /** The App's target Kubernetes minor (`1.28`). */
  readonly kubernetesVersion: KubernetesVersion;
}

/** The guardrails as the construct builds them. @internal */
export interface ResolvedGuardrails {
  /** What the policies render from; undefined when a problem was recorded. */
  readonly settings?: GuardrailSettings;
  readonly partOf: string;
  readonly validationActions: ValidationAction[];
  readonly apiVersion: AdmissionPolicyApiVersion;
  readonly tenantPodSecurity: PodSecurityLevel;
  readonly tenantVolumeTypes: string[];
  /** Warnings about the configuration (empty when there are none). */
  readonly warnings: string[];
  /** `logger` as given. */
  readonly logger?: IPolicyLogger;
}

/** Checks `props` into `problems` and resolves the guardrails (with settings only when no problem was recorded). @internal */
export function resolveGuardrails(
  given: NodeServiceGuardrailsProps,
  context: GuardrailsContext,
  problems: ProblemCollector,
): ResolvedGuardrails {
  const props = checkedProps(given, problems);
  const name = props.name ?? 'node-services';
  problems.check('name', name, dns1123LabelError(name), 'use a short lower-case prefix such as "node-services"');
  checkContact(props.contact, problems);
  const registryAllowlist = props.registryAllowlist === undefined ? undefined : checkRegistries(props.registryAllowlist, problems);
  const hostPathAllowlist = props.hostPathAllowlist === undefined ? undefined : checkHostPaths(props.hostPathAllowlist, problems);
  const protect = props.protectTrustLabel ?? true;
  const warnings: string[] = [];
  const { platformGroups, platformUsers } = resolvePlatformIdentities(props, protect, context.path, warnings, problems);
  const tenantPodSecurity = props.tenantPodSecurity ?? PodSecurityLevel.BASELINE;
  if (tenantPodSecurity !== PodSecurityLevel.BASELINE && tenantPodSecurity !== PodSecurityLevel.RESTRICTED) {
    problems.add(
      'tenantPodSecurity',
      tenantPodSecurity,
      'must be baseline or restricted (privileged would let tenant pods escape the Pod Security controls the host-access policy does not cover)',
      'use PodSecurityLevel.BASELINE (the default) or PodSecurityLevel.RESTRICTED',
    );
  }
  const tenantVolumeTypes = resolveVolumeTypes(tenantPodSecurity, props.allowedTenantVolumeTypes, problems);
  const exempt = props.exemptNamespaces ?? ['kube-system'];
  exempt.forEach((ns, i) =>
    problems.check(`exemptNamespaces[${i}]`, ns, dns1123LabelError(ns), 'use namespace names such as "kube-system"'),
  );
  const validationActions = resolveActions(props, problems);
  const apiVersion = resolveApiVersion(props.apiVersion, context.kubernetesVersion, problems);
  const failurePolicy = props.failurePolicy ?? AdmissionFailurePolicy.FAIL;
  if (!Object.values(AdmissionFailurePolicy).includes(failurePolicy)) {
    problems.add('failurePolicy', failurePolicy, 'is not a failure policy', 'use AdmissionFailurePolicy.FAIL or IGNORE');
  }
  const partOf = props.partOf ?? 'node-services';
  problems.check('partOf', partOf, labelValueError(partOf), 'use a valid label value such as "node-services"');
  checkLogger(props.logger, problems);
  const settings: GuardrailSettings | undefined = problems.empty
    ? {
        name,
        contact: props.contact.trim(),
        registryAllowlist,
        hostPathAllowlist,
        platformGroups: protect ? (platformGroups ?? []) : undefined,
        platformUsers: protect ? (platformUsers ?? []) : [],
        exemptNamespaces: [...exempt],
        tenantPodSecurity,
        tenantVolumeTypes: [...tenantVolumeTypes],
        validationActions: [...validationActions],
        failurePolicy,
      }
    : undefined;
  return { settings, partOf, validationActions, apiVersion, tenantPodSecurity, tenantVolumeTypes, warnings, logger: props.logger };
}

/** The props checked against their shape; props that are not an object are one problem, and every other is muted. */
function checkedProps(props: NodeServiceGuardrailsProps, problems: ProblemCollector): NodeServiceGuardrailsProps {
  if (typeof props === 'object' && props !== null) return checkShape(props, guardrailsPropsShape(), problems, 'NodeServiceGuardrails');
  problems.add('props', props, 'props are required', 'pass at least { contact: "#platform-team", platformGroups: ["platform-admins"] }');
  // The checks after this one then read no field, and report nothing more.
  problems.mute('');
  return {} as NodeServiceGuardrailsProps;
}

/** Checks `contact`: required, one line of at most 200 characters. */
function checkContact(contact: string, problems: ProblemCollector): void {
  if (typeof contact !== 'string' || contact.trim().length === 0) {
    problems.add(
      'contact',
      contact,
      'is required: every denial tells the user where to ask',
      'name a channel or team, e.g. "#platform-team"',
    );
  } else if (CONTROL_CHARS.test(contact) || contact.length > 200) {
    problems.add(
      'contact',
      contact,
      'must be one line of at most 200 characters (admission messages may not contain line breaks)',
      'shorten it, e.g. "#platform-team"',
    );
  }
}

/** Checks `platformGroups` and `platformUsers`: someone must manage the protected trust label, and no tenant may. */
function resolvePlatformIdentities(
  props: NodeServiceGuardrailsProps,
  protect: boolean,
  path: string,
  warnings: string[],
  problems: ProblemCollector,
): { platformGroups?: string[]; platformUsers?: string[] } {
  const platformGroups = checkIdentities('platformGroups', props.platformGroups, protect, problems);
  const platformUsers = checkIdentities('platformUsers', props.platformUsers, protect, problems);
  if (protect && platformGroups !== undefined && platformUsers !== undefined && platformGroups.length + platformUsers.length === 0) {
    problems.add(
      'platformGroups',
      props.platformGroups,
      `is required while protectTrustLabel is on (or platformUsers): nobody could set ${TRUST_LABEL_KEY}=${TRUST_LABEL_VALUE}`,
      'list the groups that manage node-service namespaces, e.g. ["platform-admins"], and the GitOps service account in platformUsers',
    );
  }
  (platformGroups ?? []).forEach((g, i) => {
    if (CLUSTER_WIDE_GROUPS.includes(g)) {
      problems.add(
        `platformGroups[${i}]`,
        g,
        'is a group every tenant belongs to (a tenant can create a service account or log in), so anyone could mark a namespace trusted',
        'name a group of platform administrators, and list service accounts one by one in platformUsers, e.g. "system:serviceaccount:argocd:argocd-application-controller"',
      );
      return;
    }
    const ns = NAMESPACE_SERVICE_ACCOUNTS.exec(g);
    if (ns) {
      warnings.push(
        `${path}: platformGroups[${i}] "${g}" names every service account of namespace ${ns[1]}: any of them, and anyone who can ` +
          `run a pod or request a token for one there, may mark namespaces ${TRUST_LABEL_KEY}=${TRUST_LABEL_VALUE}. Fix: list the one service ` +
          `account in platformUsers (e.g. "system:serviceaccount:${ns[1]}:<name>"), or use a group that holds only it.`,
      );
    }
  });
  return { platformGroups, platformUsers };
}

/** The API version: given, else the App's target's default; it must be served by the target. */
function resolveApiVersion(
  given: AdmissionPolicyApiVersion | undefined,
  target: KubernetesVersion,
  problems: ProblemCollector,
): AdmissionPolicyApiVersion {
  // The App's target Kubernetes version decides the default (admissionregistration.k8s.io/v1 is served from 1.30).
  const apiVersion =
    given ??
    (kindServedFrom({ apiVersion: AdmissionPolicyApiVersion.V1, kind: 'ValidatingAdmissionPolicy' }, target) === undefined
      ? AdmissionPolicyApiVersion.V1
      : AdmissionPolicyApiVersion.V1BETA1);
  if (!Object.values(AdmissionPolicyApiVersion).includes(apiVersion)) {
    problems.add(
      'apiVersion',
      apiVersion,
      'is not a ValidatingAdmissionPolicy API version',
      'use AdmissionPolicyApiVersion.V1BETA1 (Kubernetes 1.28) or V1 (1.30+)',
    );
  }
  // The API version must be served by the App's target Kubernetes version (admissionregistration.k8s.io/v1 from 1.30).
  const servedFrom = kindServedFrom({ apiVersion, kind: 'ValidatingAdmissionPolicy' }, target);
  if (servedFrom !== undefined) {
    problems.add(
      'apiVersion',
      apiVersion,
      `is served from Kubernetes ${servedFrom}; the target is ${target}`,
      `use AdmissionPolicyApiVersion.V1BETA1, or declare the target first: NodeServiceChecks.of(app, { kubernetesVersion: '${servedFrom}' })`,
    );
  }
  return apiVersion;
}

/** Checks `logger`: an object with a `log` method. */
function checkLogger(logger: IPolicyLogger | undefined, problems: ProblemCollector): void {
  if (logger !== undefined && (logger === null || typeof logger !== 'object' || typeof logger.log !== 'function')) {
    problems.add(
      'logger',
      logger,
      'must have a log(message) method',
      'use PolicyLoggers.stderr(), PolicyLoggers.silent() or { log: (m) => … }',
    );
  }
}

/** Checks `platformGroups` / `platformUsers`; undefined when the value is not a list. */
function checkIdentities(field: string, value: string[] | undefined, protect: boolean, problems: ProblemCollector): string[] | undefined {
  if (value === undefined) return [];
  if (!protect) {
    problems.add(field, value, 'has no effect while protectTrustLabel is false', `remove ${field}, or turn protectTrustLabel on`);
    return [];
  }
  if (!Array.isArray(value)) {
    problems.add(
      field,
      value,
      'must be a list of names',
      field === 'platformGroups' ? 'e.g. ["platform-admins"]' : 'e.g. ["system:serviceaccount:argocd:argocd-application-controller"]',
    );
    return undefined;
  }
  value.forEach((g, i) => {
    if (typeof g !== 'string' || g.trim().length === 0 || CONTROL_CHARS.test(g) || g !== g.trim()) {
      problems.add(
        `${field}[${i}]`,
        g,
        'must be a non-empty name on one line, without surrounding spaces',
        field === 'platformGroups'
          ? 'use a group as the API server sees it, e.g. "platform-admins"'
          : 'use a user name as the API server sees it, e.g. "system:serviceaccount:argocd:argocd-application-controller"',
      );
    }
  });
  if (new Set(value).size !== value.length) problems.add(field, value, 'lists a name twice', 'list each name once');
  return value.filter((g) => typeof g === 'string');
}

function resolveVolumeTypes(level: PodSecurityLevel, extra: string[] | undefined, problems: ProblemCollector): string[] {
  const defaults = level === PodSecurityLevel.RESTRICTED ? RESTRICTED_VOLUME_SOURCES : BASELINE_VOLUME_SOURCES;
  if (extra === undefined) return [...defaults];
  if (!Array.isArray(extra)) {
    problems.add('allowedTenantVolumeTypes', extra, 'must be a list of volume types', 'e.g. ["nfs"]');
    return [...defaults];
  }
  extra.forEach((t, i) => {
    const field = `allowedTenantVolumeTypes[${i}]`;
    if (t === 'hostPath') {
      problems.add(
        field,
        t,
        'is host access, which tenant namespaces never get',
        'run the workload in a trusted node-services namespace instead',
      );
    } else if (typeof t !== 'string' || !VOLUME_SOURCES_128.includes(t)) {
      problems.add(
        field,
        t,
        'is not a Kubernetes 1.28 volume type',
        `use a Volume field name such as ${VOLUME_SOURCES_128.filter((v) => !defaults.includes(v) && v !== 'hostPath')
          .slice(0, 4)
          .join(', ')}`,
      );
    } else if (defaults.includes(t)) {
      problems.add(field, t, `is allowed by default at ${level}`, 'remove it');
    }
  });
  if (new Set(extra).size !== extra.length) problems.add('allowedTenantVolumeTypes', extra, 'lists a type twice', 'list each type once');
  return [...defaults, ...extra.filter((t) => typeof t === 'string' && !defaults.includes(t))];
}

function resolveActions(props: NodeServiceGuardrailsProps, problems: ProblemCollector): ValidationAction[] {
  if (props.dryRun && props.validationActions !== undefined) {
    problems.add(
      'dryRun',
      props.dryRun,
      'and validationActions both choose what a violation does',
      'keep one: dryRun: true means [Warn, Audit]',
    );
  }
  const actions = props.dryRun ? [ValidationAction.WARN, ValidationAction.AUDIT] : (props.validationActions ?? [ValidationAction.DENY]);
  if (!Array.isArray(actions) || actions.length === 0) {
    problems.add('validationActions', actions, 'must name at least one action', 'use [ValidationAction.DENY], or dryRun: true');
    return [];
  }
  actions.forEach((a, i) => {
    if (!Object.values(ValidationAction).includes(a)) {
      problems.add(`validationActions[${i}]`, a, 'is not a validation action', 'use ValidationAction.DENY, WARN or AUDIT');
    }
  });
  if (new Set(actions).size !== actions.length) {
    problems.add('validationActions', actions, 'lists an action twice', 'list each action once');
  }
  if (actions.includes(ValidationAction.DENY) && actions.includes(ValidationAction.WARN)) {
    problems.add(
      'validationActions',
      actions,
      'combines Deny and Warn, which the API server rejects (a denial is already reported to the client)',
      'use [DENY] or [DENY, AUDIT] to enforce, [WARN, AUDIT] (dryRun) to observe',
    );
  }
  return [...actions];
}

function checkRegistries(list: string[], problems: ProblemCollector): string[] {
  if (!Array.isArray(list) || list.length === 0) {
    problems.add(
      'registryAllowlist',
      list,
      'is empty, which would deny every image in trusted namespaces',
      'list the registries node services pull from, or omit registryAllowlist to skip the check',
    );
    return [];
  }
  const normalised = list.map((entry, i) => {
    const field = `registryAllowlist[${i}]`;
    if (typeof entry !== 'string') {
      problems.add(field, entry, 'must be a string', 'use a registry host, optionally with a path, e.g. "registry.example.com/platform"');
      return '';
    }
    const prefix = entry.replace(/\/+$/, '');
    const probe = parseImage(`${prefix}/x`);
    if (!probe || `${probe.registry}/${probe.repository}` !== `${prefix}/x`) {
      const hint =
        probe && probe.registry === 'docker.io' && !prefix.includes(':') && !prefix.includes('@')
          ? `write it with its registry host, e.g. "docker.io/${prefix}"`
          : 'use a registry host, optionally with a path and without tag or digest, e.g. "registry.example.com/platform"';
      problems.add(field, entry, 'is not a registry host with an optional repository path', hint);
    }
    return prefix;
  });
  if (new Set(normalised).size !== normalised.length) {
    problems.add('registryAllowlist', list, 'lists a registry twice', 'list each registry once');
  }
  return normalised;
}

function checkHostPaths(list: string[], problems: ProblemCollector): string[] {
  if (!Array.isArray(list) || list.length === 0) {
    problems.add(
      'hostPathAllowlist',
      list,
      'is empty, which would deny every hostPath volume in trusted namespaces',
      'list the host paths node services mount, or omit hostPathAllowlist to skip the check',
    );
    return [];
  }
  const normalised = list.map((entry, i) => {
    const field = `hostPathAllowlist[${i}]`;
    const error =
      typeof entry === 'string' && CONTROL_CHARS.test(entry)
        ? 'must not contain control characters'
        : typeof entry === 'string' && entry.includes('\\')
          ? 'must not contain a backslash (a path separator on Windows nodes; the policy denies every path with one)'
          : hostPathError(entry);
    problems.check(field, entry, error, 'use an absolute, normalised path such as "/var/log"');
    return typeof entry === 'string' ? normalizeHostPath(entry) : '';
  });
  if (new Set(normalised).size !== normalised.length) {
    problems.add('hostPathAllowlist', list, 'lists a path twice', 'list each path once');
  }
  return normalised;
}
