/**
 * What a canary or a variant changes (images, the main container's args, env, mounts and resources), laid over the
 * containers it derives from, and checked; with the renames that report a problem of the result under the field the
 * user wrote (`canary.image`, `variants[1].mounts[0]`).
 */

import { labelValueError, ownValue, qualifiedNameError } from '../../k8s';
import { Canary } from '../canary';
import { ContainerSpec, Probe } from '../container';
import { ProblemCollector } from '../../k8s/problems';
import type { NodeServiceProps } from '../props';
import { VariantOptions, WindowsVariantOptions } from '../variant';

/** What a canary or variant changes. */
export type TrackOverrides = VariantOptions & Partial<WindowsVariantOptions>;

/** The containers with `o` laid over them (images by name, the main container's args, env, mounts and resources). */
export function overridden(
  containers: ContainerSpec[],
  initContainers: ContainerSpec[],
  field: string,
  o: TrackOverrides,
): { containers: ContainerSpec[]; initContainers: ContainerSpec[]; renames: Array<[string, string]> } {
  const main = containers[0]?.name;
  const renames: Array<[string, string]> = [];
  const swap = (c: ContainerSpec, cf: string): ContainerSpec => {
    const isMain = c.name === main;
    const own = ownValue(o.images, c.name) as string | undefined;
    const image = own ?? (isMain && o.image ? o.image : c.image);
    if (image !== c.image) renames.push([`${cf}.image`, own !== undefined ? `${field}.images["${c.name}"]` : `${field}.image`]);
    if (isMain && o.args) renames.push([`${cf}.args`, `${field}.args`]);
    if (isMain && o.env) for (const k of Object.keys(o.env)) renames.push([`${cf}.env["${k}"]`, `${field}.env["${k}"]`]);
    if (isMain && o.resources) renames.push([`${cf}.resources`, `${field}.resources`]);
    let mounts = c.mounts;
    if (isMain && o.mounts) {
      const replaced = new Set(o.mounts.map((m) => m.mountPath));
      const kept = (c.mounts ?? []).filter((m) => !replaced.has(m.mountPath));
      mounts = [...kept, ...o.mounts];
      o.mounts.forEach((_, i) => renames.push([`${cf}.mounts[${kept.length + i}]`, `${field}.mounts[${i}]`]));
    }
    return {
      ...c,
      image,
      ...(isMain && o.args ? { args: o.args } : {}),
      ...(isMain && o.env ? { env: { ...(c.env ?? {}), ...o.env } } : {}),
      ...(mounts !== c.mounts ? { mounts } : {}),
      ...(isMain && o.resources ? { resources: o.resources } : {}),
    };
  };
  return {
    containers: containers.map((c, i) => swap(c, `containers[${i}]`)),
    initContainers: initContainers.map((c, i) => swap(c, `initContainers[${i}]`)),
    renames,
  };
}

/**
 * The one container of a Windows pod: the main container's name, ports, downward-API env, envFrom, non-exec probes and
 * resources, with the Windows image, command, args, env and mounts of `o`.
 */
export function windowsContainer(
  main: ContainerSpec | undefined,
  field: string,
  o: TrackOverrides,
): { containers: ContainerSpec[]; renames: Array<[string, string]> } {
  if (!main) return { containers: [], renames: [] };
  const probe = (p: Probe | undefined) => (p !== undefined && p._handler?.exec === undefined ? p : undefined);
  const renames: Array<[string, string]> = [['containers[0].image', `${field}.image`]];
  if (o.command) renames.push(['containers[0].command', `${field}.command`]);
  if (o.args) renames.push(['containers[0].args', `${field}.args`]);
  if (o.env) for (const k of Object.keys(o.env)) renames.push([`containers[0].env["${k}"]`, `${field}.env["${k}"]`]);
  if (o.resources) renames.push(['containers[0].resources', `${field}.resources`]);
  (o.mounts ?? []).forEach((_, i) => renames.push([`containers[0].mounts[${i}]`, `${field}.mounts[${i}]`]));
  const [readiness, liveness, startup] = [probe(main.readiness), probe(main.liveness), probe(main.startup)];
  const c: ContainerSpec = {
    name: main.name,
    image: o.image ?? main.image,
    ...(o.command ? { command: o.command } : {}),
    ...(o.args ? { args: o.args } : {}),
    ...(o.env ? { env: o.env } : {}),
    ...(main.fieldEnv ? { fieldEnv: main.fieldEnv } : {}),
    ...(main.envFrom ? { envFrom: main.envFrom } : {}),
    ...(o.mounts ? { mounts: o.mounts } : {}),
    ...(main.ports ? { ports: main.ports } : {}),
    ...(readiness ? { readiness } : {}),
    ...(liveness ? { liveness } : {}),
    ...(startup ? { startup } : {}),
    ...((o.resources ?? main.resources) ? { resources: o.resources ?? main.resources } : {}),
    ...(main.imagePullPolicy ? { imagePullPolicy: main.imagePullPolicy } : {}),
  };
  return { containers: [c], renames };
}

/** Checks the overrides every track has: image names of containers, the version label. */
export function checkOverrides(
  props: NodeServiceProps,
  field: string,
  o: TrackOverrides,
  windows: boolean,
  problems: ProblemCollector,
): void {
  const all = [...props.containers, ...(props.initContainers ?? [])];
  if (!windows)
    for (const [name, image] of Object.entries(o.images ?? {})) {
      if (!all.some((c) => c.name === name))
        problems.add(`${field}.images["${name}"]`, image, 'names no container of the service', 'use the name of one of the containers');
    }
  if (o.version !== undefined) problems.check(`${field}.version`, o.version, labelValueError(o.version), 'use a valid label value');
}

/** Checks a canary split's label. */
export function checkCanary(canary: Canary, field: string, problems: ProblemCollector): void {
  problems.check(
    `${field}.key`,
    canary.key,
    qualifiedNameError(canary.key),
    'use a node label key such as "node-services.example.com/canary"',
  );
  problems.check(
    `${field}.value`,
    canary.value,
    labelValueError(canary.value) ?? (canary.value === '' ? 'must not be empty' : undefined),
    'use a label value such as "true"',
  );
}
