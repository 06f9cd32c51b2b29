/**
 * Plain-JSON specs of the node-service admission policies (ValidatingAdmissionPolicy + binding) and the CEL they
 * carry. Pure functions, no cdk8s: the construct wraps them in API objects, the tests evaluate the CEL.
 *
 * Every expression is written for the Kubernetes 1.28 CEL environment: `has()` guards on every optional field (the
 * API server drops `false`/`0`/empty values of non-pointer fields before admission, so a field read without a guard
 * errors), no optional syntax (`?.`, `[?`, `.orValue()`), only the standard library, macros and the extended strings
 * library (`split`, `join`, `substring`, `lastIndexOf`, `lowerAscii`), and no validation that is just `variables.x`
 * (1.28 rejects it as not boolean). Namespace trust is matched with binding `namespaceSelector`s, not
 * `namespaceObject`, because a selector is evaluated before any CEL runs, is visible in `kubectl get`, and costs
 * nothing per request.
 *
 * One rule set covers every kind that carries a pod: the `podTemplate` variable picks the pod (or pod template) of
 * the request's resource, and every check reads it from there, so a Deployment, a CronJob or a bare Pod is judged by
 * the same expressions at its own admission.
 */

import { ALLOWED_SECCOMP_TYPES, APPARMOR_ANNOTATION_PREFIX, BASELINE_SELINUX_TYPES, SAFE_SYSCTLS } from '../k8s/pod-security-sets';
import { TRUST_LABEL_KEY, TRUST_LABEL_VALUE } from './namespace';

/** A CEL variable of a policy. @internal */
export interface CelVariable {
  readonly name: string;
  readonly expression: string;
}

/** A CEL match condition of a policy. @internal */
export interface CelMatchCondition {
  readonly name: string;
  readonly expression: string;
}

/** A CEL validation of a policy. @internal */
export interface CelValidation {
  readonly expression: string;
  readonly message: string;
  readonly messageExpression: string;
  readonly reason: string;
}

/** A resource rule (`NamedRuleWithOperations`). @internal */
export interface ResourceRule {
  readonly apiGroups: string[];
  readonly apiVersions: string[];
  readonly resources: string[];
  readonly operations: string[];
}

/** A label selector requirement. @internal */
export interface SelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: string[];
}

/** A label selector. @internal */
export interface Selector {
  readonly matchLabels?: { [key: string]: string };
  readonly matchExpressions?: SelectorRequirement[];
}

/** The spec of one ValidatingAdmissionPolicy. @internal */
export interface PolicySpec {
  readonly failurePolicy: string;
  readonly matchConstraints: { readonly resourceRules: ResourceRule[] };
  readonly matchConditions?: CelMatchCondition[];
  readonly variables?: CelVariable[];
  readonly validations: CelValidation[];
}

/** The spec of one ValidatingAdmissionPolicyBinding. @internal */
export interface BindingSpec {
  readonly policyName: string;
  readonly validationActions: string[];
  readonly matchResources?: { readonly namespaceSelector: Selector };
}

/** One policy with its binding. @internal */
export interface PolicyPair {
  /** Name of the policy and of its binding. */
  readonly name: string;
  /** What the policy does, one line (kept as an annotation). */
  readonly description: string;
  readonly policy: PolicySpec;
  readonly binding: BindingSpec;
}

/** Resolved settings of the guardrails. @internal */
export interface GuardrailSettings {
  /** Prefix of every policy and binding name. */
  readonly name: string;
  /** Where to ask, quoted in every message. */
  readonly contact: string;
  /** Registry prefixes allowed in trusted namespaces (normalised, no trailing '/'); undefined: no image check. */
  readonly registryAllowlist?: string[];
  /** Host-path prefixes allowed in trusted namespaces (normalised); undefined: no host-path check. */
  readonly hostPathAllowlist?: string[];
  /** Groups allowed to set, change or remove the trust label; undefined: label not protected. */
  readonly platformGroups?: string[];
  /** Users allowed to set, change or remove the trust label (with the label protected). */
  readonly platformUsers: string[];
  /** Namespaces never treated as untrusted (matched by `kubernetes.io/metadata.name`). */
  readonly exemptNamespaces: string[];
  /** The Pod Security level tenant pods are held to: `baseline` or `restricted`. */
  readonly tenantPodSecurity: string;
  /** Volume sources tenant pods may use (hostPath is never among them: it is host access). */
  readonly tenantVolumeTypes: string[];
  /** `validationActions` of the host-access, Pod Security and allowlist bindings. */
  readonly validationActions: string[];
  /** `failurePolicy` of the host-access, Pod Security and allowlist policies. */
  readonly failurePolicy: string;
}

