/** The DaemonSets of a manifest list, found by the `namespace/name` a coverage report names them by. */

/** The DaemonSet objects of `manifests` by `namespace/name` (a namespace not given is `default`). */
export function daemonSetsByName(manifests: readonly any[]): Map<string, any> {
  const objects = new Map<string, any>();
  for (const m of manifests) if (m?.kind === 'DaemonSet') objects.set(`${m.metadata?.namespace || 'default'}/${m.metadata?.name}`, m);
  return objects;
}
