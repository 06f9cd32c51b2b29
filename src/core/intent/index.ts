/**
 * The resolved intent of a node service: its props (already shape-checked) with every default applied and every
 * derived value computed, as plain data. Pure: no construct is created and nothing is rendered here; every problem
 * lands in the collector. Resolved in the order of the option groups: metadata, rollout, identity, placement, the pod,
 * the annotations, the tracks (canary and variants); the extras (node-local Service, NetworkPolicy, PriorityClass) last.
 */

import { k8s } from 'cdk8s-plus-28';
import { NodeServiceKind } from '../../policy/kinds';
import { ApiPermission } from '../api-access';
import { Canary } from '../canary';
import { ProblemCollector } from '../../k8s/problems';
import { NodePool } from '../node-pool';
import { NodeRequirement } from '../placement';
import type { PriorityClassOptions } from '../priority-class';
import type { NodeServiceProps } from '../props';
import { Wire } from '../wire';
import { withRequirements } from './affinity';
import { resolveAnnotations } from './annotations';
import { resolveIdentity } from './identity';
import { MetadataIntent, resolveMetadata } from './metadata';
import { LocalServiceIntent, resolveLocalService, resolveNetworkPolicy } from './network';
import { resolvePlacement } from './placement';
import { PodIntent, resolvePod } from './pod';
import { resolvePriorityClass } from './priority-class';
import { resolveRolloutOptions } from './rollout';
import { resolveTracks, TrackIntent } from './tracks';

export { DEFAULT_NAMESPACE } from './metadata';
export type { LocalServiceIntent } from './network';
export type { PodIntent } from './pod';
export type { TrackIntent } from './tracks';

/** Everything a node service renders, resolved from its props (besides the extras). */
export interface ServiceIntent extends Pick<MetadataIntent, 'namespace' | 'instance' | 'selector' | 'labels'> {
  readonly name: string;
  readonly kind: NodeServiceKind;
  readonly annotations: { [key: string]: string };
  readonly updateStrategy: Wire<k8s.DaemonSetUpdateStrategy>;
  readonly minReadySeconds: number;
  readonly revisionHistoryLimit: number;
  readonly apiAccess: ApiPermission[];
  readonly automount: boolean;
  readonly serviceAccountName?: string;
  /** Whether the service creates its ServiceAccount (for `apiAccess`, unless one is brought with `serviceAccount`). */
  readonly createServiceAccount: boolean;
  readonly pools: NodePool[];
  readonly excludePools: NodePool[];
  readonly pod: PodIntent;
  /** The canary split of the default DaemonSet, if any. */
  readonly canary?: Canary;
  /** Every DaemonSet besides the default one: the canary, the variants and their canaries. */
  readonly tracks: TrackIntent[];
}

/** The objects a service creates besides its DaemonSets and RBAC, those its props ask for. */
export interface ServiceExtras {
  readonly localService?: LocalServiceIntent;
  readonly networkPolicy?: k8s.NetworkPolicySpec;
  readonly priorityClass?: PriorityClassOptions;
}

/** Resolves the intent of a node service from shape-checked props (the extras aside: {@link resolveExtras}). */
export function resolveIntent(props: NodeServiceProps, chartNamespace: string | undefined, problems: ProblemCollector): ServiceIntent {
  const kind = props.kind ?? NodeServiceKind.GENERIC;
  const meta = resolveMetadata(props, kind, chartNamespace, problems);
  const { rollout, ...rolloutIntent } = resolveRolloutOptions(props, kind, problems);
  const identity = resolveIdentity(props, meta.namespace, problems);
  const placement = resolvePlacement(props, problems);
  const pod = resolvePod(props, kind, meta, identity, placement, problems);
  const annotations = resolveAnnotations(props, kind, rollout, problems);
  const { stableTerms, tracks } = resolveTracks(props, pod, meta, annotations, problems);
  const canary = props.canary;
  return {
    name: props.name,
    namespace: meta.namespace,
    kind,
    instance: meta.instance,
    selector: meta.selector,
    labels: meta.labels,
    annotations,
    ...rolloutIntent,
    ...identity,
    pools: placement.pools,
    excludePools: placement.excludePools,
    pod: {
      ...pod,
      affinityTerms: canary ? withRequirements(stableTerms, [NodeRequirement.notIn(canary.key, [canary.value])]) : stableTerms,
    },
    ...(canary ? { canary } : {}),
    tracks,
  };
}

/** Resolves the extras: the node-local Service, the NetworkPolicy and the PriorityClass. */
export function resolveExtras(props: NodeServiceProps, problems: ProblemCollector): ServiceExtras {
  return {
    localService: resolveLocalService(props, problems),
    networkPolicy: resolveNetworkPolicy(props, problems),
    priorityClass: resolvePriorityClass(props, problems),
  };
}
