/**
 * What every preset shares: its props (the option groups of `NodeService` plus the host-access extras), and the one
 * function that lays a user's props over a preset's defaults.
 */

import { ContainerSpec } from '../core/container';
import { carryProblems, derivedFrom, joined, laidOver, madeFrom, merged, ProblemCollector, replaced, userParts } from '../k8s/problems';
import { HostPath } from '../core/host-path';
import type { NodeServiceProps } from '../core/props';
import {
  CONTAINER_OPTIONS_SHAPE,
  CONTAINER_SECURITY_SHAPE,
  ContainerOptions,
  ContainerSecurityOptions,
  MetadataOptions,
  PlacementOptions,
  NetworkAccessOptions,
  PodOptions,
  PRESET_SHAPE,
  RolloutOptions,
  SERVICE_GROUPS_SHAPE,
} from '../core/props';
import { NodeRequirement } from '../core/placement';
import { checkShape, ShapeTable } from '../k8s/shape';
import { reasonError } from '../k8s';
import { MIN_REASON_LENGTH } from '../k8s/numbers';

/** Props every preset accepts: every option group of `NodeService`, the main container's options, and extras. */
export interface NodeServicePresetProps
  extends MetadataOptions, PlacementOptions, RolloutOptions, PodOptions, NetworkAccessOptions, ContainerOptions, ContainerSecurityOptions {
  /**
   * Name of the DaemonSet and `app.kubernetes.io/name`.
   * @default the preset's conventional name (e.g. `log-agent`)
   */
  readonly name?: string;
  /**
   * Arguments added after the main container's arguments (the preset's defaults, or `args` when given).
   * @default none
   */
  readonly extraArgs?: string[];
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
   * Also run on virtual and serverless nodes (virtual-kubelet, EKS Fargate), which have no host to serve.
   * @default false: `eks.amazonaws.com/compute-type NotIn [fargate]` and `type NotIn [virtual-kubelet]` are ANDed into
   * every affinity term
   */
  readonly includeVirtualNodes?: boolean;
  /**
   * Containers run next to the preset's (e.g. a log shipper or a config reloader). They get the same secure defaults
   * and are held to the kind's host-path and capability allowlists; names must differ from the preset's containers.
   * @default none
   */
  readonly sidecars?: ContainerSpec[];
  /**
   * Init containers run after the preset's own init containers, before the long-running containers start; the same
   * defaults and allowlists apply.
   * @default none
   */
  readonly extraInitContainers?: ContainerSpec[];
}

/** Why a preset refuses the `NodeService` props it does not offer. */
const REFUSED: { [prop: string]: string } = {
  kind: 'the preset is the kind',
  containers: 'a preset builds its own containers (use NodeService for other containers)',
  initContainers: 'a preset builds its own init containers (use NodeService for others)',
  hostNetwork: "the kind decides whether the service needs the host's network",
  hostPID: "the kind decides whether the service needs the host's processes",
  dnsPolicy: 'the kind decides its DNS policy (it depends on whether the service may rely on cluster DNS)',
};

/**
 * What a preset contributes: its NodeService props with the main container first. Each part made from a user's field
 * records it with `madeFrom` (or `derivedFrom`), so that problems found there are reported at that field. @internal
 */
export interface PresetDefaults {
  /** The preset's NodeService props (containers[0] is the main container), before the user's props are laid over. */
  readonly service: NodeServiceProps;
  /** Whether to keep the service off virtual nodes unless `includeVirtualNodes` (false where the preset's affinity already does). */
  readonly realNodesOnly?: boolean;
}

/** Requirements that keep node agents off virtual and serverless nodes (virtual-kubelet, EKS Fargate). */
function realNodeRequirements(): NodeRequirement[] {
  return [NodeRequirement.notIn('eks.amazonaws.com/compute-type', ['fargate']), NodeRequirement.notIn('type', ['virtual-kubelet'])];
}

