/**
 * Variants, checked, and the node requirement each one matches (`key In values`: a pool's label, a node label, or the
 * Windows nodes). Only a sound variant gets a match, so its problems are reported once, here, not again from its pods.
 */

import { dns1123LabelError, labelValueError, qualifiedNameError, reasonError, windowsUserNameError } from '../../k8s';
import { NodeServiceKind } from '../../policy/kinds';
import { ProblemCollector } from '../../k8s/problems';
import { NodePool } from '../node-pool';
import { NodeRequirement } from '../placement';
import type { NodeServiceProps } from '../props';
import { PoolVariantOptions, Variant, VariantType } from '../variant';
import { checkCanary, checkOverrides, TrackOverrides } from './overrides';

/** The node label key of the operating system. */
export const WINDOWS_KEY = 'kubernetes.io/os';

/** A variant's match, checked. */
export interface VariantMatch {
  readonly variant: Variant;
  readonly field: string;
  readonly match: NodeRequirement;
  readonly windows: boolean;
  readonly nodeLabels: { [key: string]: string };
  readonly pool?: string;
}

/** The nodes a variant selects: its requirement, the labels a pool's node needs besides the pool's, its pool. */
interface Selection {
  readonly match: NodeRequirement;
  readonly nodeLabels: { [key: string]: string };
  readonly pool?: string;
}

/** What the variants checked so far claimed: their names (to the field of each), the field of the Windows variant. */
interface Claimed {
  readonly names: Map<string, string>;
  windowsField?: string;
}

/** The options of a variant, whichever factory made them. */
type AnyVariantOptions = TrackOverrides & PoolVariantOptions;

/** Checks the variants and resolves their matches (each one `key In values`). */
export function resolveVariants(props: NodeServiceProps, kind: NodeServiceKind, problems: ProblemCollector): VariantMatch[] {
  const claimed: Claimed = { names: new Map<string, string>() };
  const out: VariantMatch[] = [];
  (props.variants ?? []).forEach((v, i) => {
    const match = resolveVariant(props, kind, v, `variants[${i}]`, claimed, problems);
    if (match !== undefined) out.push(match);
  });
  checkShadowed(out, problems);
  return out;
}

/** Checks one variant; returns its match when it is sound. */
function resolveVariant(
  props: NodeServiceProps,
  kind: NodeServiceKind,
  v: Variant,
  f: string,
  claimed: Claimed,
  problems: ProblemCollector,
): VariantMatch | undefined {
  const o = v.options as AnyVariantOptions;
  const previous = checkVariantName(v, f, claimed.names, problems);
  const windows = v.type === VariantType.WINDOWS;
  checkVariantOptions(props, v, f, o, problems);
  const before = problems.size;
  const selection =
    v.type === VariantType.POOL
      ? selectPool(props, v, f, o, problems)
      : v.type === VariantType.NODE_LABEL
        ? selectNodeLabel(v, f, problems)
        : selectWindows(props, kind, v, f, o, claimed, problems);
  // Only a sound variant gets DaemonSets (its problems are reported once, here, not again from the pods).
  if (selection === undefined || previous !== undefined || problems.size !== before) return undefined;
  const { match, nodeLabels, pool } = selection;
  return { variant: v, field: f, match, windows, nodeLabels, ...(pool !== undefined ? { pool } : {}) };
}

/** Checks a variant's name (a DNS label, not `canary`, not taken); returns the field of the variant that took it. */
function checkVariantName(v: Variant, f: string, names: Map<string, string>, problems: ProblemCollector): string | undefined {
  problems.check(`${f}.name`, v.name, dns1123LabelError(v.name), 'use a short lower-case name such as "gpu"');
  if (v.name === 'canary')
    problems.add(`${f}.name`, v.name, 'is taken by the canary DaemonSet (<service>-canary)', 'use another name, or the canary option');
  const previous = names.get(v.name);
  if (previous !== undefined) problems.add(`${f}.name`, v.name, `duplicates ${previous}.name`, 'give each variant its own name');
  else names.set(v.name, f);
  return previous;
}

