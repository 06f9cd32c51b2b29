/**
 * Plain-JSON specs of the node-service admission policies (ValidatingAdmissionPolicy + binding) and the CEL they
 * carry. Pure functions, no cdk8s: the construct wraps them in API objects, the tests evaluate the CEL.
 *
 * Every expression is written for the Kubernetes 1.28 CEL environment: `has()` guards on every optional field (the
 * API server drops `false`/`0`/empty values before admission, so a field read without a guard errors), no optional
 * syntax (`?.`, `[?`, `.orValue()`), only the standard library, macros and the extended strings library
 * (`split`, `join`, `substring`, `lastIndexOf`), and no validation that is just `variables.x` (1.28 rejects it as
 * not boolean). Namespace trust is matched with binding `namespaceSelector`s, not `namespaceObject`, because a
 * selector is evaluated before any CEL runs, is visible in `kubectl get`, and costs nothing per request.
 */

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
  /** Namespaces never treated as untrusted (matched by `kubernetes.io/metadata.name`). */
  readonly exemptNamespaces: string[];
  /** `validationActions` of every binding. */
  readonly validationActions: string[];
  /** `failurePolicy` of every policy. */
  readonly failurePolicy: string;
}

/** A CEL string literal for `value` (single-quoted, escaped). @internal */
function celString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A CEL list literal of strings. @internal */
function celStringList(values: readonly string[]): string {
  return `[${values.map(celString).join(', ')}]`;
}

/** The shape of a workload whose pod spec the policies inspect. */
interface WorkloadShape {
  /** Suffix of the policy names. */
  readonly id: string;
  /** Kind, for messages. */
  readonly kind: string;
  /** CEL path of the pod spec. */
  readonly podSpec: string;
  readonly rules: ResourceRule[];
  /** Match condition: skip updates that do not change the pod spec (metadata edits, finalizer removal). */
  readonly changed: CelMatchCondition;
}

const DAEMONSETS: WorkloadShape = {
  id: 'daemonsets',
  kind: 'DaemonSet',
  podSpec: 'object.spec.template.spec',
  rules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['daemonsets'], operations: ['CREATE', 'UPDATE'] }],
  changed: { name: 'pod-template-changed', expression: 'oldObject == null || object.spec.template != oldObject.spec.template' },
};

const PODS: WorkloadShape = {
  id: 'pods',
  kind: 'Pod',
  podSpec: 'object.spec',
  // `kubectl debug` adds ephemeral containers through the subresource, not through an update of the pod.
  rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'pods/ephemeralcontainers'], operations: ['CREATE', 'UPDATE'] }],
  changed: { name: 'pod-spec-changed', expression: 'oldObject == null || object.spec != oldObject.spec' },
};

/** The shapes the workload policies cover. @internal */
const WORKLOAD_SHAPES: readonly WorkloadShape[] = [DAEMONSETS, PODS];

const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;

function podVariables(shape: WorkloadShape): CelVariable[] {
  const listOf = (field: string) => `has(variables.podSpec.${field}) ? variables.podSpec.${field} : []`;
  return [
    { name: 'podSpec', expression: shape.podSpec },
    ...CONTAINER_LISTS.map((l) => ({ name: l, expression: listOf(l) })),
    { name: 'volumes', expression: listOf('volumes') },
  ];
}

/** CEL: the `render`ed entries of every container, init container and ephemeral container for which `bad` holds. */
function offendingContainers(bad: string, render: string): string {
  return CONTAINER_LISTS.map((l) => `variables.${l}.filter(c, ${bad}).map(c, ${render})`).join(' + ');
}

const OBJECT_NAME = "(has(object.metadata.name) ? object.metadata.name : '')";

function subject(shape: WorkloadShape): string {
  return `'${shape.kind} ' + ${OBJECT_NAME} + ' in namespace ' + request.namespace`;
}

/** Escapes text placed inside a single-quoted CEL literal that the caller opens and closes. */
function escapeInLiteral(text: string): string {
  return celString(text).slice(1, -1);
}

const UNTRUSTED = `namespaces not labelled ${TRUST_LABEL_KEY}=${TRUST_LABEL_VALUE}`;

const PRIVILEGED = 'has(c.securityContext) && has(c.securityContext.privileged) && c.securityContext.privileged == true';
const ADDS_CAPABILITIES =
  'has(c.securityContext) && has(c.securityContext.capabilities) && has(c.securityContext.capabilities.add) && size(c.securityContext.capabilities.add) > 0';
