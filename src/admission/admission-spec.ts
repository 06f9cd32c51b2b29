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

import {
  AdmissionCheck,
  addedCapabilities,
  deniedHostPaths,
  deniedImages,
  deniedVolumes,
  IMAGE_VARIABLES,
  systemPriorityClass,
} from './admission-checks';
import { celString, celStringList } from './cel';
import { controlsAt, POD_SECURITY_CONTROLS, PodSecurityLevel } from './pod-security/index';
import { RESTRICTED_VOLUME_SOURCES } from './pod-security/restricted-volumes';
import { TRUST_LABEL_KEY, TRUST_LABEL_VALUE } from './trust-label';

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
  /**
   * The admission checks the policy's validations render, each with the JS check that decides as its CEL does: what
   * the synth-time and lint evaluation of the guardrails run (`admit.ts`). Not emitted.
   */
  readonly checks: readonly AdmissionCheck[];
  /** How to fix a denial of this policy, for the evaluation's messages. Not emitted. */
  readonly fix: string;
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

const OBJECT_NAME = "(has(object.metadata.name) ? object.metadata.name : '')";
const SUBJECT = `request.kind.kind + ' ' + ${OBJECT_NAME} + ' in namespace ' + request.namespace`;

/** Escapes text placed inside a single-quoted CEL literal that the caller opens and closes. */
function escapeInLiteral(text: string): string {
  return celString(text).slice(1, -1);
}

const UNTRUSTED = `namespaces not labelled ${TRUST_LABEL_KEY}=${TRUST_LABEL_VALUE}`;
const WORKLOADS = 'Pods and workloads with a pod template';

/** The variable of each check, holding its offenders. */
function checkVariables(checks: readonly AdmissionCheck[]): CelVariable[] {
  return checks.map((c) => ({ name: c.cel.variable, expression: c.cel.expression }));
}

/** The host-access checks, in the order the policy reports them: the Pod Security controls it enforces, and every added capability. */
const HOST_ACCESS_ORDER = ['hostPathVolumes', 'privileged', 'hostNamespaces', 'addedCapabilities', 'hostPorts'];
const HOST_ACCESS_CHECKS: readonly AdmissionCheck[] = [
  ...POD_SECURITY_CONTROLS.filter((c): c is AdmissionCheck & typeof c => c.cel?.policy === 'host-access'),
  addedCapabilities,
].sort((a, b) => HOST_ACCESS_ORDER.indexOf(a.id) - HOST_ACCESS_ORDER.indexOf(b.id));

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
  const validations: CelValidation[] = HOST_ACCESS_CHECKS.map(({ cel }) => ({
    expression: `size(variables.${cel.variable}) == 0`,
    message: `${WORKLOADS} in ${UNTRUSTED} may not use ${cel.what}; ${advice}.`,
    messageExpression:
      `${SUBJECT} + ': ${cel.what} (' + variables.${cel.variable}.join(', ') + ') are not allowed in ` +
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
      variables: [...podVariables(), ...checkVariables(HOST_ACCESS_CHECKS)],
      validations,
    },
    binding: untrustedBinding(name, settings),
    checks: HOST_ACCESS_CHECKS,
    fix: `run it in a trusted namespace (NodeServiceNamespace, label ${TRUST_LABEL_KEY}=${TRUST_LABEL_VALUE}), or drop the host access`,
  };
}

/** The Pod Security controls the tenant policy enforces at tenant level `level` (the others are host access). */
function podSecurityChecksAt(level: string): AdmissionCheck[] {
  const at = level === 'restricted' ? PodSecurityLevel.RESTRICTED : PodSecurityLevel.BASELINE;
  return controlsAt(at).filter((c): c is AdmissionCheck & typeof c => c.cel?.policy === 'tenant-pod-security');
}

/** The tenant policy's variables beyond the pod and the checks. */
function tenantVariables(level: string): CelVariable[] {
  return [
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
  ];
}

/**
 * The policy that holds tenant pods to Pod Security `baseline` or `restricted` (the controls the host-access policy
 * does not already deny), to the tenant volume types, and away from the `system-*` priority classes. @internal
 */
