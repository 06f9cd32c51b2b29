/**
 * What every preset shares: the props common to all kinds, and how they map onto {@link NodeServiceProps}.
 */

import { EnvSource, Mount, Probe, Resources, SeccompProfile } from '../core/container';
import { HostPath } from '../core/host-path';
import { Canary } from '../core/canary';
import { ProblemCollector } from '../core/errors';
import { RuleSuppression } from '../core/node-service';
import { MIN_REASON_LENGTH } from '../policy/host-access';
import { isValidReason } from '../policy/suppression';
import { NodePool } from '../core/node-pool';
import { NodeAffinityTerm, NodeRequirement, Toleration } from '../core/placement';
import { Rollout } from '../core/rollout';

/** Props every preset accepts. */
export interface NodeServicePresetProps {
  /**
   * Name of the DaemonSet and `app.kubernetes.io/name`.
   * @default the preset's conventional name (e.g. `log-agent`)
   */
  readonly name?: string;
  /**
   * Namespace (`default` is refused).
   * @default the chart's namespace, else `node-services`
   */
  readonly namespace?: string;
  /**
   * `app.kubernetes.io/instance`.
   * @default the name
   */
  readonly instance?: string;
  /**
   * `app.kubernetes.io/version`.
   * @default the image tag
   */
  readonly version?: string;
  /**
   * Entrypoint override of the main container.
   * @default the image's entrypoint
   */
  readonly command?: string[];
  /**
   * Arguments of the main container.
   * @default the preset's (see each preset)
   */
  readonly args?: string[];
  /**
   * Plain environment variables of the main container.
   * @default none
   */
  readonly env?: { [name: string]: string };
  /**
   * ConfigMaps or Secrets as environment variables of the main container.
   * @default none
   */
  readonly envFrom?: EnvSource[];
  /**
   * Pod-local mounts of the main container (configuration, scratch space).
   * @default none
   */
  readonly mounts?: Mount[];
  /**
   * Additional host paths for the main container; each must be on the kind's host-path allowlist.
   * @default none
   */
  readonly extraHostPaths?: HostPath[];
  /**
   * Additional Linux capabilities for the main container (names without `CAP_`); each must be on the kind's
   * capability allowlist.
   * @default none
   */
  readonly extraCapabilities?: string[];
  /**
   * Why the service needs `extraCapabilities` (at least 10 characters); required when `extraCapabilities` is set, and
   * recorded in the manifest for reviewers.
   * @default none
   */
  readonly extraCapabilitiesReason?: string;
  /**
   * Seccomp profile of the main container (e.g. a Localhost profile with the extra syscalls of an eBPF sensor).
   * @default SeccompProfile.runtimeDefault()
   */
  readonly seccompProfile?: SeccompProfile;
  /**
   * Resources of the main container.
   * @default the preset's (see each preset)
   */
  readonly resources?: Resources;
  /**
   * Readiness probe of the main container.
   * @default the preset's
   */
  readonly readiness?: Probe;
  /**
   * Liveness probe of the main container.
   * @default the preset's
   */
  readonly liveness?: Probe;
  /**
   * Node labels a node must carry.
   * @default `{ "kubernetes.io/os": "linux" }`
   */
  readonly nodeSelector?: { [key: string]: string };
  /**
   * Required node affinity terms (ORed; each term's requirements ANDed). Replaces the terms derived from `pools` (and
   * the GPU monitor's GPU-node terms); the virtual-node exclusion is still ANDed in unless `includeVirtualNodes`.
   * @default derived from `pools` (none without pools); GPU nodes for the GPU monitor
   */
  readonly nodeAffinity?: NodeAffinityTerm[];
  /**
   * Node pools the service must cover (verified at synth); without `nodeAffinity`, the affinity is derived from them.
   * @default no declared coverage target
   */
  readonly pools?: NodePool[];
  /**
   * Node pools the service must not cover (verified at synth).
   * @default none
   */
  readonly excludePools?: NodePool[];
  /**
   * Canary rollout by node label.
   * @default no canary
   */
  readonly canary?: Canary;
  /**
   * Also run on virtual and serverless nodes (virtual-kubelet, EKS Fargate), which have no host to serve.
   * @default false: `eks.amazonaws.com/compute-type NotIn [fargate]` and `type NotIn [virtual-kubelet]` are ANDed into
   * every affinity term
   */
  readonly includeVirtualNodes?: boolean;
  /**
   * Tolerations added to the preset's own.
   * @default none
   */
  readonly tolerations?: Toleration[];
  /**
   * Also run on control-plane nodes.
   * @default false, except for kinds that tolerate every taint anyway
   */
  readonly controlPlane?: boolean;
  /**
   * Update strategy.
   * @default the preset's (see each preset)
   */
  readonly rollout?: Rollout;
  /**
   * Seconds a new pod must be ready before it counts as available.
   * @default 0
   */
  readonly minReadySeconds?: number;
  /**
   * PriorityClass.
   * @default the preset's (see each preset)
   */
  readonly priorityClassName?: string;
  /**
   * Seconds the pod gets to stop.
   * @default the preset's
   */
  readonly terminationGracePeriodSeconds?: number;
  /**
   * Extra labels on every object.
   * @default none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Extra annotations on the DaemonSet.
   * @default none
   */
  readonly annotations?: { [key: string]: string };
  /**
   * Extra pod-template annotations (e.g. a config checksum).
   * @default none
   */
  readonly podAnnotations?: { [key: string]: string };
  /**
   * Policy findings accepted for this service, with reasons.
   * @default none
   */
  readonly suppressions?: RuleSuppression[];
}