/** Checks the options of a variant: those of another factory, the overrides, the canary. */
function checkVariantOptions(props: NodeServiceProps, v: Variant, f: string, o: AnyVariantOptions, problems: ProblemCollector): void {
  const windows = v.type === VariantType.WINDOWS;
  if (!windows)
    for (const k of ['command', 'runAsUserName', 'reason'] as const)
      if (o[k] !== undefined) problems.add(`${f}.${k}`, o[k], 'is an option of Variant.windows only', 'remove it, or use Variant.windows');
  if (v.type !== VariantType.POOL && o.poolLabel !== undefined)
    problems.add(`${f}.poolLabel`, o.poolLabel, 'is an option of Variant.forPool only', 'remove it');
  checkOverrides(props, f, o, windows, problems);
  if (o.canary) checkCanary(o.canary, `${f}.canary`, problems);
}

/** The nodes of a pool variant: `<poolLabel> In [<its value>]`, for a pool the service covers. */
function selectPool(
  props: NodeServiceProps,
  v: Variant,
  f: string,
  o: AnyVariantOptions,
  problems: ProblemCollector,
): Selection | undefined {
  const pool = v.pool;
  if (pool === undefined) {
    problems.add(`${f}.pool`, pool, 'is required for a pool variant', 'use Variant.forPool(name, pool, options)');
    return undefined;
  }
  const keys = Object.keys(pool.labels);
  checkVariantPool(props, pool, f, problems);
  if (keys.length === 0) {
    problems.add(
      `${f}.pool`,
      pool.name,
      'has no label that selects its nodes (it stands for every node)',
      'use a pool with a label, or change the service itself',
    );
    return undefined;
  }
  const key = poolLabelOf(pool, keys, f, o.poolLabel, problems);
  if (key === undefined) return undefined;
  return { match: NodeRequirement.in(key, [pool.labels[key]]), nodeLabels: {}, pool: pool.name };
}

/**
 * Checks the pool of a pool variant: one the service covers, not excluded, of the service's operating system (no
 * Windows pool for a Linux service, no Linux pool for a Windows-only one).
 */
function checkVariantPool(props: NodeServiceProps, pool: NodePool, f: string, problems: ProblemCollector): void {
  const declared = props.pools ?? [];
  if (!declared.some((p) => p.name === pool.name))
    problems.add(
      `${f}.pool`,
      pool.name,
      'is not one of the pools the service covers',
      declared.length > 0
        ? `add it to pools (now ${declared.map((p) => `"${p.name}"`).join(', ')})`
        : 'declare the pools the service covers in pools, this one included',
    );
  if ((props.excludePools ?? []).some((p) => p.name === pool.name))
    problems.add(`${f}.pool`, pool.name, 'is one of the excludePools', 'drop it from excludePools, or drop the variant');
  const os = pool.labels[WINDOWS_KEY];
  if (props.windows === undefined && os === 'windows')
    problems.add(`${f}.pool`, pool.name, 'is a pool of Windows nodes', 'use Variant.windows(name, options) for Windows nodes');
  if (props.windows !== undefined && os !== undefined && os !== 'windows')
    problems.add(
      `${f}.pool`,
      pool.name,
      `is a pool of ${os} nodes, and the service runs only on Windows (windows)`,
      'use a pool of Windows nodes, or drop the variant',
    );
}

/** The label of the pool that selects its nodes: `poolLabel`, else its only one. */
function poolLabelOf(
  pool: NodePool,
  keys: string[],
  f: string,
  poolLabel: string | undefined,
  problems: ProblemCollector,
): string | undefined {
  if (poolLabel !== undefined && !keys.includes(poolLabel)) {
    problems.add(
      `${f}.poolLabel`,
      poolLabel,
      `is not a label of pool "${pool.name}"`,
      `use one of ${keys.map((k) => `"${k}"`).join(', ')}`,
    );
    return undefined;
  }
  if (poolLabel === undefined && keys.length > 1) {
    problems.add(
      `${f}.poolLabel`,
      poolLabel,
      `must name the label that selects pool "${pool.name}" (it has ${keys.length})`,
      `set poolLabel to one of ${keys.map((k) => `"${k}"`).join(', ')}`,
    );
    return undefined;
  }
  return poolLabel ?? keys[0];
}