/** Every volume source of the Kubernetes 1.28 `Volume` type. @internal */
export const VOLUME_SOURCES_128: readonly string[] = [
  'awsElasticBlockStore',
  'azureDisk',
  'azureFile',
  'cephfs',
  'cinder',
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'fc',
  'flexVolume',
  'flocker',
  'gcePersistentDisk',
  'gitRepo',
  'glusterfs',
  'hostPath',
  'iscsi',
  'nfs',
  'persistentVolumeClaim',
  'photonPersistentDisk',
  'portworxVolume',
  'projected',
  'quobyte',
  'rbd',
  'scaleIO',
  'secret',
  'storageos',
  'vsphereVolume',
];

/** The volume sources Pod Security `restricted` allows (policy v1.28). @internal */
export const RESTRICTED_VOLUME_SOURCES: readonly string[] = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
];

/**
 * The volume sources tenants may use at `baseline` by default: the `restricted` set plus the cloud disks that 1.28
 * serves through CSI migration. Everything else makes the node mount something itself, as root, with the node's
 * identity (gitRepo runs git hooks on the node, CVE-2024-10220; flexVolume runs a node binary; iscsi, rbd, fc, nfs,
 * cephfs, glusterfs, quobyte are network block and file systems) or names an in-tree driver 1.28 no longer has.
 * @internal
 */
export const BASELINE_VOLUME_SOURCES: readonly string[] = [
  ...RESTRICTED_VOLUME_SOURCES,
  'awsElasticBlockStore',
  'azureDisk',
  'azureFile',
  'cinder',
  'gcePersistentDisk',
  'portworxVolume',
  'vsphereVolume',
];

const SELINUX_TYPES = BASELINE_SELINUX_TYPES;
const SECCOMP_TYPES = ALLOWED_SECCOMP_TYPES;

/** A CEL string literal for `value` (single-quoted, escaped). @internal */
function celString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A CEL list literal of strings. @internal */
function celStringList(values: readonly string[]): string {
  return `[${values.map(celString).join(', ')}]`;
}

/** CEL: every field of `fields` is set below `root` (`has(a.b) && has(a.b.c)`). */
function hasPath(root: string, fields: readonly string[]): string {
  return fields.map((_, i) => `has(${[root, ...fields.slice(0, i + 1)].join('.')})`).join(' && ');
}

/** CEL: container `c`'s security context sets `path` (dot-separated), e.g. `seccompProfile.type`. */
function containerSets(path: string): string {
  return hasPath('c', ['securityContext', ...path.split('.')]);
}

/** CEL: the pod security context sets `path`. The variable is `{}` when the pod has none. */
function podSets(path: string): string {
  return hasPath('variables.podSecurityContext', path.split('.'));
}

const CONTAINER = (path: string) => `c.securityContext.${path}`;
const POD = (path: string) => `variables.podSecurityContext.${path}`;

/**
 * The workload resources the policies inspect, and where their pod is. One table, one rule set: every expression
 * reads `variables.podTemplate`.
 */
const WORKLOAD_RULES: ResourceRule[] = [
  {
    apiGroups: [''],
    apiVersions: ['v1'],
    // `kubectl debug` adds ephemeral containers through the subresource, not through an update of the pod.
    resources: ['pods', 'pods/ephemeralcontainers', 'replicationcontrollers'],
    operations: ['CREATE', 'UPDATE'],
  },
  {
    apiGroups: ['apps'],
    apiVersions: ['v1'],
    resources: ['daemonsets', 'deployments', 'replicasets', 'statefulsets'],
    operations: ['CREATE', 'UPDATE'],
  },
  { apiGroups: ['batch'], apiVersions: ['v1'], resources: ['cronjobs', 'jobs'], operations: ['CREATE', 'UPDATE'] },
];

