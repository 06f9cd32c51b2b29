/**
 * Reading container resources for the reliability rules.
 */

import { parseQuantity } from '../k8s/quantity';
import { asObject, jsonPath } from './helpers';
import type { ContainerView, PodView, RuleFinding } from './types';

/** Containers that keep running next to the main process: main containers and restartable init sidecars. */
export function runningContainers(view: PodView): ContainerView[] {
  return view.containers.filter((c) => !c.init || c.sidecar);
}

/** Whether the container sets `resources.<section>.<name>` to a non-zero quantity. */
function hasResource(c: ContainerView, section: 'requests' | 'limits', name: string): boolean {
  const value = asObject(asObject(c.container.resources)[section])[name];
  if (value === undefined || value === null) return false;
  const parsed = parseQuantity(value);
  return parsed === undefined || parsed > 0;
}

/**
 * A finding at `resources.<section>.<name>` of every running container that does not set it (`container 'agent' has
 * no <what>`): the check of the rules that want a request or a limit.
 */
export function missingResourceFindings(view: PodView, section: 'requests' | 'limits', name: string, what: string): RuleFinding[] {
  return runningContainers(view)
    .filter((c) => !hasResource(c, section, name))
    .map((c) => ({ path: jsonPath(c.path, 'resources', section, name), message: `container '${c.name}' has no ${what}` }));
}
