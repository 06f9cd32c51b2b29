/**
 * The option groups of node services, each declared once: {@link NodeServiceProps}, {@link ContainerSpec} and every
 * preset's props are composed of them by interface inheritance. Next to each group is its runtime shape (the type of
 * every field, checked at the boundary for callers in plain JavaScript or other languages).
 */

import type { IServiceAccount } from 'cdk8s-plus-28';
import { NodeServiceKind } from '../../policy/kinds';
import { ApiPermission } from '../api-access';
import { Canary } from '../canary';
import { Variant, VariantType } from '../variant';
import { ConfigHash } from '../config-hash';
import type { EnvField, ImagePullPolicy, Resources } from '../container';
import { EnvSource, Mount, Probe, SeccompProfile } from '../container';
import { HostPath, HostPathType, MountPropagation } from '../host-path';
import { ImagePullSecret } from '../image-pull-secret';
import { NetworkPeer, NetworkPolicyOptions } from '../network-policy';
import { PriorityClassSpec } from '../priority-class';
import { NodePool } from '../node-pool';
import { NodeAffinityTerm, NodeRequirement, TaintEffect, Toleration } from '../placement';
import { IntOrPercent, Rollout } from '../rollout';
import { bool, instance, int, json, list, map, object, oneOf, opt, req, ShapeTable, str } from '../shape';
import { MOUNTS_SHAPE, PROBE_OPTIONS_SHAPE, RESOURCES_SHAPE } from '../container';
import { CANARY_SHAPE } from '../canary';
import { POOL_SHAPE } from '../node-pool';
import { PRIORITY_CLASS_OPTIONS_SHAPE } from '../priority-class';
import { VARIANT_OPTIONS_SHAPE } from '../variant';

/** Shape of a {@link NodePool} (shared with the fleet's cluster pools). @internal */
export const poolShape = POOL_SHAPE;

/** A rule of the policy catalogue switched off for this service, with the reason recorded in the manifest. */
export interface RuleSuppression {
  /** The rule id (see docs/rules.md); API-validity rules cannot be suppressed. */
  readonly ruleId: string;
  /** Why the finding is acceptable here (at least 10 characters). */
  readonly reason: string;
}

/** Names and metadata of the objects of a node service. */
export interface MetadataOptions {
  /**
   * Namespace. `default` is refused: node services belong in a platform namespace.
   * @default the chart's namespace, else `node-services`
   */
  readonly namespace?: string;
  /**
   * `app.kubernetes.io/instance`: distinguishes several installations of the same application.
   * @default the name
   */
  readonly instance?: string;
  /**
   * `app.kubernetes.io/version`.
   * @default the tag of the main container's image
   */
  readonly version?: string;
  /**
   * `app.kubernetes.io/component`.
   * @default the kind, e.g. `log-agent`
   */
  readonly component?: string;
  /**
   * `app.kubernetes.io/part-of`.
   * @default `node-services`
   */
  readonly partOf?: string;
  /**
   * Extra labels on every object (and the pod template). They never enter the selector, and may not set the
   * `app.kubernetes.io/*` labels the service sets itself (use `name`, `instance`, `version`, `component`, `partOf`).
   * @default none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Extra annotations on the DaemonSet.
   * @default none
   */
  readonly annotations?: { [key: string]: string };
  /**
   * Extra annotations on the pod template (e.g. a config checksum to roll pods on config change).
   * @default none
   */
  readonly podAnnotations?: { [key: string]: string };
}

/** Which nodes run the service. */
export interface PlacementOptions {
  /**
   * Node labels a node must carry.
   * @default `{ "kubernetes.io/os": "linux" }`
   */
  readonly nodeSelector?: { [key: string]: string };
  /**
   * Required node affinity: a node must satisfy at least one term (all requirements of that term). Replaces the terms
   * derived from `pools` (and a preset's own terms, such as the GPU monitor's GPU nodes).
   * @default derived from `pools` (none without pools); a preset's own terms
   */
  readonly nodeAffinity?: NodeAffinityTerm[];
  /**
   * Requirements every node must meet, ANDed into every required affinity term (given in `nodeAffinity`, or derived
   * from `pools`); with no term, they form the only one. Presets add their own (keeping agents off virtual nodes).
   * @default none (presets: virtual and serverless nodes excluded, see `includeVirtualNodes`)
   */
  readonly nodeRequirements?: NodeRequirement[];
  /**
   * Node pools the service must cover. Unless `nodeAffinity` is given, the affinity is derived from them (a node of any
   * pool qualifies; a pool without labels means every node), and the tolerations their `NoSchedule`/`NoExecute` taints
   * need are added. Coverage of every pool is verified at synth with the DaemonSet controller's semantics.
   * @default no declared coverage target
   */
  readonly pools?: NodePool[];
  /**
   * Node pools the service must not cover (verified at synth), e.g. keep a log agent off GPU nodes.
   * @default none
   */
  readonly excludePools?: NodePool[];
  /**
   * Tolerations (presets add them to their own). The DaemonSet controller adds the node-condition tolerations
   * (not-ready, unreachable, pressure, unschedulable) itself.
   * @default none (presets: their own)
   */
  readonly tolerations?: Toleration[];
  /**
   * Run on control-plane nodes too (adds the control-plane toleration). An explicit decision (PRACTICES P3).
   * @default false
   */
  readonly controlPlane?: boolean;
}