/** The pod (a Pod) or pod template (every controller) of the request, by resource. */
const POD_TEMPLATE =
  "request.resource.resource == 'pods' ? object : " +
  "request.resource.resource == 'cronjobs' ? object.spec.jobTemplate.spec.template : object.spec.template";

/** Skip updates that do not change the spec (metadata edits, finalizer removal, status). */
const SPEC_CHANGED: CelMatchCondition = { name: 'spec-changed', expression: 'oldObject == null || object.spec != oldObject.spec' };

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

function podVariables(): CelVariable[] {
  return [
    { name: 'podTemplate', expression: POD_TEMPLATE },
    { name: 'podSpec', expression: 'variables.podTemplate.spec' },
    {
      name: 'allContainers',
      expression: CONTAINER_LISTS.map((l) => `(has(variables.podSpec.${l}) ? variables.podSpec.${l} : [])`).join(' + '),
    },
    { name: 'volumes', expression: 'has(variables.podSpec.volumes) ? variables.podSpec.volumes : []' },
  ];
}

/** CEL: the `render`ed entries of every container, init container and ephemeral container for which `bad` holds. */
function offendingContainers(bad: string, render = 'c.name'): string {
  return `variables.allContainers.filter(c, ${bad}).map(c, ${render})`;
}

const OBJECT_NAME = "(has(object.metadata.name) ? object.metadata.name : '')";
const SUBJECT = `request.kind.kind + ' ' + ${OBJECT_NAME} + ' in namespace ' + request.namespace`;

/** Escapes text placed inside a single-quoted CEL literal that the caller opens and closes. */
function escapeInLiteral(text: string): string {
  return celString(text).slice(1, -1);
}

const UNTRUSTED = `namespaces not labelled ${TRUST_LABEL_KEY}=${TRUST_LABEL_VALUE}`;
const WORKLOADS = 'Pods and workloads with a pod template';

const HOST_PORT = 'has(p.hostPort) && p.hostPort != 0';
const HOST_NAMESPACES = ['hostNetwork', 'hostPID', 'hostIPC'] as const;

/** One check: a variable listing the offenders, and the words for the message. */
interface OffenderCheck {
  readonly variable: string;
  readonly what: string;
  readonly expression: string;
}

const HOST_ACCESS_CHECKS: readonly OffenderCheck[] = [
  { variable: 'hostPathVolumes', what: 'hostPath volumes', expression: 'variables.volumes.filter(v, has(v.hostPath)).map(v, v.name)' },
  {
    variable: 'privilegedContainers',
    what: 'privileged containers',
    expression: offendingContainers(`${containerSets('privileged')} && ${CONTAINER('privileged')} == true`),
  },
  {
    variable: 'hostNamespaces',
    what: 'host namespaces',
    expression: HOST_NAMESPACES.map((f) => `(has(variables.podSpec.${f}) && variables.podSpec.${f} == true ? ['${f}'] : [])`).join(' + '),
  },
  {
    variable: 'addedCapabilities',
    what: 'added capabilities',
    expression: offendingContainers(
      `${containerSets('capabilities.add')} && size(${CONTAINER('capabilities.add')}) > 0`,
      `c.name + ' adds ' + ${CONTAINER('capabilities.add')}.join('+')`,
    ),
  },
  {
    variable: 'hostPorts',
    what: 'host ports',
    expression: offendingContainers(
      `has(c.ports) && c.ports.exists(p, ${HOST_PORT})`,
      `c.name + ' uses ' + c.ports.filter(p, ${HOST_PORT}).map(p, string(p.hostPort)).join('+')`,
    ),
  },
];

function untrustedBinding(name: string, settings: GuardrailSettings): BindingSpec {
  const selector: Selector = {
    matchExpressions: [
      { key: TRUST_LABEL_KEY, operator: 'NotIn', values: [TRUST_LABEL_VALUE] },
      ...(settings.exemptNamespaces.length > 0
        ? [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: [...settings.exemptNamespaces] }]
        : []),
    ],
  };
  return { policyName: name, validationActions: [...settings.validationActions], matchResources: { namespaceSelector: selector } };
}