const HOST_PORT = 'has(p.hostPort) && p.hostPort != 0';
const USES_HOST_PORT = `has(c.ports) && c.ports.exists(p, ${HOST_PORT})`;
const HOST_NAMESPACES = ['hostNetwork', 'hostPID', 'hostIPC'] as const;

/** One kind of host access: a variable listing the offenders, and the words for the message. */
interface HostAccessCheck {
  readonly variable: string;
  readonly what: string;
  readonly expression: string;
}

const HOST_ACCESS_CHECKS: readonly HostAccessCheck[] = [
  { variable: 'hostPathVolumes', what: 'hostPath volumes', expression: 'variables.volumes.filter(v, has(v.hostPath)).map(v, v.name)' },
  { variable: 'privilegedContainers', what: 'privileged containers', expression: offendingContainers(PRIVILEGED, 'c.name') },
  {
    variable: 'hostNamespaces',
    what: 'host namespaces',
    expression: HOST_NAMESPACES.map((f) => `(has(variables.podSpec.${f}) && variables.podSpec.${f} == true ? ['${f}'] : [])`).join(' + '),
  },
  {
    variable: 'addedCapabilities',
    what: 'added capabilities',
    expression: offendingContainers(ADDS_CAPABILITIES, "c.name + ' adds ' + c.securityContext.capabilities.add.join('+')"),
  },
  {
    variable: 'hostPorts',
    what: 'host ports',
    expression: offendingContainers(
      USES_HOST_PORT,
      `c.name + ' uses ' + c.ports.filter(p, ${HOST_PORT}).map(p, string(p.hostPort)).join('+')`,
    ),
  },
];

/** The policy that keeps host access out of untrusted namespaces, for one workload shape. @internal */
function hostAccessPolicy(shape: WorkloadShape, settings: GuardrailSettings): PolicyPair {
  const advice = `node services belong in a trusted platform namespace; ask ${settings.contact}`;
  const validations: CelValidation[] = HOST_ACCESS_CHECKS.map((check) => ({
    expression: `size(variables.${check.variable}) == 0`,
    message: `${shape.kind}s in ${UNTRUSTED} may not use ${check.what}; ${advice}.`,
    messageExpression:
      `${subject(shape)} + ': ${check.what} (' + variables.${check.variable}.join(', ') + ') are not allowed in ` +
      `${escapeInLiteral(UNTRUSTED)}; ${escapeInLiteral(advice)}.'`,
    reason: 'Forbidden',
  }));
  const name = `${settings.name}-host-access-${shape.id}`;
  const selector: Selector = {
    matchExpressions: [
      { key: TRUST_LABEL_KEY, operator: 'NotIn', values: [TRUST_LABEL_VALUE] },
      ...(settings.exemptNamespaces.length > 0
        ? [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: [...settings.exemptNamespaces] }]
        : []),
    ],
  };
  return {
    name,
    description: `Denies hostPath volumes, privileged containers, host namespaces, added capabilities and host ports to ${shape.kind}s in ${UNTRUSTED}.`,
    policy: {
      failurePolicy: settings.failurePolicy,
      matchConstraints: { resourceRules: shape.rules },
      matchConditions: [shape.changed],
      variables: [...podVariables(shape), ...HOST_ACCESS_CHECKS.map((c) => ({ name: c.variable, expression: c.expression }))],
      validations,
    },
    binding: { policyName: name, validationActions: [...settings.validationActions], matchResources: { namespaceSelector: selector } },
  };
}

/**
 * CEL for "the image reference's repository, normalised": digest removed, tag removed, `docker.io/` added when the
 * first path element is not a registry host (no '.' or ':' and not `localhost`). Mirrors `parseImage`.
 */
const IMAGE_VARIABLES: CelVariable[] = [
  {
    name: 'images',
    expression: CONTAINER_LISTS.map((l) => `variables.${l}.map(c, has(c.image) ? c.image : '')`).join(' + '),
  },
  { name: 'imageNames', expression: "variables.images.map(i, i.split('@')[0])" },
  {
    name: 'imageRepositories',
    expression:
      "variables.imageNames.map(n, n.matches(':[^/]*$') ? n.substring(0, n.lastIndexOf(':')) : n)" +
      ".map(r, r.matches('^([^/]*[.:][^/]*|localhost)/') ? r : 'docker.io/' + r)",
  },
];

