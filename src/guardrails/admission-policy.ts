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
import { recommendedLabels } from '../core/labels';
import { DESCRIPTION_ANNOTATION } from '../k8s/vocabulary';
import { dns1123LabelError, hostPathError, labelValueError, normalizeHostPath, parseImage } from '../k8s';
import { kindServedFrom } from '../k8s/api-fields';
import { IPolicyLogger, NodeServiceChecks, PolicyLoggers } from '../policy/synth';
import { BASELINE_VOLUME_SOURCES, GuardrailSettings, guardrailPolicies, PolicyPair } from '../admission/admission-spec';
import { RESTRICTED_VOLUME_SOURCES, VOLUME_SOURCES_128 } from '../admission/pod-security/restricted-volumes';
import { GUARDRAIL_SETTINGS_ANNOTATION } from '../admission/admit';
import { dropChartNamespace, TRUST_LABEL_KEY, TRUST_LABEL_VALUE } from './namespace';
import { checkAppAgainstGuardrails } from './self-check';
import { PodSecurityLevel } from '../admission/pod-security';

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
   * Prefix of every policy and binding name (a DNS-1123 label), e.g. `node-services-host-access`.
   * @default `node-services`
   */
  readonly name?: string;
  /** Where users ask for an exception or an allowlist change, quoted in every denial (e.g. `#platform-team`). */
  readonly contact: string;
  /**
   * Registries (optionally with a path) that Pods and workloads in trusted namespaces may pull from. Matched on a
   * path boundary: `registry.example.com` allows `registry.example.com/x` but not `registry.example.com.evil.io/x`
   * or `registry.example.com:5000/x`; `ghcr.io/acme` allows `ghcr.io/acme/agent`, not `ghcr.io/acme-evil/agent`.
   * Tags and digests do not matter. Image references are read as container runtimes read them: the first element
   * is a registry host when it contains `.` or `:`, is `localhost` or has upper-case letters (`Evil/agent` is host
   * `Evil`, never Docker Hub); otherwise the image is on `docker.io` (`bitnami/kubectl` is
   * `docker.io/bitnami/kubectl`), and a one-element Docker Hub name is an official image (`nginx` and
   * `docker.io/nginx` are `docker.io/library/nginx`, so `docker.io/flannel` allows the `flannel` organisation's
   * images, not the `library/flannel` image; allow that one as `docker.io/library/flannel`).
   * @default no registry check
   */
  readonly registryAllowlist?: string[];
  /**
   * Host paths that Pods and workloads in trusted namespaces may mount: each entry covers itself and everything
   * below it, on a path-element boundary (`/var/log` allows `/var/log/pods`, not `/var/logs`). Paths with a `..`
   * element or a backslash (a path separator on Windows nodes, so `/var/log\..\..\etc` escapes) are always denied.
   * @default no host-path check
   */
  readonly hostPathAllowlist?: string[];
  /**
   * Protect the trust label: only `platformGroups` and `platformUsers` may set, change or remove
   * `node-services.cdk8s.io/trusted` on a namespace (also through its subresources, also under `dryRun`). Without
   * it, anyone who can edit a namespace can make it trusted.
   * @default true
   */
  readonly protectTrustLabel?: boolean;
  /**
   * Groups (`request.userInfo.groups`) allowed to set, change or remove the trust label; this or `platformUsers` is
   * required when the label is protected. Name groups whose every member you trust with host access. A group that
   * names every service account of a namespace (`system:serviceaccounts:argocd`) gets a synth-time warning: anyone
   * who can run a pod or mint a token for any service account there could mark namespaces trusted; list the one
   * service account in `platformUsers` instead. Cluster-wide groups (`system:serviceaccounts`,
   * `system:authenticated`, `system:unauthenticated`) are refused: tenants are members of them.
   * @default none
   */
  readonly platformGroups?: string[];
  /**
   * Users (`request.userInfo.username`) allowed to set, change or remove the trust label, e.g. the service account
   * your GitOps tool applies with: `system:serviceaccount:argocd:argocd-application-controller`.
   * @default none
   */
  readonly platformUsers?: string[];
  /**
   * The Pod Security Standards level (policy v1.28) that pods and pod templates in tenant namespaces (not trusted,
   * not exempt) must meet, enforced by the admission policies on the Pod and on every workload at its own admission,
   * in addition to the host-access checks: `BASELINE` (also forbids unconfined seccomp and AppArmor, SELinux
   * types, users and roles, unsafe sysctls, `/proc` mount types other than `Default`, Windows HostProcess) or
   * `RESTRICTED` (also requires non-root, no privilege escalation, a seccomp profile and `drop: [ALL]`).
   * @default PodSecurityLevel.BASELINE
   */
  readonly tenantPodSecurity?: PodSecurityLevel;
  /**
   * Volume types (the `Volume` field names, e.g. `nfs`) tenant pods may use beyond the defaults. By default tenants
   * get the `restricted` set (configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected,
   * secret) and, at `BASELINE`, the CSI-migrated cloud disks (awsElasticBlockStore, azureDisk, azureFile, cinder,
   * gcePersistentDisk, portworxVolume, vsphereVolume). Everything else makes the node mount something as root with
   * its own identity (gitRepo runs git on the node, CVE-2024-10220; flexVolume runs a node binary; iscsi, rbd, fc,
   * nfs, cephfs, glusterfs, quobyte) and is denied unless listed here. `hostPath` cannot be listed: it is host access.
   * @default none
   */
  readonly allowedTenantVolumeTypes?: string[];
  /**
   * Namespaces never treated as untrusted, matched by the immutable `kubernetes.io/metadata.name` label (the
   * cluster's own node agents such as kube-proxy live in kube-system).
   * @default ['kube-system']
   */
  readonly exemptNamespaces?: string[];
  /**
   * What a failed validation of the host-access, tenant Pod Security and allowlist policies does. `DENY` and `WARN`
   * may not be combined (the API server rejects the binding). The trust-label policy always denies (and audits too
   * when `AUDIT` is listed).
   * @default [ValidationAction.DENY]
   */
  readonly validationActions?: ValidationAction[];
  /**
   * Roll out without blocking workloads: the host-access, tenant Pod Security and allowlist bindings use
   * `[Warn, Audit]`, so violations show up as `kubectl` warnings and audit annotations. Switch to the default once the
   * warnings are gone. The trust label stays protected (`[Deny, Audit]`): a label granted during the dry run would
   * outlive it. Exclusive with `validationActions`.
   * @default false
   */
  readonly dryRun?: boolean;
  /**
   * API version of the emitted objects: v1beta1 for Kubernetes 1.28–1.29, v1 from 1.30. V1 is refused unless the
   * App targets 1.30 or later, declared before this construct: `NodeServiceChecks.of(app, { kubernetesVersion: '1.30' })`
   * (a `Fleet` cluster declares its version itself).
   * @default the App's target: AdmissionPolicyApiVersion.V1 from Kubernetes 1.30, else V1BETA1
   */
  readonly apiVersion?: AdmissionPolicyApiVersion;
  /**
   * What happens when the host-access, tenant Pod Security or allowlist policy cannot be evaluated (CEL error,
   * runtime cost budget exceeded). The trust-label policy always fails closed.
   * @default AdmissionFailurePolicy.FAIL
   */
  readonly failurePolicy?: AdmissionFailurePolicy;
  /**
   * `app.kubernetes.io/part-of` of the emitted objects.
   * @default `node-services`
   */
  readonly partOf?: string;
  /**
   * Where synth-time warnings about the configuration (e.g. a platform group of a whole namespace) are printed.
   * @default PolicyLoggers.stderr()
   */
  readonly logger?: IPolicyLogger;
}

