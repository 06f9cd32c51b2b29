/**
 * `NodeServiceGuardrails`: ValidatingAdmissionPolicies and bindings that keep node-level privilege out of tenant
 * namespaces, hold trusted node-service namespaces to registry and host-path allowlists, and protect the trust label.
 */

import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ProblemCollector } from '../core/errors';
import { checkShape } from '../core/shape';
import { guardrailsPropsShape } from './shapes';
import { ANNOTATION_PREFIX, recommendedLabels } from '../core/labels';
import { dns1123LabelError, hostPathError, labelValueError, normalizeHostPath, parseImage } from '../k8s';
import { GuardrailSettings, guardrailPolicies, PolicyPair } from './admission-spec';
import { dropChartNamespace, TRUST_LABEL_KEY, TRUST_LABEL_VALUE } from './namespace';

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

/** Props of {@link NodeServiceGuardrails}. */
export interface NodeServiceGuardrailsProps {
  /**
   * Prefix of every policy and binding name (a DNS-1123 label), e.g. `node-services-host-access-daemonsets`.
   * @default `node-services`
   */
  readonly name?: string;
  /** Where users ask for an exception or an allowlist change, quoted in every denial (e.g. `#platform-team`). */
  readonly contact: string;
  /**
   * Registries (optionally with a path) that DaemonSets and Pods in trusted namespaces may pull from. Matched on a
   * path boundary: `registry.example.com` allows `registry.example.com/x` but not `registry.example.com.evil.io/x`
   * or `registry.example.com:5000/x`; `ghcr.io/acme` allows `ghcr.io/acme/agent`, not `ghcr.io/acme-evil/agent`.
   * Tags and digests do not matter. An image without a registry host is read as `docker.io/<path>`
   * (`bitnami/kubectl` is `docker.io/bitnami/kubectl`, `nginx` is `docker.io/nginx`), as the lint rules read it.
   * @default no registry check
   */
  readonly registryAllowlist?: string[];
  /**
   * Host paths that DaemonSets and Pods in trusted namespaces may mount: each entry covers itself and everything
   * below it, on a path-element boundary (`/var/log` allows `/var/log/pods`, not `/var/logs`). Paths with a `..`
   * element are always denied.
   * @default no host-path check
   */
  readonly hostPathAllowlist?: string[];
  /**
   * Protect the trust label: only `platformGroups` may set, change or remove `node-services.cdk8s.io/trusted` on
   * a namespace. Without it, anyone who can edit a namespace can make it trusted.
   * @default true
   */
  readonly protectTrustLabel?: boolean;
  /**
   * Groups (`request.userInfo.groups`) allowed to set, change or remove the trust label; required when the label is
   * protected. Include the identity your GitOps tool applies with (e.g. `system:serviceaccounts:argocd`), or it
   * cannot create the node-services namespace.
   * @default none
   */
  readonly platformGroups?: string[];
  /**
   * Namespaces never treated as untrusted, matched by the immutable `kubernetes.io/metadata.name` label (the
   * cluster's own node agents such as kube-proxy live in kube-system).
   * @default ['kube-system']
   */
  readonly exemptNamespaces?: string[];
  /**
   * What a failed validation does. `DENY` and `WARN` may not be combined (the API server rejects the binding).
   * @default [ValidationAction.DENY]
   */
  readonly validationActions?: ValidationAction[];
  /**
   * Roll out without blocking anything: bindings use `[Warn, Audit]`, so violations show up as `kubectl` warnings
   * and audit annotations. Switch to the default once the warnings are gone. Exclusive with `validationActions`.
   * @default false
   */
  readonly dryRun?: boolean;
  /**
   * API version of the emitted objects: v1beta1 for Kubernetes 1.28–1.29, v1 from 1.30.
   * @default AdmissionPolicyApiVersion.V1BETA1
   */
  readonly apiVersion?: AdmissionPolicyApiVersion;
  /**
   * What happens when a policy cannot be evaluated.
   * @default AdmissionFailurePolicy.FAIL
   */
  readonly failurePolicy?: AdmissionFailurePolicy;
  /**
   * `app.kubernetes.io/part-of` of the emitted objects.
   * @default `node-services`
   */
  readonly partOf?: string;
}

