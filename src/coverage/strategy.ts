/**
 * The DaemonSet update strategy as the Kubernetes 1.28 API server defaults it and the DaemonSet controller resolves
 * it (`pkg/apis/apps/v1/defaults.go` `SetDefaults_DaemonSet`; `pkg/controller/daemon/util/daemonset_util.go`
 * `UnavailableCount` / `SurgeCount`; `pkg/controller/daemon/update.go` `updatedDesiredNodeCounts`).
 */

import { intOrPercentError } from '../k8s/intstr';
import type { WireDaemonSet } from '../k8s/wire';

/** `RollingUpdate` or `OnDelete`. */
export type StrategyType = 'RollingUpdate' | 'OnDelete';

/** The update strategy after API defaulting, with the budgets resolved over a desired count. */
export interface ResolvedStrategy {
  /** `spec.updateStrategy.type` (defaulted to `RollingUpdate`). */
  readonly type: StrategyType;
  /** `maxUnavailable` as written or defaulted (`1`). */
  readonly maxUnavailableValue: number | string;
  /** `maxSurge` as written or defaulted (`0`). */
  readonly maxSurgeValue: number | string;
  /** The unavailable budget: the scaled value, and 1 when both budgets resolve to 0 on a non-empty DaemonSet. */
  readonly maxUnavailable: number;
  /** The surge budget: the scaled value. */
  readonly maxSurge: number;
  /** `spec.minReadySeconds` (0 when unset). */
  readonly minReadySeconds: number;
  /** Why the strategy cannot be resolved (the API server would reject it), when it cannot. */
  readonly errors: string[];
  /** Things the controller does that the manifest does not make obvious. */
  readonly notes: string[];
}

/**
 * `intstr.GetScaledValueFromIntOrPercent(value, total, roundUp=true)`: an integer as is; `"N%"` as
 * `ceil(N × total / 100)`.
 */
export function scaledValue(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  const percent = Number(value.slice(0, -1));
  return Math.ceil((percent * total) / 100);
}

/** Resolves a DaemonSet's update strategy over `desired` nodes (`desiredNumberScheduled`). */
export function resolveStrategy(ds: WireDaemonSet | undefined, desired: number): ResolvedStrategy {
  const errors: string[] = [];
  const notes: string[] = [];
  const strategy = ds?.spec?.updateStrategy ?? {};
  const rawType = strategy.type ?? 'RollingUpdate';
  let type: StrategyType = 'RollingUpdate';
  if (rawType === 'OnDelete') type = 'OnDelete';
  else if (rawType !== 'RollingUpdate')
    errors.push(`spec.updateStrategy.type ${JSON.stringify(rawType)} is neither RollingUpdate nor OnDelete`);
  const rolling = strategy.rollingUpdate ?? {};
  const maxUnavailableValue = rolling.maxUnavailable ?? 1;
  const maxSurgeValue = rolling.maxSurge ?? 0;
  for (const [field, value] of [
    ['maxUnavailable', maxUnavailableValue],
    ['maxSurge', maxSurgeValue],
  ] as const) {
    const problem =
      typeof value === 'number' || typeof value === 'string' ? intOrPercentError(value) : 'must be an integer or a percentage string';
    if (problem !== undefined) errors.push(`spec.updateStrategy.rollingUpdate.${field} ${JSON.stringify(value)} ${problem}`);
  }
  const minReady = ds?.spec?.minReadySeconds;
  if (minReady !== undefined && minReady !== null && !(typeof minReady === 'number' && Number.isInteger(minReady) && minReady >= 0)) {
    errors.push(`spec.minReadySeconds ${JSON.stringify(minReady)} must be a non-negative integer`);
  }
  const minReadySeconds = typeof minReady === 'number' && Number.isInteger(minReady) && minReady > 0 ? minReady : 0;
  if (errors.length > 0) {
    return { type, maxUnavailableValue, maxSurgeValue, maxUnavailable: 0, maxSurge: 0, minReadySeconds, errors, notes };
  }
  let maxUnavailable = type === 'RollingUpdate' ? scaledValue(maxUnavailableValue, desired) : 0;
  const maxSurge = type === 'RollingUpdate' ? scaledValue(maxSurgeValue, desired) : 0;
  if (type === 'RollingUpdate' && desired > 0 && maxUnavailable === 0 && maxSurge === 0) {
    maxUnavailable = 1;
    notes.push('maxUnavailable and maxSurge both resolve to 0; the controller then allows 1 unavailable pod');
  }
  if (type === 'RollingUpdate' && maxSurge > 0 && maxUnavailable > 0) {
    notes.push(`with maxSurge > 0 the controller surges and does not use maxUnavailable (${maxUnavailable}) to delete old pods`);
  }
  return { type, maxUnavailableValue, maxSurgeValue, maxUnavailable, maxSurge, minReadySeconds, errors, notes };
}