/** Requirements that keep node agents off virtual and serverless nodes (virtual-kubelet, EKS Fargate). */
function realNodeRequirements(): NodeRequirement[] {
  return [NodeRequirement.notIn('eks.amazonaws.com/compute-type', ['fargate']), NodeRequirement.notIn('type', ['virtual-kubelet'])];
}

/** The node requirements of a preset: real nodes only, unless virtual nodes are included. @internal */
function realNodeRequirementsOf(props: NodeServicePresetProps): NodeRequirement[] {
  return props.includeVirtualNodes ? [] : realNodeRequirements();
}

/** The main container's image pull policy and common fields from preset props. @internal */
export function commonServiceProps(props: NodeServicePresetProps) {
  return {
    namespace: props.namespace,
    instance: props.instance,
    version: props.version,
    nodeSelector: props.nodeSelector,
    minReadySeconds: props.minReadySeconds,
    labels: props.labels,
    annotations: props.annotations,
    podAnnotations: props.podAnnotations,
    controlPlane: props.controlPlane,
    pools: props.pools,
    excludePools: props.excludePools,
    canary: props.canary,
    nodeRequirements: realNodeRequirementsOf(props),
  };
}

/**
 * The extra capabilities a preset was asked for, checked for a reason; the reason becomes a suppression of the
 * `dangerous-capability` warning so that reviewers see it in the manifest. @internal
 */
export function checkExtraCapabilities(
  props: NodeServicePresetProps,
  problems: ProblemCollector,
  who: string,
): { readonly capabilities: string[]; readonly suppressions: RuleSuppression[] } {
  const capabilities = props.extraCapabilities ?? [];
  if (capabilities.length === 0) return { capabilities, suppressions: [] };
  if (!isValidReason(props.extraCapabilitiesReason)) {
    problems.add(
      'extraCapabilitiesReason',
      props.extraCapabilitiesReason,
      `extraCapabilities ${capabilities.join(', ')} need a reason of at least ${MIN_REASON_LENGTH} characters`,
      `say why the ${who} needs each extra capability (extraCapabilitiesReason), or drop them`,
    );
    return { capabilities, suppressions: [] };
  }
  return {
    capabilities,
    suppressions: [{ ruleId: 'dangerous-capability', reason: `${capabilities.join(', ')}: ${props.extraCapabilitiesReason}` }],
  };
}