/** The policy that keeps host access out of untrusted namespaces. @internal */
function hostAccessPolicy(settings: GuardrailSettings): PolicyPair {
  const advice = `node services belong in a trusted platform namespace; ask ${settings.contact}`;
  const validations: CelValidation[] = HOST_ACCESS_CHECKS.map((check) => ({
    expression: `size(variables.${check.variable}) == 0`,
    message: `${WORKLOADS} in ${UNTRUSTED} may not use ${check.what}; ${advice}.`,
    messageExpression:
      `${SUBJECT} + ': ${check.what} (' + variables.${check.variable}.join(', ') + ') are not allowed in ` +
      `${escapeInLiteral(UNTRUSTED)}; ${escapeInLiteral(advice)}.'`,
    reason: 'Forbidden',
  }));
  const name = `${settings.name}-host-access`;
  return {
    name,
    description: `Denies hostPath volumes, privileged containers, host namespaces, added capabilities and host ports to ${WORKLOADS.toLowerCase()} in ${UNTRUSTED}.`,
    policy: {
      failurePolicy: settings.failurePolicy,
      matchConstraints: { resourceRules: WORKLOAD_RULES },
      matchConditions: [SPEC_CHANGED],
      variables: [...podVariables(), ...HOST_ACCESS_CHECKS.map((c) => ({ name: c.variable, expression: c.expression }))],
      validations,
    },
    binding: untrustedBinding(name, settings),
  };
}

/** A Pod Security control checked in tenant namespaces, beyond the host-access checks. */
interface PodSecurityCheck extends OffenderCheck {
  /** The Pod Security Admission check id (as in `evaluatePodSecurity`). */
  readonly control: string;
  /** The lowest tenant level that applies it. */
  readonly from: 'baseline' | 'restricted';
  /** The level above which it is replaced by a stricter form. */
  readonly until?: 'baseline';
}

const SECCOMP_VALID = (profile: string) => `has(${profile}.type) && ${profile}.type in ${celStringList(SECCOMP_TYPES)}`;
const SELINUX_BAD = (o: string) =>
  `(has(${o}.type) && !(${o}.type in ${celStringList(SELINUX_TYPES)})) || (has(${o}.user) && ${o}.user != '') || (has(${o}.role) && ${o}.role != '')`;
/** `['pod']` when the pod-level `condition` holds, else `[]`. */
const POD_OFFENDS = (condition: string) => `(${condition} ? ['pod'] : [])`;
/** The offenders, or none on Windows pods (exempt from the control from policy v1.25). */
const NOT_ON_WINDOWS = (offenders: string) => `(variables.windows == true ? [] : ${offenders})`;
const POD_RUNS_AS_NON_ROOT = `(${podSets('runAsNonRoot')} && ${POD('runAsNonRoot')} == true)`;
const POD_SECCOMP_VALID = `(${podSets('seccompProfile')} && ${SECCOMP_VALID(POD('seccompProfile'))})`;