/** How new versions reach the nodes. */
export interface RolloutOptions {
  /**
   * Update strategy.
   * @default Rollout.maxUnavailable(1) (presets: their own)
   */
  readonly rollout?: Rollout;
  /**
   * Seconds a new pod must be ready before it counts as available.
   * @default 0
   */
  readonly minReadySeconds?: number;
  /**
   * Old revisions kept for rollback.
   * @default 10
   */
  readonly revisionHistoryLimit?: number;
  /**
   * Split the service into a stable and a `-canary` DaemonSet by a node label (see {@link Canary.byNodeLabel}).
   * @default no canary
   */
  readonly canary?: Canary;
  /**
   * Variants of the service: more DaemonSets, each for the nodes one requirement selects (a pool's label, a node
   * label, or the Windows nodes) with its own overrides (resources, args, env, image, mounts, a canary). Their
   * required affinities are disjoint by construction, so every node the service covers runs exactly one of its
   * DaemonSets (verified at synth for the declared pools). A Linux variant without a canary whose pods are those of
   * the default DaemonSet gets a synth-time warning (`variant-changes-nothing`). See {@link Variant}.
   * @default no variants
   */
  readonly variants?: Variant[];
  /**
   * The pod-template annotation `node-services.cdk8s.io/config-hash`, a hash of the content of the app's ConfigMaps
   * and Secrets that the containers mount or take env from: changing their content rolls the pods. `ConfigHash.of(v)`
   * adds a value for configuration managed outside the app; `ConfigHash.disabled()` opts out.
   * @default ConfigHash.auto()
   */
  readonly configHash?: ConfigHash;
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

/** A Service for clients on the same node (see {@link NetworkAccessOptions.localService}). */
export interface LocalServiceOptions {
  /**
   * Name of the Service (a DNS-1035 label); clients send to `<name>.<namespace>.svc`.
   * @default the service's name
   */
  readonly name?: string;
  /**
   * Names of the container ports the Service exposes.
   * @default every named port of the long-running containers
   */
  readonly portNames?: string[];
}

/** How clients and other pods reach the service. */
export interface NetworkAccessOptions {
  /**
   * Create a Service with `internalTrafficPolicy: Local` for the service's ports: a client's traffic goes to the pod on
   * its own node (applications send logs, traces or metrics to the agent next to them), never across nodes. Selects
   * the pods of every DaemonSet of the service (stable and canary). With `hostNetwork`, clients can also use the node
   * IP from the downward API (`EnvField.NODE_IP`, `status.hostIP`) and the port.
   * @default no Service
   */
  readonly localService?: LocalServiceOptions;
  /**
   * A NetworkPolicy for the pods of every DaemonSet of the service: ingress only to the declared ports from the declared
   * sources (everything else denied), egress restricted when given. Host-network pods are not subject to
   * NetworkPolicy: such a service gets a synth-time warning (`network-policy-host-network`) instead of a false promise.
   * @default no NetworkPolicy
   */
  readonly networkPolicy?: NetworkPolicyOptions;
}

/** A container's process: command, environment, mounts, resources and syscall filter (containers and installers alike). */
export interface ContainerProcessOptions {
  /**
   * Entrypoint override.
   * @default the image's entrypoint
   */
  readonly command?: string[];
  /**
   * Arguments. On a preset they replace the preset's default arguments (see `extraArgs` to add to them).
   * @default the image's arguments (presets: their own)
   */
  readonly args?: string[];
  /**
   * Working directory.
   * @default the image's
   */
  readonly workingDir?: string;
  /**
   * Plain environment variables (on a preset: added to the preset's own).
   * @default none
   */
  readonly env?: { [name: string]: string };
  /**
   * Environment variables from the downward API, e.g. `{ NODE_NAME: EnvField.NODE_NAME }` (on a preset: added to the
   * preset's own).
   * @default none
   */
  readonly fieldEnv?: { [name: string]: EnvField };
  /**
   * Whole ConfigMaps or Secrets as environment variables.
   * @default none
   */
  readonly envFrom?: EnvSource[];
  /**
   * Pod-local mounts (emptyDir, ConfigMap, Secret); on a preset, added to the preset's own.
   * @default none
   */
  readonly mounts?: Mount[];
  /**
   * Compute resources.
   * @default cpu request 100m, memory request 128Mi, memory limit 256Mi, no CPU limit (presets: their own)
   */
  readonly resources?: Resources;
  /**
   * Seccomp profile.
   * @default SeccompProfile.runtimeDefault()
   */
  readonly seccompProfile?: SeccompProfile;
}

/** What a long-running container runs: its image, process, probes and stop hook. */
export interface ContainerOptions extends ContainerProcessOptions {
  /** Image reference, pinned by a tag other than `latest` or by a digest. */
  readonly image: string;
  /**
   * Image pull policy.
   * @default ImagePullPolicy.IF_NOT_PRESENT
   */
  readonly imagePullPolicy?: ImagePullPolicy;
  /**
   * Readiness probe (node services should have one: a rollout waits for it).
   * @default none (presets: their own)
   */
  readonly readiness?: Probe;
  /**
   * Liveness probe.
   * @default none (presets: their own)
   */
  readonly liveness?: Probe;
  /**
   * Startup probe.
   * @default none (presets: their own)
   */
  readonly startup?: Probe;
  /**
   * Command run before the container is stopped (e.g. flush buffers, remove CNI config).
   * @default none (presets: their own)
   */
  readonly preStop?: string[];
}

/** Running a container privileged. */
export interface PrivilegeOptions {
  /**
   * Run privileged. Only with `privilegedReason`, and only for kinds that may (CSI node plugins, CNI agents, runtime
   * sensors); the container then allows privilege escalation, as the API requires.
   * @default false
   */
  readonly privileged?: boolean;
  /**
   * Why the container must be privileged (at least 10 characters); required when `privileged` is true, and recorded
   * in the manifest for reviewers.
   * @default none
   */
  readonly privilegedReason?: string;
}

/** The user a container runs as and its root filesystem. */
export interface ContainerSecurityOptions {
  /**
   * User ID to run as.
   * @default the image's user (presets: their own)
   */
  readonly runAsUser?: number;
  /**
   * Group ID to run as.
   * @default the image's group (presets: their own)
   */
  readonly runAsGroup?: number;
  /**
   * Require a non-root user.
   * @default true when runAsUser is set and non-zero, otherwise unset
   */
  readonly runAsNonRoot?: boolean;
  /**
   * Mount the root filesystem read-only (give scratch space with `Mount.emptyDir`).
   * @default true
   */
  readonly readOnlyRootFilesystem?: boolean;
}

/** A health endpoint served over HTTP. */
export interface HealthEndpointOptions {
  /**
   * Port of the HTTP health endpoint, declared as the container port `health`.
   * @default the preset's (see each preset)
   */
  readonly healthPort?: number;
  /**
   * Path of the health endpoint, probed for readiness and liveness.
   * @default the preset's (see each preset)
   */
  readonly healthPath?: string;
}

/** A port the main container serves on. */
export interface ServicePortOptions {
  /**
   * The port the main container serves on (metrics or HTTP API); the preset's default arguments bind it.
   * @default the preset's (see each preset)
   */
  readonly port?: number;
}

/** A writable host directory where the service keeps state across restarts. */
export interface StateDirOptions {
  /**
   * Host directory for state kept across restarts, mounted writable at the same path.
   * @default the preset's (see each preset)
   */
  readonly stateDir?: string;
}

const hostPathShape = instance(HostPath, 'HostPath.readOnly(path) or HostPath.writable(path, { reason })', {
  path: req(str),
  isWritable: req(bool),
  type: req(oneOf('HostPathType', Object.values(HostPathType))),
  mountPath: req(str),
  propagation: req(oneOf('MountPropagation', Object.values(MountPropagation))),
  volumeName: req(str),
  reason: opt(str),
});
const probeShape = instance(Probe, 'Probe.httpGet, Probe.tcpSocket, Probe.exec or Probe.grpc', {
  _handler: req(json),
  options: req(PROBE_OPTIONS_SHAPE),
});
const requirementShape = instance(NodeRequirement, 'NodeRequirement.in, notIn, exists, doesNotExist, gt or lt', {
  key: req(str),
  operator: req(str),
  values: opt(list(str)),
});
const taintEffect = oneOf('TaintEffect', Object.values(TaintEffect));
const stringList = list(str);
const stringMap = map(str);
const peerShape = instance(NetworkPeer, 'NetworkPeer.namespace, namespacesWithLabels, pods or cidr', { _peer: req(json) });

/** Shape of {@link MetadataOptions}. @internal */
export const METADATA_SHAPE: ShapeTable = {
  namespace: opt(str),
  instance: opt(str),
  version: opt(str),
  component: opt(str),
  partOf: opt(str),
  labels: opt(stringMap),
  annotations: opt(stringMap),
  podAnnotations: opt(stringMap),
};

/** Shape of {@link PlacementOptions}. @internal */
export const PLACEMENT_SHAPE: ShapeTable = {
  nodeSelector: opt(stringMap),
  nodeAffinity: opt(list(object('NodeAffinityTerm', { requirements: req(list(requirementShape)) }))),
  nodeRequirements: opt(list(requirementShape)),
  pools: opt(list(poolShape)),
  excludePools: opt(list(poolShape)),
  tolerations: opt(
    list(
      instance(Toleration, 'Toleration.exists, equal, all or controlPlane', {
        key: opt(str),
        operator: req(str),
        value: opt(str),
        effect: opt(taintEffect),
        tolerationSeconds: opt(int),
      }),
    ),
  ),
  controlPlane: opt(bool),
};

const intOrPercentShape = instance(IntOrPercent, 'IntOrPercent.count(n) or IntOrPercent.percent(p)', {
  // The value's type is checked with its grammar (resolveRollout), where the factory that made it is known.
  value: req(json),
  isPercent: req(bool),
});

/** Shape of {@link RolloutOptions}. @internal */
export const ROLLOUT_SHAPE: ShapeTable = {
  rollout: opt(
    instance(Rollout, 'Rollout.maxUnavailable, Rollout.maxUnavailablePercent, Rollout.surge, Rollout.surgePercent or Rollout.onDelete', {
      type: req(str),
      maxUnavailableAmount: opt(intOrPercentShape),
      maxSurgeAmount: opt(intOrPercentShape),
      reason: opt(str),
    }),
  ),
  minReadySeconds: opt(int),
  revisionHistoryLimit: opt(int),
  canary: opt(CANARY_SHAPE),
  variants: opt(
    list(
      instance(
        Variant,
        'Variant.forPool(name, pool, options), Variant.byNodeLabel(name, key, values, options) or Variant.windows(name, options)',
        {
          name: req(str),
          type: req(oneOf('VariantType', Object.values(VariantType))),
          pool: opt(poolShape),
          key: opt(str),
          values: opt(stringList),
          options: req(VARIANT_OPTIONS_SHAPE),
        },
      ),
    ),
  ),
  configHash: opt(
    instance(ConfigHash, 'ConfigHash.auto(), ConfigHash.disabled() or ConfigHash.of(value)', { mode: req(str), value: opt(str) }),
  ),
};

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

/** Shape of {@link NetworkAccessOptions}. @internal */
export const NETWORK_ACCESS_SHAPE: ShapeTable = {
  localService: opt(object('LocalServiceOptions', { name: opt(str), portNames: opt(stringList) })),
  networkPolicy: opt(
    object('NetworkPolicyOptions', {
      hostNetworkReason: opt(str),
      ingress: opt(list(object('NetworkIngressRule', { ports: req(stringList), from: req(list(peerShape)) }))),
      egress: opt(
        list(
          object('NetworkEgressRule', {
            to: req(list(peerShape)),
            ports: opt(list(object('NetworkEgressPort', { port: req(int), protocol: opt(oneOf('Protocol', ['TCP', 'UDP', 'SCTP'])) }))),
          }),
        ),
      ),
    }),
  ),
};

/** Shape of {@link ContainerProcessOptions}. @internal */
export const CONTAINER_PROCESS_SHAPE: ShapeTable = {
  command: opt(stringList),
  args: opt(stringList),
  workingDir: opt(str),
  env: opt(stringMap),
  fieldEnv: opt(stringMap),
  envFrom: opt(
    list(
      instance(EnvSource, 'EnvSource.configMap(name), EnvSource.secret(name) or EnvSource.fromConfigMap(configMap)', {
        name: req(str),
        _spec: req(object('EnvFromSource', { configMapRef: opt(json), secretRef: opt(json), prefix: opt(str) })),
        _config: opt(json),
      }),
    ),
  ),
  mounts: opt(MOUNTS_SHAPE),
  resources: opt(object('Resources', RESOURCES_SHAPE)),
  seccompProfile: opt(
    instance(SeccompProfile, 'SeccompProfile.runtimeDefault(), localhost(path) or unconfined(reason)', {
      type: req(str),
      localhostProfile: opt(str),
      reason: opt(str),
    }),
  ),
};

/** Shape of {@link ContainerOptions}. @internal */
export const CONTAINER_OPTIONS_SHAPE: ShapeTable = {
  ...CONTAINER_PROCESS_SHAPE,
  image: req(str),
  imagePullPolicy: opt(oneOf('ImagePullPolicy', ['IfNotPresent', 'Always', 'Never'])),
  readiness: opt(probeShape),
  liveness: opt(probeShape),
  startup: opt(probeShape),
  preStop: opt(stringList),
};

/** Shape of {@link PrivilegeOptions}. @internal */
export const PRIVILEGE_SHAPE: ShapeTable = { privileged: opt(bool), privilegedReason: opt(str) };

/** Shape of {@link ContainerSecurityOptions}. @internal */
export const CONTAINER_SECURITY_SHAPE: ShapeTable = {
  runAsUser: opt(int),
  runAsGroup: opt(int),
  runAsNonRoot: opt(bool),
  readOnlyRootFilesystem: opt(bool),
};

/** Shape of {@link HealthEndpointOptions}. @internal */
export const HEALTH_ENDPOINT_SHAPE: ShapeTable = { healthPort: opt(int), healthPath: opt(str) };
/** Shape of {@link ServicePortOptions}. @internal */
export const SERVICE_PORT_SHAPE: ShapeTable = { port: opt(int) };
/** Shape of {@link StateDirOptions}. @internal */
export const STATE_DIR_SHAPE: ShapeTable = { stateDir: opt(str) };

/** Shape of a {@link ContainerSpec}. @internal */
export const CONTAINER_SPEC_SHAPE: ShapeTable = {
  ...CONTAINER_OPTIONS_SHAPE,
  ...PRIVILEGE_SHAPE,
  ...CONTAINER_SECURITY_SHAPE,
  name: req(str),
  ports: opt(
    list(
      object('PortSpec', {
        name: req(str),
        containerPort: req(int),
        protocol: opt(oneOf('Protocol', ['TCP', 'UDP', 'SCTP'])),
        hostPort: opt(int),
      }),
    ),
  ),
  hostPaths: opt(list(hostPathShape)),
  capabilities: opt(stringList),
};

/** Shape of the props of `NodeService` itself (besides the option groups). @internal */
export const NODE_SERVICE_OWN_SHAPE: ShapeTable = {
  name: req(str),
  kind: opt(oneOf('NodeServiceKind', Object.values(NodeServiceKind))),
  containers: req(list(object('ContainerSpec', CONTAINER_SPEC_SHAPE))),
  initContainers: opt(list(object('ContainerSpec', CONTAINER_SPEC_SHAPE))),
  hostNetwork: opt(bool),
  hostPID: opt(bool),
  dnsPolicy: opt(oneOf('DnsPolicy', ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'])),
  runAsUser: opt(int),
  runAsGroup: opt(int),
};

/** Shape of the host-access extras every preset offers. @internal */
export const PRESET_EXTRAS_SHAPE: ShapeTable = {
  name: opt(str),
  extraArgs: opt(stringList),
  extraHostPaths: opt(list(hostPathShape)),
  extraCapabilities: opt(stringList),
  extraCapabilitiesReason: opt(str),
  includeVirtualNodes: opt(bool),
  sidecars: opt(list(object('ContainerSpec', CONTAINER_SPEC_SHAPE))),
  extraInitContainers: opt(list(object('ContainerSpec', CONTAINER_SPEC_SHAPE))),
};

/** The option groups shared by `NodeService` and every preset. @internal */
export const SERVICE_GROUPS_SHAPE: ShapeTable = {
  ...METADATA_SHAPE,
  ...PLACEMENT_SHAPE,
  ...ROLLOUT_SHAPE,
  ...POD_SHAPE,
  ...NETWORK_ACCESS_SHAPE,
};

/** Shape of the props every preset accepts. @internal */
export const PRESET_SHAPE: ShapeTable = {
  ...SERVICE_GROUPS_SHAPE,
  ...CONTAINER_OPTIONS_SHAPE,
  ...CONTAINER_SECURITY_SHAPE,
  ...PRESET_EXTRAS_SHAPE,
};

/** Shape of {@link NodeServiceProps}. @internal */
export const NODE_SERVICE_SHAPE: ShapeTable = { ...SERVICE_GROUPS_SHAPE, ...NODE_SERVICE_OWN_SHAPE };