/** CEL: path `p` has no `..` element and lies within one of `allowed` (on a path-element boundary). @internal */
function hostPathAllowedExpression(p: string, allowed: readonly string[]): string {
  return `!${p}.matches('(^|/)[.][.](/|$)') && ${celStringList(allowed)}.exists(a, ${p} == a || ${p}.startsWith(a == '/' ? a : a + '/'))`;
}

/** CEL: normalised repository `r` equals or lies below one of `allowed` (on a path boundary). @internal */
function registryAllowedExpression(r: string, allowed: readonly string[]): string {
  return `${celStringList(allowed)}.exists(p, ${r} == p || ${r}.startsWith(p + '/'))`;
}

/** The policy that applies the registry and host-path allowlists in trusted namespaces, or undefined when neither is set. @internal */
function allowlistPolicy(shape: WorkloadShape, settings: GuardrailSettings): PolicyPair | undefined {
  const variables = podVariables(shape);
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
      message: `${shape.kind}s in trusted node-service namespaces may only use images from ${allowed.join(', ')}; ${ask}.`,
      messageExpression: `${subject(shape)} + ': images from ' + variables.deniedImages.join(', ') + ' are outside the registry allowlist (${escapeInLiteral(allowed.join(', '))}); ${escapeInLiteral(ask)}.'`,
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
    validations.push({
      expression: 'size(variables.deniedHostPaths) == 0',
      message: `${shape.kind}s in trusted node-service namespaces may only mount host paths under ${allowed.join(', ')} (no .. elements); ${ask}.`,
      messageExpression: `${subject(shape)} + ': hostPath volumes ' + variables.deniedHostPaths.join(', ') + ' are outside the host-path allowlist (${escapeInLiteral(allowed.join(', '))}; no .. elements); ${escapeInLiteral(ask)}.'`,
      reason: 'Forbidden',
    });
  }
  if (validations.length === 0) return undefined;
  const name = `${settings.name}-allowlists-${shape.id}`;
  return {
    name,
    description: `Restricts ${shape.kind}s in namespaces labelled ${TRUST_LABEL_KEY}=${TRUST_LABEL_VALUE} to the registry and host-path allowlists.`,
    policy: {
      failurePolicy: settings.failurePolicy,
      matchConstraints: { resourceRules: shape.rules },
      matchConditions: [shape.changed],
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
 * The policy that protects the trust label: only the platform groups may set, change or remove it. It has no
 * namespace selector on purpose: a selector is matched against the new labels, so it would miss the very update
 * that adds the label.
 * @internal
 */
function trustLabelPolicy(settings: GuardrailSettings): PolicyPair | undefined {
  if (!settings.platformGroups) return undefined;
  const groups = settings.platformGroups;
  const name = `${settings.name}-trust-label`;
  const advice = `only members of ${groups.join(', ')} may set, change or remove it; ask ${settings.contact}`;
  return {
    name,
    description: `Only members of ${groups.join(', ')} may set, change or remove the ${TRUST_LABEL_KEY} label on namespaces.`,
    policy: {
      failurePolicy: settings.failurePolicy,
      matchConstraints: {
        resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'], operations: ['CREATE', 'UPDATE'] }],
      },
      matchConditions: [
        {
          name: 'trust-label-changed',
          expression: `${trustLabelOf('object')} != (oldObject == null ? '<unset>' : ${trustLabelOf('oldObject')})`,
        },
      ],
      validations: [
        {
          expression: `has(request.userInfo.groups) && request.userInfo.groups.exists(g, g in ${celStringList(groups)})`,
          message: `The namespace label ${TRUST_LABEL_KEY} lets a namespace run node services with host access; ${advice}.`,
          messageExpression: `'user ' + (has(request.userInfo.username) ? request.userInfo.username : '') + ' may not set, change or remove the label ${TRUST_LABEL_KEY} on namespace ' + ${OBJECT_NAME} + ': ${escapeInLiteral(advice)}.'`,
          reason: 'Forbidden',
        },
      ],
    },
    binding: { policyName: name, validationActions: [...settings.validationActions] },
  };
}

/** Every policy the settings call for, in a stable order. @internal */
export function guardrailPolicies(settings: GuardrailSettings): PolicyPair[] {
  const pairs: PolicyPair[] = [];
  for (const shape of WORKLOAD_SHAPES) pairs.push(hostAccessPolicy(shape, settings));
  for (const shape of WORKLOAD_SHAPES) {
    const pair = allowlistPolicy(shape, settings);
    if (pair) pairs.push(pair);
  }
  const trust = trustLabelPolicy(settings);
  if (trust) pairs.push(trust);
  return pairs;
}
