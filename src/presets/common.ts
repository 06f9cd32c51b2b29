/**
 * What every preset shares: its props (the option groups of `NodeService` plus the host-access extras), and the one
 * function that lays a user's props over a preset's defaults.
 */

import { ContainerSpec } from '../core/container';
import { carryProblems, ProblemCollector } from '../k8s/problems';
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

/** What a preset contributes: its NodeService props with the main container first, and how to name its fields. @internal */
export interface PresetDefaults {
  /** The preset's NodeService props (containers[0] is the main container), before the user's props are laid over. */
  readonly service: NodeServiceProps;
  /** Whether to keep the service off virtual nodes unless `includeVirtualNodes` (false where the preset's affinity already does). */
  readonly realNodesOnly?: boolean;
  /** Internal fields the user set under another name (e.g. `containers[0].hostPaths[1].path` → `stateDir`). */
  readonly renames?: Array<[string, string]>;
}

/** Container options where the user's value is added to the preset's, not put in its place. */
const MERGED_MAPS = ['env', 'fieldEnv'] as const;
const MERGED_LISTS = ['mounts', 'envFrom'] as const;
const MERGED_GROUP_MAPS = ['labels', 'annotations', 'podAnnotations'] as const;
const MERGED_GROUP_LISTS = ['tolerations', 'nodeRequirements', 'suppressions'] as const;

/** Requirements that keep node agents off virtual and serverless nodes (virtual-kubelet, EKS Fargate). */
function realNodeRequirements(): NodeRequirement[] {
  return [NodeRequirement.notIn('eks.amazonaws.com/compute-type', ['fargate']), NodeRequirement.notIn('type', ['virtual-kubelet'])];
}

/**
 * `props` when it is an object, else no props: what a preset reads of its props after the boundary, which reports
 * props that are not an object at synthesis (each field's own type is checked there too; a preset reads only strings
 * it would otherwise default).
 * @internal
 */
export function soundProps<P extends object>(props: P): Partial<P> {
  return typeof props === 'object' && props !== null ? props : {};
}

/**
 * The boundary of a preset: checks the type and shape of every prop (the shared option groups and the preset's own
 * `shape`), lets `build` compute the preset's defaults from the sound props, and lays the user's props over them.
 * Problems are not thrown here: they travel with the returned props to `NodeService`, which reports them with its own
 * in one error.
 * @internal
 */
export function presetServiceProps<P extends NodeServicePresetProps>(
  raw: P,
  what: string,
  shape: ShapeTable,
  build: (props: P, problems: ProblemCollector) => PresetDefaults,
): NodeServiceProps {
  const problems = new ProblemCollector();
  const props = checkShape<P>(raw, { ...PRESET_SHAPE, ...shape }, problems, what, REFUSED);
  const defaults = build(props, problems);
  return carryProblems(layOver(defaults, props, problems), problems);
}

/**
 * Lays user props over a preset's defaults: every option group field the user set replaces the preset's (lists of
 * tolerations, node requirements and suppressions, and label/annotation maps, are added to); the main container gets
 * the user's container options (`env`, `fieldEnv` merged, `mounts`, `envFrom` added), `extraArgs`, `extraHostPaths`
 * and `extraCapabilities` appended. Problems found later under the internal fields are reported under the user's.
 * @internal
 */