const POD_SECURITY_CHECKS: readonly PodSecurityCheck[] = [
  {
    control: 'windowsHostProcess',
    from: 'baseline',
    variable: 'hostProcess',
    what: 'windowsOptions.hostProcess',
    expression:
      POD_OFFENDS(`${podSets('windowsOptions.hostProcess')} && ${POD('windowsOptions.hostProcess')} == true`) +
      ' + ' +
      offendingContainers(`${containerSets('windowsOptions.hostProcess')} && ${CONTAINER('windowsOptions.hostProcess')} == true`),
  },
  {
    control: 'appArmorProfile',
    from: 'baseline',
    variable: 'appArmorProfiles',
    what: 'AppArmor profiles other than runtime/default or localhost/*',
    expression:
      `variables.podAnnotations.filter(k, k.startsWith(${celString(APPARMOR_ANNOTATION_PREFIX)}) && ` +
      "!(variables.podAnnotations[k] in ['', 'runtime/default'] || variables.podAnnotations[k].startsWith('localhost/')))" +
      ".map(k, k + '=' + variables.podAnnotations[k])",
  },
  {
    control: 'seLinuxOptions',
    from: 'baseline',
    variable: 'seLinuxOptions',
    what: 'SELinux options (a type other than container_t, container_init_t, container_kvm_t, or a user or role)',
    expression:
      POD_OFFENDS(`${podSets('seLinuxOptions')} && (${SELINUX_BAD(POD('seLinuxOptions'))})`) +
      ' + ' +
      offendingContainers(`${containerSets('seLinuxOptions')} && (${SELINUX_BAD(CONTAINER('seLinuxOptions'))})`),
  },
  {
    control: 'procMount',
    from: 'baseline',
    variable: 'procMounts',
    what: 'procMount other than Default',
    expression: offendingContainers(
      `${containerSets('procMount')} && ${CONTAINER('procMount')} != 'Default'`,
      `c.name + '=' + ${CONTAINER('procMount')}`,
    ),
  },
  {
    control: 'seccompProfile_baseline',
    from: 'baseline',
    until: 'baseline',
    variable: 'unconfinedSeccomp',
    what: 'seccomp profiles other than RuntimeDefault or Localhost',
    expression:
      POD_OFFENDS(`${podSets('seccompProfile')} && !(${SECCOMP_VALID(POD('seccompProfile'))})`) +
      ' + ' +
      offendingContainers(`${containerSets('seccompProfile')} && !(${SECCOMP_VALID(CONTAINER('seccompProfile'))})`),
  },
  {
    control: 'sysctls',
    from: 'baseline',
    variable: 'unsafeSysctls',
    what: 'sysctls outside the safe set',
    expression:
      `${podSets('sysctls')} ? ${POD('sysctls')}.filter(s, !(has(s.name) && s.name in ${celStringList(SAFE_SYSCTLS)}))` +
      ".map(s, has(s.name) ? s.name : '') : []",
  },
  {
    control: 'seccompProfile_restricted',
    from: 'restricted',
    variable: 'missingSeccomp',
    what: 'seccomp profiles that are not RuntimeDefault or Localhost (set on the pod or on every container)',
    expression: NOT_ON_WINDOWS(
      POD_OFFENDS(`${podSets('seccompProfile')} && !(${SECCOMP_VALID(POD('seccompProfile'))})`) +
        ' + ' +
        offendingContainers(
          `${containerSets('seccompProfile')} ? !(${SECCOMP_VALID(CONTAINER('seccompProfile'))}) : !${POD_SECCOMP_VALID}`,
        ),
    ),
  },
  {
    control: 'allowPrivilegeEscalation',
    from: 'restricted',
    variable: 'privilegeEscalation',
    what: 'containers without allowPrivilegeEscalation: false',
    expression: NOT_ON_WINDOWS(
      offendingContainers(`!(${containerSets('allowPrivilegeEscalation')} && ${CONTAINER('allowPrivilegeEscalation')} == false)`),
    ),
  },
  {
    control: 'runAsNonRoot',
    from: 'restricted',
    variable: 'mayRunAsRoot',
    what: 'runAsNonRoot not true (on the pod or on every container)',
    expression:
      POD_OFFENDS(`${podSets('runAsNonRoot')} && ${POD('runAsNonRoot')} != true`) +
      ' + ' +
      offendingContainers(`${containerSets('runAsNonRoot')} ? ${CONTAINER('runAsNonRoot')} != true : !${POD_RUNS_AS_NON_ROOT}`),
  },
  {
    control: 'runAsUser',
    from: 'restricted',
    variable: 'rootUser',
    what: 'runAsUser 0',
    expression:
      POD_OFFENDS(`${podSets('runAsUser')} && ${POD('runAsUser')} == 0`) +
      ' + ' +
      offendingContainers(`${containerSets('runAsUser')} && ${CONTAINER('runAsUser')} == 0`),
  },
  {
    control: 'capabilities_restricted',
    from: 'restricted',
    variable: 'capabilitiesNotDropped',
    what: 'containers whose capabilities.drop does not include ALL',
    expression: NOT_ON_WINDOWS(
      offendingContainers(`!(${containerSets('capabilities.drop')} && 'ALL' in ${CONTAINER('capabilities.drop')})`),
    ),
  },
];