/** Groups every tenant is a member of: naming one as a platform group would let tenants mark namespaces trusted. */
const CLUSTER_WIDE_GROUPS = ['system:serviceaccounts', 'system:authenticated', 'system:unauthenticated'];
const NAMESPACE_SERVICE_ACCOUNTS = /^system:serviceaccounts:(.+)$/;

// Matching control characters is the point: they may not appear in admission messages.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/**
 * Admission guardrails for node-level privilege in a multi-tenant cluster (Kubernetes 1.28 ValidatingAdmissionPolicy).
 *
 * Every policy matches Pods (including ephemeral containers added by `kubectl debug`) and every workload with a pod
 * template — Deployments, StatefulSets, DaemonSets, ReplicaSets, Jobs, CronJobs, ReplicationControllers — and
 * applies one rule set to the pod or pod template of each, in containers, init containers and ephemeral containers.
 * A workload that could never create its pods is refused when it is applied, not left without pods.
 *
 * - `<name>-trust-label` (unless `protectTrustLabel: false`): only the platform groups and users may set, change or
 *   remove the trust label on a namespace, through the Namespace or any of its subresources (`namespaces/status`
 *   and `namespaces/finalize` keep label changes). It always denies, also under `dryRun`, and always fails closed.
 * - `<name>-host-access`: in namespaces not labelled `node-services.cdk8s.io/trusted=true` (and not exempt), no
 *   hostPath volumes, privileged containers, host namespaces, added capabilities or host ports.
 * - `<name>-tenant-pod-security`: in the same namespaces, the Pod Security Standards at `tenantPodSecurity`
 *   (baseline by default), the tenant volume types, and no `system-*` priority class. Pod Security Admission cannot
 *   do this for workloads: it only warns on them and rejects their pods later.
 * - `<name>-allowlists` (when an allowlist is set): in trusted namespaces, images must come from the registry
 *   allowlist and hostPath volumes must lie within the host-path allowlist.
 *
 * Namespace trust is matched by the bindings' `namespaceSelector` (label `node-services.cdk8s.io/trusted`, plus the
 * immutable `kubernetes.io/metadata.name` for exemptions), which 1.28 evaluates before any CEL runs. Updates that do
 * not change the spec (labels, finalizers) are not re-checked, so objects admitted earlier can still be relabelled
 * and deleted. Pods are checked whatever created them (owner references can be forged). Every denial says what was
 * denied, in which object and namespace, and whom to ask.
 *
 * The policies hold only while tenants cannot change them, their namespaces' labels, PersistentVolumes or whom they
 * act as: see the README section "RBAC the guardrails rely on".
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
  /** The Pod Security level tenant pods are held to. */
  public readonly tenantPodSecurity: PodSecurityLevel;
  /** The volume types tenant pods may use. */
  public readonly tenantVolumeTypes: string[];
  /** Warnings about the configuration, printed to `logger` at synthesis (empty when there are none). */
  public readonly warnings: string[] = [];

  constructor(scope: Construct, id: string, props: NodeServiceGuardrailsProps) {
    super(scope, id);
    const problems = new ProblemCollector();
    if (typeof props === 'object' && props !== null) props = checkShape(props, guardrailsPropsShape(), problems, 'NodeServiceGuardrails');
    else {
      problems.add(
        'props',
        props,
        'props are required',
        'pass at least { contact: "#platform-team", platformGroups: ["platform-admins"] }',
      );
      // The checks below then read no field, and report nothing more.
      problems.mute('');
      props = {} as NodeServiceGuardrailsProps;
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
    const platformGroups = this.checkIdentities('platformGroups', props.platformGroups, protect, problems);
    const platformUsers = this.checkIdentities('platformUsers', props.platformUsers, protect, problems);
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
        this.warnings.push(
          `${this.node.path}: platformGroups[${i}] "${g}" names every service account of namespace ${ns[1]}: any of them, and anyone who can ` +
            `run a pod or request a token for one there, may mark namespaces ${TRUST_LABEL_KEY}=${TRUST_LABEL_VALUE}. Fix: list the one service ` +
            `account in platformUsers (e.g. "system:serviceaccount:${ns[1]}:<name>"), or use a group that holds only it.`,
        );
      }
    });

    const tenantPodSecurity = props.tenantPodSecurity ?? PodSecurityLevel.BASELINE;
    if (tenantPodSecurity !== PodSecurityLevel.BASELINE && tenantPodSecurity !== PodSecurityLevel.RESTRICTED) {
      problems.add(
        'tenantPodSecurity',
        tenantPodSecurity,
        'must be baseline or restricted (privileged would let tenant pods escape the Pod Security controls the host-access policy does not cover)',
        'use PodSecurityLevel.BASELINE (the default) or PodSecurityLevel.RESTRICTED',
      );
    }
    this.tenantPodSecurity = tenantPodSecurity;
    this.tenantVolumeTypes = this.resolveVolumeTypes(tenantPodSecurity, props.allowedTenantVolumeTypes, problems);

    const exempt = props.exemptNamespaces ?? ['kube-system'];
    exempt.forEach((ns, i) =>
      problems.check(`exemptNamespaces[${i}]`, ns, dns1123LabelError(ns), 'use namespace names such as "kube-system"'),
    );

    this.validationActions = this.resolveActions(props, problems);

    // The App's target Kubernetes version decides the default (admissionregistration.k8s.io/v1 is served from 1.30).
    const target = NodeServiceChecks.kubernetesVersionOf(this);
    this.apiVersion =
      props.apiVersion ??
      (kindServedFrom({ apiVersion: AdmissionPolicyApiVersion.V1, kind: 'ValidatingAdmissionPolicy' }, target) === undefined
        ? AdmissionPolicyApiVersion.V1
        : AdmissionPolicyApiVersion.V1BETA1);
    if (!Object.values(AdmissionPolicyApiVersion).includes(this.apiVersion)) {
      problems.add(
        'apiVersion',
        this.apiVersion,
        'is not a ValidatingAdmissionPolicy API version',
        'use AdmissionPolicyApiVersion.V1BETA1 (Kubernetes 1.28) or V1 (1.30+)',
      );
    }
    // The API version must be served by the App's target Kubernetes version (admissionregistration.k8s.io/v1 from 1.30).
    const servedFrom = kindServedFrom({ apiVersion: this.apiVersion, kind: 'ValidatingAdmissionPolicy' }, target);
    if (servedFrom !== undefined) {
      problems.add(
        'apiVersion',
        this.apiVersion,
        `is served from Kubernetes ${servedFrom}; the target is ${target}`,
        `use AdmissionPolicyApiVersion.V1BETA1, or declare the target first: NodeServiceChecks.of(app, { kubernetesVersion: '${servedFrom}' })`,
      );
    }
    const failurePolicy = props.failurePolicy ?? AdmissionFailurePolicy.FAIL;
    if (!Object.values(AdmissionFailurePolicy).includes(failurePolicy)) {
      problems.add('failurePolicy', failurePolicy, 'is not a failure policy', 'use AdmissionFailurePolicy.FAIL or IGNORE');
    }
    const partOf = props.partOf ?? 'node-services';
    problems.check('partOf', partOf, labelValueError(partOf), 'use a valid label value such as "node-services"');
    if (
      props.logger !== undefined &&
      (props.logger === null || typeof props.logger !== 'object' || typeof props.logger.log !== 'function')
    ) {
      problems.add(
        'logger',
        props.logger,
        'must have a log(message) method',
        'use PolicyLoggers.stderr(), PolicyLoggers.silent() or { log: (m) => … }',
      );
    }
    if (problems.reportAtSynth(this)) {
      // Invalid props: reported at synthesis with the App's other problems; no policy is built.
      this.policyNames = [];
      return;
    }

    const settings: GuardrailSettings = {
      name,
      contact: props.contact.trim(),
      registryAllowlist,
      hostPathAllowlist,
      platformGroups: protect ? (platformGroups ?? []) : undefined,
      platformUsers: protect ? (platformUsers ?? []) : [],
      exemptNamespaces: [...exempt],
      tenantPodSecurity,
      tenantVolumeTypes: [...this.tenantVolumeTypes],
      validationActions: [...this.validationActions],
      failurePolicy,
    };
    const pairs = guardrailPolicies(settings);
    this.policyNames = pairs.map((p) => p.name);
    for (const pair of pairs) this.emit(pair, name, partOf, settings);
    // The App is checked against these policies at synth: every DaemonSet they govern must be admitted.
    this.node.addValidation({ validate: () => checkAppAgainstGuardrails(this, pairs) });

    if (this.warnings.length > 0) {
      const logger = props.logger ?? PolicyLoggers.stderr();
      const text = `node-services: ${this.warnings.length} guardrail warning${this.warnings.length === 1 ? '' : 's'}:\n${this.warnings.map((w) => `  ${w}`).join('\n')}\n`;
      // Printed when the app is synthesized (validations run then), not when the construct is built.
      this.node.addValidation({
        validate: () => {
          logger.log(text);
          return [];
        },
      });
    }
  }

  /** Checks `platformGroups` / `platformUsers`; undefined when the value is not a list. */
  private checkIdentities(field: string, value: string[] | undefined, protect: boolean, problems: ProblemCollector): string[] | undefined {
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

  private resolveVolumeTypes(level: PodSecurityLevel, extra: string[] | undefined, problems: ProblemCollector): string[] {
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

  private emit(pair: PolicyPair, instance: string, partOf: string, settings: GuardrailSettings): void {
    const metadata = (component: string, extra: { [key: string]: string } = {}) => ({
      name: pair.name,
      labels: recommendedLabels({ name: 'node-service-guardrails', instance, component, partOf }),
      annotations: { [DESCRIPTION_ANNOTATION]: pair.description, ...extra },
    });
    // The settings the policy renders from, so that `node-services lint` can evaluate it (after rendering it back).
    const settingsAnnotation = { [GUARDRAIL_SETTINGS_ANNOTATION]: JSON.stringify(settings) };
    const id = pair.name.slice(instance.length + 1);
    let policy: ApiObject;
    let binding: ApiObject;
    if (this.apiVersion === AdmissionPolicyApiVersion.V1BETA1) {
      policy = new k8s.KubeValidatingAdmissionPolicyV1Beta1(this, id, {
        metadata: metadata('admission-policy', settingsAnnotation),
        spec: pair.policy,
      });
      binding = new k8s.KubeValidatingAdmissionPolicyBindingV1Beta1(this, `${id}-binding`, {
        metadata: metadata('admission-policy-binding'),
        spec: pair.binding,
      });
    } else {
      policy = new ApiObject(this, id, {
        apiVersion: this.apiVersion,
        kind: 'ValidatingAdmissionPolicy',
        metadata: metadata('admission-policy', settingsAnnotation),
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