function layOver(defaults: PresetDefaults, user: NodeServicePresetProps, problems: ProblemCollector): NodeServiceProps {
  const d = defaults.service;
  const u = user as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { ...d, name: user.name ?? d.name };
  for (const key of Object.keys(SERVICE_GROUPS_SHAPE)) {
    if (u[key] === undefined) continue;
    const given = (d as unknown as Record<string, unknown>)[key];
    if ((MERGED_GROUP_MAPS as readonly string[]).includes(key)) out[key] = mergeMaps(given, u[key]);
    else if ((MERGED_GROUP_LISTS as readonly string[]).includes(key))
      out[key] = [...((given as unknown[]) ?? []), ...(u[key] as unknown[])];
    else out[key] = u[key];
  }
  const virtual = (defaults.realNodesOnly ?? true) && !user.includeVirtualNodes ? realNodeRequirements() : [];
  out.nodeRequirements = [...((d.nodeRequirements as NodeRequirement[]) ?? []), ...virtual, ...(user.nodeRequirements ?? [])];
  const extra = extraCapabilities(user, problems);
  out.suppressions = [...(d.suppressions ?? []), ...extra.suppressions, ...(user.suppressions ?? [])];
  const [main, ...others] = d.containers;
  const sidecars = user.sidecars ?? [];
  sidecars.forEach((_, i) => problems.rename(`containers[${d.containers.length + i}]`, `sidecars[${i}]`));
  out.containers = [layOverContainer(main, user, extra.capabilities, problems), ...others, ...sidecars];
  const ownInit = d.initContainers ?? [];
  const extraInit = user.extraInitContainers ?? [];
  extraInit.forEach((_, i) => problems.rename(`initContainers[${ownInit.length + i}]`, `extraInitContainers[${i}]`));
  if (extraInit.length > 0) out.initContainers = [...ownInit, ...extraInit];
  for (const [from, to] of defaults.renames ?? []) problems.rename(from, to);
  return out as unknown as NodeServiceProps;
}

/** The main container with the user's container options laid over the preset's. */
function layOverContainer(main: ContainerSpec, user: NodeServicePresetProps, caps: string[], problems: ProblemCollector): ContainerSpec {
  const u = user as unknown as Record<string, unknown>;
  const m = main as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { ...main };
  // The main container's image is always the user's `image`.
  problems.rename('containers[0].image', 'image');
  for (const key of [...Object.keys(CONTAINER_OPTIONS_SHAPE), ...Object.keys(CONTAINER_SECURITY_SHAPE)]) {
    if (u[key] === undefined) continue;
    problems.rename(`containers[0].${key}`, key);
    if ((MERGED_MAPS as readonly string[]).includes(key)) out[key] = mergeMaps(m[key], u[key]);
    else if ((MERGED_LISTS as readonly string[]).includes(key)) {
      const base = (m[key] as unknown[]) ?? [];
      (u[key] as unknown[]).forEach((_, i) => problems.rename(`containers[0].${key}[${base.length + i}]`, `${key}[${i}]`));
      out[key] = [...base, ...(u[key] as unknown[])];
    } else out[key] = u[key];
  }
  if (u.runAsUser !== undefined && u.runAsNonRoot === undefined && main.runAsNonRoot !== undefined) {
    out.runAsNonRoot = user.runAsUser === 0 ? false : undefined;
  }
  const appended = (
    key: 'args' | 'hostPaths' | 'capabilities',
    base: unknown[] | undefined,
    extra: unknown[] | undefined,
    as: string,
  ): void => {
    if (!extra || extra.length === 0) return;
    const start = base?.length ?? 0;
    extra.forEach((_, i) => problems.rename(`containers[0].${key}[${start + i}]`, `${as}[${i}]`));
    out[key] = [...(base ?? []), ...extra];
  };
  appended('args', out.args as string[] | undefined, user.extraArgs, 'extraArgs');
  appended('hostPaths', main.hostPaths, user.extraHostPaths, 'extraHostPaths');
  const baseCaps = main.capabilities ?? [];
  appended(
    'capabilities',
    baseCaps,
    caps.filter((c) => !baseCaps.includes(c)),
    'extraCapabilities',
  );
  return out as unknown as ContainerSpec;
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

/** The preset's entries the user did not set, then the user's, in the user's order. */
function mergeMaps(preset: unknown, user: unknown): { [key: string]: unknown } {
  const u = user as { [key: string]: unknown };
  return Object.fromEntries([...Object.entries((preset as object) ?? {}).filter(([k]) => !(k in u)), ...Object.entries(u)]);
}
