/**
 * Reading container resources for the reliability rules.
 */

import { parseQuantity } from '../k8s/quantity';
import { asObject } from './helpers';
import type { ContainerView, PodView } from './types';

/** Containers that keep running next to the main process: main containers and restartable init sidecars. */
export function runningContainers(view: PodView): ContainerView[] {
  return view.containers.filter((c) => !c.init || c.sidecar);
}

/** Whether the container sets `resources.<section>.<name>` to a non-zero quantity. */
export function hasResource(c: ContainerView, section: 'requests' | 'limits', name: string): boolean {
  const value = asObject(asObject(c.container.resources)[section])[name];
  if (value === undefined || value === null) return false;
  const parsed = parseQuantity(value);
  return parsed === undefined || parsed > 0;
}
