/**
 * Option group: pod-level settings (scheduling priority, identity and API access, shutdown, DNS, policy exceptions).
 */

import type { IServiceAccount } from 'cdk8s-plus-28';
import { ApiPermission } from '../api-access';
import { ImagePullSecret } from '../image-pull-secret';
import { PriorityClassSpec, PRIORITY_CLASS_OPTIONS_SHAPE } from '../priority-class';
import { bool, instance, int, json, list, object, opt, req, ShapeTable, str } from '../../k8s/shape';
import { stringList, stringMap } from './elements';

/** A rule of the policy catalogue switched off for this service, with the reason recorded in the manifest. */
export interface RuleSuppression {
  /** The rule id (see docs/rules.md); API-validity rules cannot be suppressed. */
  readonly ruleId: string;
  /** Why the finding is acceptable here (at least 10 characters). */
  readonly reason: string;
}

/** An entry of the pods' `/etc/hosts`. */
export interface HostAlias {
  /** The IP address (IPv4 or IPv6). */
  readonly ip: string;
  /** Host names for the address (DNS subdomains). */
  readonly hostnames: string[];
}

/** Resolver settings of the pods, added to those of the DNS policy (or the only ones, with `DnsPolicy.NONE`). */
export interface DnsConfig {
  /**
   * Name server IP addresses (at most 3).
   * @default none (those of the DNS policy)
   */
  readonly nameservers?: string[];
  /**
   * Search domains (at most 32).
   * @default none (those of the DNS policy)
   */
  readonly searches?: string[];
  /**
   * Resolver options, name to value (`''` for an option without a value), e.g. `{ ndots: '2' }`.
   * @default none
   */
  readonly options?: { [name: string]: string };
}

/** Pod-level settings: scheduling priority, identity and API access, shutdown, policy exceptions. */
export interface PodOptions {
  /**
   * PriorityClass (e.g. `system-node-critical` for kinds a node cannot work without).
   * @default none (presets: their own)
   */
  readonly priorityClassName?: string;
  /**
   * A PriorityClass created with the service, which its pods run under (instead of `priorityClassName`), for when the
   * `system-*` classes do not fit. If the namespace admits priority classes through a ResourceQuota scope (as
   * `NodeServiceNamespace` does for the `system-*` classes), add this class to the quota's scope too.
   * @default none
   */
  readonly priorityClass?: PriorityClassSpec;
  /**
   * Kubernetes API access: creates a ServiceAccount named like the service and a ClusterRole + binding with exactly
   * these permissions (no wildcards, no Secrets), and mounts the token. `[]` means no API access.
   * @default no API access (presets: their own)
   */
  readonly apiAccess?: ApiPermission[];
  /**
   * An existing ServiceAccount to run as (instead of `apiAccess`).
   * @default the namespace's default ServiceAccount, or the one created for `apiAccess`
   */
  readonly serviceAccountName?: string;
  /**
   * A ServiceAccount to run as, from cdk8s-plus: one the app defines (`new kplus.ServiceAccount(chart, 'sa', ...)`) or
   * one that exists in the cluster (`kplus.ServiceAccount.fromServiceAccountName(scope, id, name, { namespaceName })`).
   * It must be in the service's namespace (a pod can only run as a ServiceAccount of its own namespace). With
   * `apiAccess`, the service's ClusterRole is bound to it and no ServiceAccount is created. Not with
   * `serviceAccountName`.
   * @default the namespace's default ServiceAccount, or the one created for `apiAccess`
   */
  readonly serviceAccount?: IServiceAccount;
  /**
   * Mount the ServiceAccount token.
   * @default true with apiAccess, else false
   */
  readonly automountServiceAccountToken?: boolean;
  /**
   * Seconds the pod gets to stop.
   * @default 30
   */
  readonly terminationGracePeriodSeconds?: number;
  /**
   * Group owning mounted volumes.
   * @default none
   */
  readonly fsGroup?: number;
  /**
   * Policy findings accepted for this service, each with a reason kept in the manifest.
   * @default none
   */
  readonly suppressions?: RuleSuppression[];
  /**
   * Registry credentials for pulling the images (`ImagePullSecret.fromName('regcred')` or
   * `ImagePullSecret.fromSecret(secret)`), Secrets in the service's namespace.
   * @default none (the images are public, or the nodes have credentials)
   */
  readonly imagePullSecrets?: ImagePullSecret[];
  /**
   * RuntimeClass of the pods, e.g. `nvidia` for the NVIDIA container runtime on GPU nodes (when it is not the nodes'
   * default runtime).
   * @default the nodes' default runtime
   */
  readonly runtimeClassName?: string;
  /**
   * Extra entries of the pods' `/etc/hosts` (for host-network pods, the node's own file is used instead).
   * @default none
   */
  readonly hostAliases?: HostAlias[];
  /**
   * Resolver settings added to the DNS policy's (with `DnsPolicy.NONE`, the only ones: then at least one nameserver).
   * @default none
   */
  readonly dnsConfig?: DnsConfig;
}

/** Shape of {@link PodOptions}. @internal */
export const POD_SHAPE: ShapeTable = {
  priorityClassName: opt(str),
  priorityClass: opt(
    instance(PriorityClassSpec, 'PriorityClassSpec.create({ name, value })', {
      options: req(PRIORITY_CLASS_OPTIONS_SHAPE),
    }),
  ),
  apiAccess: opt(
    list(
      instance(ApiPermission, 'ApiPermission.read(resources) or ApiPermission.of(apiGroup, resources, verbs)', {
        apiGroup: req(str),
        resources: req(stringList),
        verbs: req(stringList),
      }),
    ),
  ),
  serviceAccountName: opt(str),
  serviceAccount: opt(
    object('IServiceAccount: a cdk8s-plus ServiceAccount or ServiceAccount.fromServiceAccountName(...)', {
      name: req(str),
      // Called by resolveIdentity, which checks that it is a function.
      toSubjectConfiguration: req(json),
    }),
  ),
  automountServiceAccountToken: opt(bool),
  terminationGracePeriodSeconds: opt(int),
  fsGroup: opt(int),
  suppressions: opt(list(object('RuleSuppression', { ruleId: req(str), reason: req(str) }))),
  runtimeClassName: opt(str),
  hostAliases: opt(list(object('HostAlias', { ip: req(str), hostnames: req(stringList) }))),
  dnsConfig: opt(object('DnsConfig', { nameservers: opt(stringList), searches: opt(stringList), options: opt(stringMap) })),
  imagePullSecrets: opt(
    list(instance(ImagePullSecret, 'ImagePullSecret.fromName(name) or ImagePullSecret.fromSecret(secret)', { name: req(str) })),
  ),
};