// Matching control characters is the point: they may not appear in admission messages.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/**
 * Admission guardrails for node-level privilege in a multi-tenant cluster (Kubernetes 1.28 ValidatingAdmissionPolicy).
 *
 * - `<name>-host-access-daemonsets` / `-pods`: in namespaces not labelled `node-services.cdk8s.io/trusted=true`
 *   (and not exempt), DaemonSets and Pods (including ephemeral containers added by `kubectl debug`) may not use
 *   hostPath volumes, privileged containers, host namespaces, added capabilities or host ports — checked in
 *   containers, init containers and ephemeral containers. Pod Security Admission cannot do this for DaemonSets: it
 *   only warns on the DaemonSet and rejects the pods later.
 * - `<name>-allowlists-daemonsets` / `-pods` (when an allowlist is set): in trusted namespaces, images must come from
 *   the registry allowlist and hostPath volumes must lie within the host-path allowlist.
 * - `<name>-trust-label` (unless `protectTrustLabel: false`): only the platform groups may set, change or remove the
 *   trust label on a namespace.
 *
 * Namespace trust is matched by the bindings' `namespaceSelector` (label `node-services.cdk8s.io/trusted`, plus the
 * immutable `kubernetes.io/metadata.name` for exemptions), which 1.28 evaluates before any CEL runs. Updates that do
 * not change the pod spec (labels, finalizers) are not re-checked, so objects admitted earlier can still be relabelled
 * and deleted. Pods are checked whatever created them (owner references can be forged), so a tenant cannot route
 * host access through a Deployment either. Every denial says what was denied, in which object and namespace, and
 * whom to ask.
 *
 * On Kubernetes 1.28 the API is beta and off by default: the API server needs
 * `--feature-gates=ValidatingAdmissionPolicy=true --runtime-config=admissionregistration.k8s.io/v1beta1=true`.
 */
export class NodeServiceGuardrails extends Construct {
  /** The ValidatingAdmissionPolicy objects. */
  public readonly policies: ApiObject[] = [];
  /** The ValidatingAdmissionPolicyBinding objects (one per policy, same name). */
  public readonly bindings: ApiObject[] = [];
  /** The names of the policies (and of their bindings). */
  public readonly policyNames: string[];
  /** The `validationActions` every binding uses. */
  public readonly validationActions: ValidationAction[];
  /** The API version of the emitted objects. */
  public readonly apiVersion: AdmissionPolicyApiVersion;

  constructor(scope: Construct, id: string, props: NodeServiceGuardrailsProps) {
    super(scope, id);
    const problems = new ProblemCollector();
    if (typeof props === 'object' && props !== null) props = checkShape(props, guardrailsPropsShape(), problems, 'NodeServiceGuardrails');
    if (!props || typeof props !== 'object') {
      problems.add(
        'props',
        props,
        'props are required',
        'pass at least { contact: "#platform-team", platformGroups: ["platform-admins"] }',
      );
      problems.throwIfAny(this.node.path);
    }

    const name = props.name ?? 'node-services';
    problems.check('name', name, dns1123LabelError(name), 'use a short lower-case prefix such as "node-services"');

    if (typeof props.contact !== 'string' || props.contact.trim().length === 0) {
      problems.add(
        'contact',
        props.contact,
        'is required: every denial tells the user where to ask',
        'name a channel or team, e.g. "#platform-team"',
      );
    } else if (CONTROL_CHARS.test(props.contact) || props.contact.length > 200) {
      problems.add(
        'contact',
        props.contact,
        'must be one line of at most 200 characters (admission messages may not contain line breaks)',
        'shorten it, e.g. "#platform-team"',
      );
    }

    const registryAllowlist = props.registryAllowlist === undefined ? undefined : this.checkRegistries(props.registryAllowlist, problems);
    const hostPathAllowlist = props.hostPathAllowlist === undefined ? undefined : this.checkHostPaths(props.hostPathAllowlist, problems);

    const protect = props.protectTrustLabel ?? true;
    let platformGroups: string[] | undefined;
    if (protect) {
      if (!Array.isArray(props.platformGroups) || props.platformGroups.length === 0) {
        problems.add(
          'platformGroups',
          props.platformGroups,
          `is required while protectTrustLabel is on: nobody could set ${TRUST_LABEL_KEY}=${TRUST_LABEL_VALUE}`,
          'list the groups that manage node-service namespaces, e.g. ["platform-admins", "system:serviceaccounts:argocd"]',
        );
      } else {
        props.platformGroups.forEach((g, i) => {
          if (typeof g !== 'string' || g.trim().length === 0 || CONTROL_CHARS.test(g)) {
            problems.add(
              `platformGroups[${i}]`,
              g,
              'must be a non-empty group name on one line',
              'use a group as the API server sees it, e.g. "platform-admins"',
            );
          }
        });
        platformGroups = [...props.platformGroups];
      }
    } else if (props.platformGroups !== undefined) {
      problems.add(
        'platformGroups',
        props.platformGroups,
        'has no effect while protectTrustLabel is false',
        'remove platformGroups, or turn protectTrustLabel on',
      );
    }

    const exempt = props.exemptNamespaces ?? ['kube-system'];
    exempt.forEach((ns, i) =>
      problems.check(`exemptNamespaces[${i}]`, ns, dns1123LabelError(ns), 'use namespace names such as "kube-system"'),
    );

    this.validationActions = this.resolveActions(props, problems);

    this.apiVersion = props.apiVersion ?? AdmissionPolicyApiVersion.V1BETA1;
    if (!Object.values(AdmissionPolicyApiVersion).includes(this.apiVersion)) {
      problems.add(
        'apiVersion',
        this.apiVersion,
        'is not a ValidatingAdmissionPolicy API version',
        'use AdmissionPolicyApiVersion.V1BETA1 (Kubernetes 1.28) or V1 (1.30+)',
      );
    }
    const failurePolicy = props.failurePolicy ?? AdmissionFailurePolicy.FAIL;
    if (!Object.values(AdmissionFailurePolicy).includes(failurePolicy)) {
      problems.add('failurePolicy', failurePolicy, 'is not a failure policy', 'use AdmissionFailurePolicy.FAIL or IGNORE');
    }
    const partOf = props.partOf ?? 'node-services';
    problems.check('partOf', partOf, labelValueError(partOf), 'use a valid label value such as "node-services"');
    problems.throwIfAny(this.node.path);

    const settings: GuardrailSettings = {
      name,
      contact: props.contact.trim(),
      registryAllowlist,
      hostPathAllowlist,
      platformGroups,
      exemptNamespaces: [...exempt],
      validationActions: [...this.validationActions],
      failurePolicy,
    };
    const pairs = guardrailPolicies(settings);
    this.policyNames = pairs.map((p) => p.name);
    for (const pair of pairs) this.emit(pair, name, partOf);
  }