/** A preset's boundary crossed: the props for `NodeService`, and the user's props that passed the shape check. @internal */
export interface PresetService<P> {
  /** The NodeService props: the preset's defaults with the user's props laid over, carrying the problems found. */
  readonly service: NodeServiceProps;
  /** The user's props of the declared types (a field of the wrong type is left out: it is reported at synthesis). */
  readonly props: Partial<P>;
}

/**
 * The boundary of a preset: checks the type and shape of every prop (the shared option groups and the preset's own
 * `shape`), lets `build` compute the preset's defaults from the sound props, and lays the user's props over them.
 * Problems are not thrown here: they travel with the returned props to `NodeService`, which reports them with its own
 * in one error.
 * @internal
 */
export function presetService<P extends NodeServicePresetProps>(
  raw: P,
  what: string,
  shape: ShapeTable,
  build: (props: P, problems: ProblemCollector) => PresetDefaults,
): PresetService<P> {
  const problems = new ProblemCollector();
  const props = checkShape<P>(raw, { ...PRESET_SHAPE, ...shape }, problems, what, REFUSED);
  const defaults = build(props, problems);
  return { service: carryProblems(layOver(defaults, props, problems), problems), props };
}

/**
 * Lays user props over a preset's defaults: every option group field the user set replaces the preset's (lists of
 * tolerations, node requirements and suppressions, and label/annotation maps, are added to); the main container gets
 * the user's container options, `extraArgs`, `extraHostPaths` and `extraCapabilities`; `sidecars` and
 * `extraInitContainers` follow the preset's containers. Every part taken from the user keeps the field it was written
 * as.
 */
function layOver(defaults: PresetDefaults, user: NodeServicePresetProps, problems: ProblemCollector): NodeServiceProps {
  const d = defaults.service;
  const virtual = (defaults.realNodesOnly ?? true) && !user.includeVirtualNodes ? realNodeRequirements() : [];
  const extra = extraCapabilities(user, problems);
  const extraInit = userParts(user.extraInitContainers, 'extraInitContainers');
  return laidOver(d, {
    ...given(user, SERVICE_GROUPS_SHAPE),
    ...(user.name !== undefined && { name: user.name }),
    ...(user.labels && { labels: merged(d.labels, user.labels, 'labels') }),
    ...(user.annotations && { annotations: merged(d.annotations, user.annotations, 'annotations') }),
    ...(user.podAnnotations && { podAnnotations: merged(d.podAnnotations, user.podAnnotations, 'podAnnotations') }),
    ...(user.tolerations && { tolerations: joined(d.tolerations, userParts(user.tolerations, 'tolerations')) }),
    nodeRequirements: joined(d.nodeRequirements, virtual, userParts(user.nodeRequirements, 'nodeRequirements')),
    suppressions: joined(d.suppressions, extra.suppressions, userParts(user.suppressions, 'suppressions')),
    containers: joined(
      replaced(d.containers, 0, layOverContainer(d.containers[0], user, extra.capabilities)),
      userParts(user.sidecars, 'sidecars'),
    ),
    ...(extraInit.length > 0 && { initContainers: joined(d.initContainers, extraInit) }),
  });
}

