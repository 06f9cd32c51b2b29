/**
 * Whether a DaemonSet's surge rollout can only stall: with `maxSurge > 0` the controller starts the new pod on a node
 * while the old one still runs there, and a pod that binds host ports (or shares the host network, where every port
 * it opens is the node's) collides with its predecessor, so the new pod stays Pending (host ports) or cannot bind
 * (host network) and the old one is never deleted. One condition for `plan` and the synth-time check of the node
 * services.
 */

import { podHostPorts } from './resources';
import { resolveStrategy } from './strategy';
import type { WireDaemonSet } from '../k8s/wire';

/** What a surging DaemonSet's new pod would collide on. */
export interface SurgeConflict {
  /** `maxSurge` as written. */
  readonly maxSurge: number | string;
  /** The host ports the pods bind (`TCP/9100`), after the host network's defaulting; empty when none are declared. */
  readonly hostPorts: readonly string[];
  /** Whether the pods use the host network. */
  readonly hostNetwork: boolean;
}

/**
 * The collision of `ds`'s surge rollout, or undefined when it does not surge (OnDelete, `maxSurge` 0 or unresolvable)
 * or its pods bind no host port and do not use the host network.
 */
export function surgeConflict(ds: WireDaemonSet | undefined): SurgeConflict | undefined {
  const strategy = resolveStrategy(ds, 1);
  if (strategy.errors.length > 0 || strategy.type !== 'RollingUpdate' || strategy.maxSurge === 0) return undefined;
  const spec = ds?.spec?.template?.spec;
  const hostNetwork = spec?.hostNetwork === true;
  const hostPorts = [...new Set(podHostPorts(spec, true).map((p) => p.key))];
  if (!hostNetwork && hostPorts.length === 0) return undefined;
  return { maxSurge: strategy.maxSurgeValue, hostPorts, hostNetwork };
}

/** `host port TCP/9100 and the host network`. */
export function describeSurgeConflict(conflict: SurgeConflict): string {
  const ports =
    conflict.hostPorts.length > 0 ? [`host port${conflict.hostPorts.length === 1 ? '' : 's'} ${conflict.hostPorts.join(', ')}`] : [];
  return [...ports, ...(conflict.hostNetwork ? ['the host network'] : [])].join(' and ');
}