/** The nodes of a node-label variant: `key In values`. */
function selectNodeLabel(v: Variant, f: string, problems: ProblemCollector): Selection | undefined {
  const key = v.key ?? '';
  const values = v.values ?? [];
  problems.check(`${f}.key`, key, qualifiedNameError(key), 'use a node label key such as "node.example.com/size"');
  if (values.length === 0)
    problems.add(`${f}.values`, values, 'must name at least one label value', 'list the values that select the nodes, e.g. ["xl"]');
  values.forEach((value, j) => {
    problems.check(`${f}.values[${j}]`, value, labelValueError(value), 'use a label value such as "xl"');
    if (values.indexOf(value) !== j) problems.add(`${f}.values[${j}]`, value, 'is listed twice', 'list each value once');
  });
  if (key === WINDOWS_KEY)
    problems.add(`${f}.key`, key, 'selects nodes by operating system', 'use Variant.windows(name, options) for Windows nodes');
  return values.length > 0 ? { match: NodeRequirement.in(key, values), nodeLabels: { [key]: values[0] } } : undefined;
}

/** The nodes of a Windows variant (`kubernetes.io/os In [windows]`), for a kind that may have one, once per service. */
function selectWindows(
  props: NodeServiceProps,
  kind: NodeServiceKind,
  v: Variant,
  f: string,
  o: AnyVariantOptions,
  claimed: Claimed,
  problems: ProblemCollector,
): Selection {
  if (props.windows !== undefined)
    problems.add(
      f,
      v.name,
      'is a Windows variant of a Windows-only service (windows): every pod of the service already runs on Windows',
      'drop the variant, or drop windows and keep the variant for the Windows nodes',
    );
  else if (!Variant.WINDOWS_KINDS.includes(kind))
    problems.add(
      f,
      v.name,
      `a ${kind} may not have a Windows HostProcess variant (kinds that may: ${Variant.WINDOWS_KINDS.join(', ')})`,
      'run a service built for Windows separately, or drop the variant',
    );
  if (claimed.windowsField !== undefined)
    problems.add(f, v.name, `is a second Windows variant (${claimed.windowsField} is one)`, 'give the service one Windows variant');
  else claimed.windowsField = f;
  checkWindowsOptions(f, o, problems);
  return { match: NodeRequirement.in(WINDOWS_KEY, ['windows']), nodeLabels: {} };
}

/** Checks the options of a Windows variant: its own image, no per-container images, a reason, the user. */
function checkWindowsOptions(f: string, o: AnyVariantOptions, problems: ProblemCollector): void {
  if (o.image === undefined)
    problems.add(
      `${f}.image`,
      o.image,
      'is required for a Windows variant (the Linux image does not run on Windows)',
      'give the Windows build of the image, e.g. "fluent/fluent-bit:3.1.9-windows-2022"',
    );
  if (o.images !== undefined)
    problems.add(
      `${f}.images`,
      o.images,
      'a Windows pod runs only the main container',
      "set image (the main container's Windows image), or drop images",
    );
  problems.check(`${f}.reason`, o.reason, reasonError(o.reason), 'say why the service needs a HostProcess container on Windows nodes');
  if (o.runAsUserName !== undefined)
    problems.check(
      `${f}.runAsUserName`,
      o.runAsUserName,
      windowsUserNameError(o.runAsUserName),
      'use e.g. "NT AUTHORITY\\\\SYSTEM" or "NT AUTHORITY\\\\Local service"',
    );
}

/** A variant whose match lies within an earlier one's would run on no node. */
function checkShadowed(out: VariantMatch[], problems: ProblemCollector): void {
  out.forEach((v, j) => {
    const earlier = out
      .slice(0, j)
      .find((u) => !(u.windows && v.windows) && u.match.key === v.match.key && v.match.values!.every((x) => u.match.values!.includes(x)));
    if (earlier)
      problems.add(
        v.field,
        v.variant.name,
        `selects only nodes that ${earlier.field} ("${earlier.variant.name}") already runs on: its DaemonSet would run on no node`,
        'select other nodes, or drop one of the variants',
      );
  });
}