function tenantPodSecurityPolicy(settings: GuardrailSettings): PolicyPair {
  const level = settings.tenantPodSecurity;
  const advice = `fix the pod spec, or ask ${settings.contact}`;
  const controls = podSecurityChecksAt(level);
  const validation = (variable: string, message: string, messageExpression: string): CelValidation => ({
    expression: `size(variables.${variable}) == 0`,
    message,
    messageExpression,
    reason: 'Forbidden',
  });
  const validations: CelValidation[] = controls.map(({ id, cel }) =>
    validation(
      cel.variable,
      `${WORKLOADS} in ${UNTRUSTED} must meet Pod Security ${level} (control ${id}: no ${cel.what}); ${advice}.`,
      `${SUBJECT} + ' violates Pod Security ${level} (control ${id}): ${escapeInLiteral(cel.what)} (' + ` +
        `variables.${cel.variable}.join(', ') + '); ${escapeInLiteral(advice)}.'`,
    ),
  );
  const volumes = deniedVolumes(settings.tenantVolumeTypes);
  validations.push(
    validation(
      volumes.cel.variable,
      `${WORKLOADS} in ${UNTRUSTED} may only use the volume types ${settings.tenantVolumeTypes.join(', ')}; ${advice}.`,
      `${SUBJECT} + ': ${escapeInLiteral(volumes.cel.what)} are not allowed (' + variables.deniedVolumes.join(', ') + ` +
        `'): the node would mount them itself; ${escapeInLiteral(advice)}.'`,
    ),
    validation(
      systemPriorityClass.cel.variable,
      `${WORKLOADS} in ${UNTRUSTED} may not use the system-* priority classes, which preempt node agents; ${advice}.`,
      `${SUBJECT} + ': priority class ' + variables.podSpec.priorityClassName + ' is reserved for node and cluster ` +
        `components (it preempts node agents); ${escapeInLiteral(advice)}.'`,
    ),
  );
  const checks = [...controls, volumes, systemPriorityClass];
  const name = `${settings.name}-tenant-pod-security`;
  return {
    name,
    description: `Holds ${WORKLOADS.toLowerCase()} in ${UNTRUSTED} to Pod Security ${level} (policy v1.28), the tenant volume types and non-system priority classes.`,
    policy: {
      failurePolicy: settings.failurePolicy,
      matchConstraints: { resourceRules: WORKLOAD_RULES },
      matchConditions: [SPEC_CHANGED],
      variables: [...podVariables(), ...tenantVariables(level), ...checkVariables(checks)],
      validations,
    },
    binding: untrustedBinding(name, settings),
    checks,
    fix: `meet Pod Security ${level}, or run it in a trusted namespace (label ${TRUST_LABEL_KEY}=${TRUST_LABEL_VALUE})`,
  };
}

/** The policy that applies the registry and host-path allowlists in trusted namespaces, or undefined when neither is set. @internal */
function allowlistPolicy(settings: GuardrailSettings): PolicyPair | undefined {
  const variables = podVariables();
  const validations: CelValidation[] = [];
  const checks: AdmissionCheck[] = [];
  const ask = `ask ${settings.contact} to extend the allowlist`;
  if (settings.registryAllowlist) {
    const allowed = settings.registryAllowlist;
    const images = deniedImages(allowed);
    checks.push(images);
    variables.push(...IMAGE_VARIABLES, ...checkVariables([images]));
    validations.push({
      expression: 'size(variables.deniedImages) == 0',
      message: `${WORKLOADS} in trusted node-service namespaces may only use images from ${allowed.join(', ')}; ${ask}.`,
      messageExpression: `${SUBJECT} + ': images from ' + variables.deniedImages.join(', ') + ' are outside the registry allowlist (${escapeInLiteral(allowed.join(', '))}); ${escapeInLiteral(ask)}.'`,
      reason: 'Forbidden',
    });
  }
  if (settings.hostPathAllowlist) {
    const allowed = settings.hostPathAllowlist;
    const paths = deniedHostPaths(allowed);
    checks.push(paths);
    variables.push(...checkVariables([paths]));
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
    checks,
    fix: 'change the service to stay within the allowlists, or extend them',
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
    checks: [],
    fix: `ask ${who} to set the label`,
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