/** The Pod Security checks that apply at tenant level `level`. @internal */
function podSecurityChecksAt(level: string): PodSecurityCheck[] {
  return POD_SECURITY_CHECKS.filter(
    (c) => (c.from === 'baseline' || level === 'restricted') && !(c.until === 'baseline' && level === 'restricted'),
  );
}

/**
 * The policy that holds tenant pods to Pod Security `baseline` or `restricted` (the controls the host-access policy
 * does not already deny), to the tenant volume types, and away from the `system-*` priority classes. @internal
 */
function tenantPodSecurityPolicy(settings: GuardrailSettings): PolicyPair {
  const level = settings.tenantPodSecurity;
  const advice = `fix the pod spec, or ask ${settings.contact}`;
  const checks = podSecurityChecksAt(level);
  const validations: CelValidation[] = checks.map((check) => ({
    expression: `size(variables.${check.variable}) == 0`,
    message: `${WORKLOADS} in ${UNTRUSTED} must meet Pod Security ${level} (control ${check.control}: no ${check.what}); ${advice}.`,
    messageExpression:
      `${SUBJECT} + ' violates Pod Security ${level} (control ${check.control}): ${escapeInLiteral(check.what)} (' + ` +
      `variables.${check.variable}.join(', ') + '); ${escapeInLiteral(advice)}.'`,
    reason: 'Forbidden',
  }));
  const volumeWhat = `volume types outside ${settings.tenantVolumeTypes.join(', ')}`;
  validations.push(
    {
      expression: 'size(variables.deniedVolumes) == 0',
      message: `${WORKLOADS} in ${UNTRUSTED} may only use the volume types ${settings.tenantVolumeTypes.join(', ')}; ${advice}.`,
      messageExpression:
        `${SUBJECT} + ': ${escapeInLiteral(volumeWhat)} are not allowed (' + variables.deniedVolumes.join(', ') + ` +
        `'): the node would mount them itself; ${escapeInLiteral(advice)}.'`,
      reason: 'Forbidden',
    },
    {
      expression: "!(has(variables.podSpec.priorityClassName) && variables.podSpec.priorityClassName.startsWith('system-'))",
      message: `${WORKLOADS} in ${UNTRUSTED} may not use the system-* priority classes, which preempt node agents; ${advice}.`,
      messageExpression:
        `${SUBJECT} + ': priority class ' + variables.podSpec.priorityClassName + ' is reserved for node and cluster ` +
        `components (it preempts node agents); ${escapeInLiteral(advice)}.'`,
      reason: 'Forbidden',
    },
  );
  const name = `${settings.name}-tenant-pod-security`;
  return {
    name,
    description: `Holds ${WORKLOADS.toLowerCase()} in ${UNTRUSTED} to Pod Security ${level} (policy v1.28), the tenant volume types and non-system priority classes.`,
    policy: {
      failurePolicy: settings.failurePolicy,
      matchConstraints: { resourceRules: WORKLOAD_RULES },
      matchConditions: [SPEC_CHANGED],
      variables: [
        ...podVariables(),
        {
          name: 'podAnnotations',
          expression:
            'has(variables.podTemplate.metadata) && has(variables.podTemplate.metadata.annotations) ? variables.podTemplate.metadata.annotations : {}',
        },
        { name: 'podSecurityContext', expression: 'has(variables.podSpec.securityContext) ? variables.podSpec.securityContext : {}' },
        // Windows pods are exempt from some restricted controls (policy v1.25+).
        ...(level === 'restricted'
          ? [
              {
                name: 'windows',
                expression: "has(variables.podSpec.os) && has(variables.podSpec.os.name) && variables.podSpec.os.name == 'windows'",
              },
            ]
          : []),
        ...checks.map((c) => ({ name: c.variable, expression: c.expression })),
        {
          name: 'deniedVolumes',
          // hostPath is host access, reported by the host-access policy.
          expression:
            `variables.volumes.filter(v, !has(v.hostPath) && !v.all(k, k == 'name' || k in ${celStringList(settings.tenantVolumeTypes)}))` +
            ".map(v, v.name + '=' + v.filter(k, k != 'name').join('+'))",
        },
      ],
      validations,
    },
    binding: untrustedBinding(name, settings),
  };
}