  private resolveActions(props: NodeServiceGuardrailsProps, problems: ProblemCollector): ValidationAction[] {
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

  private checkRegistries(list: string[], problems: ProblemCollector): string[] {
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

  private checkHostPaths(list: string[], problems: ProblemCollector): string[] {
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
      const error = typeof entry === 'string' && CONTROL_CHARS.test(entry) ? 'must not contain control characters' : hostPathError(entry);
      problems.check(field, entry, error, 'use an absolute, normalised path such as "/var/log"');
      return typeof entry === 'string' ? normalizeHostPath(entry) : '';
    });
    if (new Set(normalised).size !== normalised.length) {
      problems.add('hostPathAllowlist', list, 'lists a path twice', 'list each path once');
    }
    return normalised;
  }

  private emit(pair: PolicyPair, instance: string, partOf: string): void {
    const metadata = (component: string) => ({
      name: pair.name,
      labels: recommendedLabels({ name: 'node-service-guardrails', instance, component, partOf }),
      annotations: { [`${ANNOTATION_PREFIX}/description`]: pair.description },
    });
    const id = pair.name.slice(instance.length + 1);
    let policy: ApiObject;
    let binding: ApiObject;
    if (this.apiVersion === AdmissionPolicyApiVersion.V1BETA1) {
      policy = new k8s.KubeValidatingAdmissionPolicyV1Beta1(this, id, { metadata: metadata('admission-policy'), spec: pair.policy });
      binding = new k8s.KubeValidatingAdmissionPolicyBindingV1Beta1(this, `${id}-binding`, {
        metadata: metadata('admission-policy-binding'),
        spec: pair.binding,
      });
    } else {
      policy = new ApiObject(this, id, {
        apiVersion: this.apiVersion,
        kind: 'ValidatingAdmissionPolicy',
        metadata: metadata('admission-policy'),
        spec: pair.policy,
      });
      binding = new ApiObject(this, `${id}-binding`, {
        apiVersion: this.apiVersion,
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: metadata('admission-policy-binding'),
        spec: pair.binding,
      });
    }
    dropChartNamespace(policy);
    dropChartNamespace(binding);
    this.policies.push(policy);
    this.bindings.push(binding);
  }
}
