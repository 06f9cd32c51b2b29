/**
 * `NodeServiceGuardrails`: ValidatingAdmissionPolicies and bindings that keep node-level privilege out of tenant
 * namespaces, hold trusted node-service namespaces to registry and host-path allowlists, and protect the trust label.
 */

import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ProblemCollector } from '../k8s/problems';
import { recommendedLabels } from '../core/labels';
import { DESCRIPTION_ANNOTATION } from '../k8s/vocabulary';
import { IPolicyLogger, NodeServiceChecks, PolicyLoggers } from '../policy/synth';
import { GuardrailSettings, guardrailPolicies, PolicyPair } from '../admission/admission-spec';
import { GUARDRAIL_SETTINGS_ANNOTATION } from '../admission/admit';
import { PodSecurityLevel } from '../admission/pod-security';
import { dropChartNamespace } from './namespace';
import { AdmissionFailurePolicy, AdmissionPolicyApiVersion, resolveGuardrails, ValidationAction } from './resolve-guardrails';
import { checkAppAgainstGuardrails } from './self-check';

export { AdmissionFailurePolicy, AdmissionPolicyApiVersion, ValidationAction } from './resolve-guardrails';

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
    const context = { path: this.node.path, kubernetesVersion: NodeServiceChecks.kubernetesVersionOf(this) };
    const resolved = resolveGuardrails(props, context, problems);
    this.warnings.push(...resolved.warnings);
    this.tenantPodSecurity = resolved.tenantPodSecurity;
    this.tenantVolumeTypes = resolved.tenantVolumeTypes;
    this.validationActions = resolved.validationActions;
    this.apiVersion = resolved.apiVersion;
    const settings = resolved.settings;
    if (problems.reportAtSynth(this) || settings === undefined) {
      // Invalid props: reported at synthesis with the App's other problems; no policy is built.
      this.policyNames = [];
      return;
    }
    const pairs = guardrailPolicies(settings);
    this.policyNames = pairs.map((p) => p.name);
    for (const pair of pairs) this.emit(pair, settings.name, resolved.partOf, settings);
    // The App is checked against these policies at synth: every DaemonSet they govern must be admitted.
    this.node.addValidation({ validate: () => checkAppAgainstGuardrails(this, pairs) });
    if (this.warnings.length > 0) this.logWarnings(resolved.logger ?? PolicyLoggers.stderr());
  }

  /** Prints the warnings to `logger` when the app is synthesized (validations run then), not when the construct is built. */
  private logWarnings(logger: IPolicyLogger): void {
    const text = `node-services: ${this.warnings.length} guardrail warning${this.warnings.length === 1 ? '' : 's'}:\n${this.warnings.map((w) => `  ${w}`).join('\n')}\n`;
    this.node.addValidation({
      validate: () => {
        logger.log(text);
        return [];
      },
    });
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