/**
 * CEL for "the image reference's repository, normalised as container runtimes do" (distribution/reference): digest
 * and tag removed; the first path element is the registry host when it contains '.' or ':', is `localhost` or has
 * upper-case letters, else the host is `docker.io`; `index.docker.io` is `docker.io`; a one-element Docker Hub
 * name is `docker.io/library/<name>`. Mirrors `runtimeImageRepository`.
 */
const IMAGE_VARIABLES: CelVariable[] = [
  { name: 'images', expression: "variables.allContainers.map(c, has(c.image) ? c.image : '')" },
  { name: 'imageNames', expression: "variables.images.map(i, i.split('@')[0])" },
  {
    name: 'imageRepositories',
    expression:
      "variables.imageNames.map(n, n.matches(':[^/]*$') ? n.substring(0, n.lastIndexOf(':')) : n)" +
      ".map(r, r.matches('^([^/]*[.:A-Z][^/]*|localhost)/') ? r : 'docker.io/' + r)" +
      ".map(r, r.startsWith('index.docker.io/') ? 'docker.io/' + r.substring(16) : r)" +
      ".map(r, r.matches('^docker[.]io/[^/]*$') ? 'docker.io/library/' + r.substring(10) : r)",
  },
];

/**
 * CEL: path `p` has no `..` element (split on `/` and on `\`, as Windows nodes read it), no backslash, and lies within
 * one of `allowed` (on a path-element boundary). @internal
 */
function hostPathAllowedExpression(p: string, allowed: readonly string[]): string {
  return `!${p}.contains('\\\\') && !${p}.matches('(^|/)[.][.](/|$)') && ${celStringList(allowed)}.exists(a, ${p} == a || ${p}.startsWith(a == '/' ? a : a + '/'))`;
}

/** CEL: normalised repository `r` equals or lies below one of `allowed` (on a path boundary). @internal */
function registryAllowedExpression(r: string, allowed: readonly string[]): string {
  return `${celStringList(allowed)}.exists(p, ${r} == p || ${r}.startsWith(p + '/'))`;
}

/** The policy that applies the registry and host-path allowlists in trusted namespaces, or undefined when neither is set. @internal */
function allowlistPolicy(settings: GuardrailSettings): PolicyPair | undefined {
  const variables = podVariables();
  const validations: CelValidation[] = [];
  const ask = `ask ${settings.contact} to extend the allowlist`;
  if (settings.registryAllowlist) {
    const allowed = settings.registryAllowlist;
    variables.push(...IMAGE_VARIABLES, {
      name: 'deniedImages',
      expression: `variables.imageRepositories.filter(r, !(${registryAllowedExpression('r', allowed)}))`,
    });
    validations.push({
      expression: 'size(variables.deniedImages) == 0',
      message: `${WORKLOADS} in trusted node-service namespaces may only use images from ${allowed.join(', ')}; ${ask}.`,
      messageExpression: `${SUBJECT} + ': images from ' + variables.deniedImages.join(', ') + ' are outside the registry allowlist (${escapeInLiteral(allowed.join(', '))}); ${escapeInLiteral(ask)}.'`,
      reason: 'Forbidden',
    });
  }
  if (settings.hostPathAllowlist) {
    const allowed = settings.hostPathAllowlist;
    variables.push({
      name: 'deniedHostPaths',
      expression:
        `variables.volumes.filter(v, has(v.hostPath) && !(has(v.hostPath.path) && ${hostPathAllowedExpression('v.hostPath.path', allowed)}))` +
        ".map(v, v.name + '=' + (has(v.hostPath.path) ? v.hostPath.path : ''))",
    });
    const rule = `${allowed.join(', ')}; no .. elements, no backslashes`;
    validations.push({
      expression: 'size(variables.deniedHostPaths) == 0',
      message: `${WORKLOADS} in trusted node-service namespaces may only mount host paths under ${rule}; ${ask}.`,
      messageExpression: `${SUBJECT} + ': hostPath volumes ' + variables.deniedHostPaths.join(', ') + ' are outside the host-path allowlist (${escapeInLiteral(rule)}); ${escapeInLiteral(ask)}.'`,
      reason: 'Forbidden',
    });
  }
  if (validations.length === 0) return undefined;
  const name = `${settings.name}-allowlists`;
  return {
    name,
    description: `Restricts ${WORKLOADS.toLowerCase()} in namespaces labelled ${TRUST_LABEL_KEY}=${TRUST_LABEL_VALUE} to the registry and host-path allowlists.`,
    policy: {
      failurePolicy: settings.failurePolicy,
      matchConstraints: { resourceRules: WORKLOAD_RULES },
      matchConditions: [SPEC_CHANGED],
      variables,
      validations,
    },
    binding: {
      policyName: name,
      validationActions: [...settings.validationActions],
      matchResources: { namespaceSelector: { matchLabels: { [TRUST_LABEL_KEY]: TRUST_LABEL_VALUE } } },
    },
  };
}