/** The main container with the user's container options laid over the preset's. */
function layOverContainer(main: ContainerSpec, user: NodeServicePresetProps, caps: string[]): ContainerSpec {
  const options = given(user, { ...CONTAINER_OPTIONS_SHAPE, ...CONTAINER_SECURITY_SHAPE });
  const baseCaps = main.capabilities ?? [];
  const addedCaps = userParts(caps, 'extraCapabilities', (c) => !baseCaps.includes(c));
  const resetNonRoot = user.runAsUser !== undefined && user.runAsNonRoot === undefined && main.runAsNonRoot !== undefined;
  const out = laidOver<ContainerSpec>(main, {
    ...options,
    ...(user.env && { env: merged(main.env, user.env, 'env') }),
    ...(user.fieldEnv && { fieldEnv: merged(main.fieldEnv, user.fieldEnv, 'fieldEnv') }),
    ...(user.mounts && { mounts: joined(main.mounts, userParts(user.mounts, 'mounts')) }),
    ...(user.envFrom && { envFrom: joined(main.envFrom, userParts(user.envFrom, 'envFrom')) }),
    ...(resetNonRoot && { runAsNonRoot: user.runAsUser === 0 ? false : undefined }),
    ...((user.extraArgs?.length ?? 0) > 0 && { args: joined(options.args ?? main.args, userParts(user.extraArgs, 'extraArgs')) }),
    ...((user.extraHostPaths?.length ?? 0) > 0 && { hostPaths: joined(main.hostPaths, userParts(user.extraHostPaths, 'extraHostPaths')) }),
    ...(addedCaps.length > 0 && { capabilities: joined(baseCaps, addedCaps) }),
  });
  // The main container's image is always the user's `image`; every container option the user set is the user's.
  madeFrom(out, 'image', 'image');
  for (const key of Object.keys(options)) if (isMember(out, key)) madeFrom(out, key, key);
  return out;
}

/** The fields named in `table` that `props` sets, in the table's order. */
function given<P extends object>(props: P, table: ShapeTable): Partial<P> {
  const out: Partial<P> = {};
  for (const key of Object.keys(table)) if (isMember(props, key) && props[key] !== undefined) out[key] = props[key];
  return out;
}

/** Whether `key` is a member of `part`. */
function isMember<T extends object>(part: T, key: string): key is Extract<keyof T, string> {
  return key in part;
}

/**
 * `hostPath`, whose path is the user's `field`: problems with the path are reported at `field`, and the mount path
 * (which defaults to the path) has no problem of its own when the path has one. @internal
 */
export function hostPathFrom(hostPath: HostPath, field: string): HostPath {
  return derivedFrom(madeFrom(hostPath, field, 'path'), field, 'mountPath');
}

/**
 * The extra capabilities asked for, checked for a reason; the reason becomes a suppression of the
 * `dangerous-capability` warning so that reviewers see it in the manifest.
 */
function extraCapabilities(
  props: NodeServicePresetProps,
  problems: ProblemCollector,
): { capabilities: string[]; suppressions: NodeServiceProps['suppressions'] & object } {
  const capabilities = props.extraCapabilities ?? [];
  if (capabilities.length === 0) return { capabilities, suppressions: [] };
  if (reasonError(props.extraCapabilitiesReason)) {
    problems.add(
      'extraCapabilitiesReason',
      props.extraCapabilitiesReason,
      `extraCapabilities ${capabilities.join(', ')} need a reason of at least ${MIN_REASON_LENGTH} characters`,
      'say why the service needs each extra capability (extraCapabilitiesReason), or drop them',
    );
    return { capabilities, suppressions: [] };
  }
  return {
    capabilities,
    suppressions: [{ ruleId: 'dangerous-capability', reason: `${capabilities.join(', ')}: ${props.extraCapabilitiesReason}` }],
  };
}

/**
 * A preset's port is bound by its default arguments: with `args` (which replace them) and a `port`, the arguments
 * must bind the port themselves, or every pod would listen elsewhere than its port and probes say. @internal
 */
export function checkPortBinding(
  props: NodeServicePresetProps & { readonly port?: number },
  problems: ProblemCollector,
  binding: string[],
): void {
  if (props.args === undefined || props.port === undefined) return;
  const all = [...props.args, ...(props.extraArgs ?? [])];
  if (binding.some((b) => all.includes(b))) return;
  problems.add(
    'args',
    props.args,
    `replace the default arguments, which bind port ${props.port} (${binding.join(' ')}), and do not bind it themselves`,
    `add ${binding[0]} to args, or keep the default arguments and put yours in extraArgs`,
  );
}
