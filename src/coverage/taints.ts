/**
 * Taints and tolerations: the tolerations the DaemonSet controller adds to every daemon pod
 * (`AddOrUpdateDaemonPodTolerations` with the `AddOrUpdateTolerationInPodSpec` merge rule), `Toleration.ToleratesTaint`,
 * and `FindMatchingUntoleratedTaint` over a node's taints in `spec.taints` order.
 *
 * Taints are interned (one id per distinct key/value/effect), so a compiled workload remembers whether it tolerates
 * a taint after the first node that carries it.
 */

import { jsonText } from './selector';
import type { WirePodSpec, WireTaint } from '../k8s/wire';

/** A toleration as written in a pod spec (missing fields read as ""). */
export interface Toleration {
  /** Taint key to match; "" matches every key (then the operator must be `Exists`). */
  readonly key?: string;
  /** `Exists` or `Equal` ("" means `Equal`). */
  readonly operator?: string;
  /** Value to compare with `Equal`. */
  readonly value?: string;
  /** Effect to match; "" matches every effect. */
  readonly effect?: string;
  /** Seconds a `NoExecute` toleration lasts; ignored for placement. */
  readonly tolerationSeconds?: number;
}

/** A node taint. */
export interface Taint {
  /** Taint key. */
  readonly key: string;
  /** Taint value ("" when absent). */
  readonly value: string;
  /** `NoSchedule`, `PreferNoSchedule` or `NoExecute`. */
  readonly effect: string;
}

function auto(key: string, effect: string): Toleration {
  return Object.freeze({ key, operator: 'Exists', effect });
}

/** The tolerations the DaemonSet controller adds to every daemon pod (operator `Exists`, no `tolerationSeconds`). */
export const AUTOMATIC_TOLERATIONS: readonly Toleration[] = Object.freeze([
  auto('node.kubernetes.io/not-ready', 'NoExecute'),
  auto('node.kubernetes.io/unreachable', 'NoExecute'),
  auto('node.kubernetes.io/disk-pressure', 'NoSchedule'),
  auto('node.kubernetes.io/memory-pressure', 'NoSchedule'),
  auto('node.kubernetes.io/pid-pressure', 'NoSchedule'),
  auto('node.kubernetes.io/unschedulable', 'NoSchedule'),
]);

/** The toleration the controller adds only to `hostNetwork: true` daemon pods. */
export const HOST_NETWORK_TOLERATION: Toleration = auto('node.kubernetes.io/network-unavailable', 'NoSchedule');

function str(v: unknown): string {
  return v == null ? '' : jsonText(v);
}

/** `Toleration.MatchToleration`: same key, effect, operator and value (tolerationSeconds not compared). */
function sameToleration(a: Toleration, b: Toleration): boolean {
  return (
    str(a.key) === str(b.key) && str(a.effect) === str(b.effect) && str(a.operator) === str(b.operator) && str(a.value) === str(b.value)
  );
}

/** `AddOrUpdateTolerationInPodSpec`: replaces every matching toleration, appends when none matches. */
function addOrUpdate(tolerations: readonly Toleration[], toleration: Toleration): readonly Toleration[] {
  const next: Toleration[] = [];
  let updated = false;
  for (const existing of tolerations) {
    if (sameToleration(toleration, existing)) {
      if (existing.tolerationSeconds == null) return tolerations; // semantically equal: nothing changes
      next.push(toleration);
      updated = true;
      continue;
    }
    next.push(existing);
  }
  if (!updated) next.push(toleration);
  return next;
}

/**
 * The tolerations a daemon pod created from `podSpec` carries: the template's tolerations merged with the
 * automatic ones (`network-unavailable` only for host-network pods). A template toleration equal to an automatic
 * one in key, operator, value and effect is replaced by it (so its `tolerationSeconds` is dropped).
 */
export function daemonPodTolerations(podSpec: WirePodSpec | undefined): Toleration[] {
  let tolerations: readonly Toleration[] = Array.isArray(podSpec?.tolerations)
    ? podSpec.tolerations.filter((t: unknown) => t && typeof t === 'object')
    : [];
  for (const t of AUTOMATIC_TOLERATIONS) tolerations = addOrUpdate(tolerations, t);
  if (podSpec?.hostNetwork === true) tolerations = addOrUpdate(tolerations, HOST_NETWORK_TOLERATION);
  return [...tolerations];
}

/** `Toleration.ToleratesTaint` (Kubernetes 1.28: operators `Exists` and `Equal`/"" only). */
function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  const effect = str(toleration.effect);
  if (effect.length > 0 && effect !== taint.effect) return false;
  const key = str(toleration.key);
  if (key.length > 0 && key !== taint.key) return false;
  switch (str(toleration.operator)) {
    case '':
    case 'Equal':
      return str(toleration.value) === taint.value;
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** Formats a taint like `kubectl` (`Taint.ToString`): `key=value:effect`, or `key:effect` without a value. */
export function formatTaint(taint: Taint): string {
  if (taint.effect.length === 0) return taint.value.length === 0 ? taint.key : `${taint.key}=${taint.value}:`;
  return taint.value.length === 0 ? `${taint.key}:${taint.effect}` : `${taint.key}=${taint.value}:${taint.effect}`;
}

/** An interned taint. */
export interface InternedTaint extends Taint {
  /** Process-wide id. */
  readonly id: number;
  /** Whether the effect is `NoSchedule` or `NoExecute` (the only effects that exclude). */
  readonly excludes: boolean;
  /** Whether the effect is `NoExecute`. */
  readonly noExecute: boolean;
  /** `key=value:effect`. */
  readonly text: string;
}

const taintIds = new Map<string, InternedTaint>();

/** Interns a taint from a node's `spec.taints` entry. */
export function internTaint(raw: WireTaint | undefined): InternedTaint {
  const key = str(raw?.key);
  const value = str(raw?.value);
  const effect = str(raw?.effect);
  const id = `${key}\u0000${value}\u0000${effect}`;
  let t = taintIds.get(id);
  if (t === undefined) {
    const taint = { key, value, effect };
    t = Object.freeze({
      ...taint,
      id: taintIds.size,
      excludes: effect === 'NoSchedule' || effect === 'NoExecute',
      noExecute: effect === 'NoExecute',
      text: formatTaint(taint),
    });
    taintIds.set(id, t);
  }
  return t;
}

/** `TolerationsTolerateTaint`: whether any toleration tolerates the taint. */
export function tolerationsTolerate(tolerations: readonly Toleration[], taint: Taint): boolean {
  for (let i = 0; i < tolerations.length; i++) if (toleratesTaint(tolerations[i], taint)) return true;
  return false;
}