/** CEL: the trust label's value on `obj`, or `'<unset>'` (not a valid label value, so never confused with one). */
function trustLabelOf(obj: string): string {
  const key = celString(TRUST_LABEL_KEY);
  return `(has(${obj}.metadata.labels) && ${key} in ${obj}.metadata.labels ? ${obj}.metadata.labels[${key}] : '<unset>')`;
}

/**
 * The policy that protects the trust label: only the platform groups (and users) may set, change or remove it, on
 * the Namespace and through every subresource (`namespaces/status` and `namespaces/finalize` keep label changes).
 * It has no namespace selector on purpose: a selector is matched against the new labels, so it would miss the very
 * update that adds the label. It always denies and fails closed, whatever the other policies do: a label granted
 * during a dry run would survive the switch to Deny.
 * @internal
 */
function trustLabelPolicy(settings: GuardrailSettings): PolicyPair | undefined {
  if (!settings.platformGroups) return undefined;
  const groups = settings.platformGroups;
  const users = settings.platformUsers;
  const who = [...groups, ...users].join(', ');
  const name = `${settings.name}-trust-label`;
  const advice = `only ${who} may set, change or remove it; ask ${settings.contact}`;
  const allowedUser = users.length > 0 ? `request.userInfo.username in ${celStringList(users)} || ` : '';
  return {
    name,
    description: `Only ${who} may set, change or remove the ${TRUST_LABEL_KEY} label on namespaces (any subresource, always denied otherwise).`,
    policy: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: [
          { apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces', 'namespaces/*'], operations: ['CREATE', 'UPDATE'] },
        ],
      },
      matchConditions: [
        {
          name: 'trust-label-changed',
          expression: `${trustLabelOf('object')} != (oldObject == null ? '<unset>' : ${trustLabelOf('oldObject')})`,
        },
      ],
      validations: [
        {
          expression: `${allowedUser}(has(request.userInfo.groups) && request.userInfo.groups.exists(g, g in ${celStringList(groups)}))`,
          message: `The namespace label ${TRUST_LABEL_KEY} lets a namespace run node services with host access; ${advice}.`,
          messageExpression: `'user ' + (has(request.userInfo.username) ? request.userInfo.username : '') + ' may not set, change or remove the label ${TRUST_LABEL_KEY} on namespace ' + ${OBJECT_NAME} + ': ${escapeInLiteral(advice)}.'`,
          reason: 'Forbidden',
        },
      ],
    },
    binding: {
      policyName: name,
      validationActions: settings.validationActions.includes('Audit') ? ['Deny', 'Audit'] : ['Deny'],
    },
  };
}

/** Every policy the settings call for, in a stable order. @internal */
export function guardrailPolicies(settings: GuardrailSettings): PolicyPair[] {
  const pairs: PolicyPair[] = [
    trustLabelPolicy(settings),
    hostAccessPolicy(settings),
    tenantPodSecurityPolicy(settings),
    allowlistPolicy(settings),
  ].filter((p): p is PolicyPair => p !== undefined);
  return pairs;
}
