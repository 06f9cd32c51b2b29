/**
 * The app model of an import: one module per DaemonSet (the construct chosen for its kind, the objects that belong to
 * it kept as `ApiObject`s), the other objects kept in `main.ts`. Pure; see `fixpoint.ts` for the escape-hatch patches.
 */

import { isHostPathAllowed, kindProfile, NodeServiceKind } from '../policy/kinds';
import { asArray, asObject, isObject } from '../k8s/json';
import { InputObject, nameOf } from '../day2/objects';
import { chooseKind, describeObject, KindChoice, ServiceInput } from './input';
import { Constants, serviceProps } from './map';
import type { ConstructChoice } from './choose';
import type { AdoptRuntime } from './evaluate';
import { ApiAccessMapping, apiAccessOf } from './rbac';
import { placeOnPools, ProposedPool } from './pools';
import { AppModel, KeptObject, ObjectExpr, PatchStatement, ServiceModule } from './model';

/** Words of a name (`fluent-bit.v2` → `fluent`, `bit`, `v2`). */
function words(name: string): string[] {
  return name.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
}

/** `PascalCase` of a name, never starting with a digit. */
function pascalName(name: string): string {
  const text = words(name)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
  return /^[A-Za-z]/.test(text) ? text : `N${text}`;
}

/** `camelCase` of a name. */
function camelName(name: string): string {
  const p = pascalName(name);
  return p[0].toLowerCase() + p.slice(1);
}

/** A file name for a module (`fluent-bit.ts`). */
function moduleFileName(name: string): string {
  return `${words(name.toLowerCase()).join('-') || 'service'}.ts`;
}

function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  taken.add(name);
  return name;
}

/** An object with `apiVersion`, `kind` and `metadata` first, as cdk8s writes an `ApiObject` (the rest in its order). */
function canonicalOrder(body: Record<string, unknown>): Record<string, unknown> {
  const { apiVersion, kind, metadata, ...rest } = body;
  const head = Object.entries({ apiVersion, kind, metadata }).filter(([, v]) => v !== undefined);
  return { ...Object.fromEntries(head), ...rest };
}

/** Keeps objects as `ApiObject`s with unique variables and construct ids. */
function keepObjects(objects: readonly InputObject[], comment: (o: InputObject) => string, taken = new Set<string>()): KeptObject[] {
  const ids = new Set<string>();
  return objects.map((o) => {
    const kind = String(asObject(o.object).kind ?? 'object');
    const name = nameOf(o.object);
    return {
      variable: uniqueName(camelName(`${kind}-${name}`), taken),
      id: uniqueName(`${kind.toLowerCase()}-${name}`, ids),
      body: canonicalOrder(o.object as Record<string, unknown>),
      comment: comment(o),
    };
  });
}

/** Options of {@link buildModel}. */
export interface BuildOptions {
  /** The kind for DaemonSets without a kind annotation (`--kind`). */
  readonly kind?: NodeServiceKind;
  /** The library's exports (to check that RBAC rules are valid `ApiPermission`s). */
  readonly runtime: AdoptRuntime;
  /** The cluster's nodes and the pools proposed from them (`--nodes`): node selection is expressed as pools where equivalent. */
  readonly nodes?: { readonly list: readonly unknown[]; readonly pools: readonly ProposedPool[] };
}

/** A module and the kind chosen for it. */
export interface BuiltService {
  /** The module. */
  readonly module: ServiceModule;
  /** The input it came from. */
  readonly input: ServiceInput;
  /** The kind and why. */
  readonly choice: KindChoice;
  /** The construct and why (set once the presets were tried). */
  readonly construct?: ConstructChoice;
  /** How the ServiceAccount's permissions are built: as `apiAccess`, or kept as they are and why (none without RBAC). */
  readonly access?: string;
  /** How the node selection is expressed with `--nodes`: as pools, or kept and why. */
  readonly placement?: string;
}

/** The host access of `ds` that the kind's allowlists refuse (host paths with their access, capabilities). */
function accessOutsideKind(ds: Record<string, any>, kind: NodeServiceKind): string[] {
  const profile = kindProfile(kind);
  const pod = asObject(asObject(asObject(ds.spec).template).spec);
  const volumes = new Map<string, Record<string, any>>();
  for (const v of asArray(pod.volumes)) if (isObject(v) && typeof v.name === 'string') volumes.set(v.name, v);
  const out = new Set<string>();
  for (const c of [...asArray(pod.initContainers), ...asArray(pod.containers)].map(asObject)) {
    for (const m of asArray(c.volumeMounts).map(asObject)) {
      const path = asObject(volumes.get(String(m.name))?.hostPath).path;
      // A Windows path (`C:\k`) is on no allowlist either.
      if (typeof path !== 'string' || path === '') continue;
      const writable = m.readOnly !== true;
      if (!isHostPathAllowed(profile, path, writable)) out.add(`host path ${path} (${writable ? 'writable' : 'read-only'})`);
    }
    for (const cap of asArray(asObject(asObject(c.securityContext).capabilities).add)) {
      const name = String(cap).replace(/^CAP_/, '');
      if (profile.capabilities !== undefined && !profile.capabilities.includes(name)) out.add(`capability ${name}`);
    }
  }
  return [...out];
}

/** The kind to build with: the chosen kind when its allowlists admit the input's host access, else the generic kind. */
function fittingKind(ds: Record<string, any>, choice: KindChoice): KindChoice {
  const outside = accessOutsideKind(ds, choice.kind);
  if (outside.length === 0) return choice;
  return {
    kind: NodeServiceKind.GENERIC,
    source: choice.source,
    refused: choice.kind,
    refusedAccess: outside,
    reason: `${choice.reason}; but its ${outside.join(', ')} are outside the ${choice.kind} allowlists, so it is built as a generic node service that keeps this access`,
  };
}

/** The module of one DaemonSet (without escape-hatch patches). */
export function buildService(input: ServiceInput, options: BuildOptions, taken: Set<string>): BuiltService {
  const ds = asObject(input.daemonSet.object);
  const file = input.daemonSet.file ?? '-';
  const choice = fittingKind(ds, chooseKind(ds, options.kind));
  const name = nameOf(ds);
  // The library names a service with a DNS-1123 label; a DaemonSet name with dots keeps its name through the escape hatch.
  const label = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(name) ? name : words(name.toLowerCase()).join('-').slice(0, 63);
  const mapping = accessMapping(input, label, options.runtime);
  const replaced = typeof mapping === 'object' ? mapping.replaced : [];
  const belonging = input.belonging.filter((o) => !replaced.includes(o));
  const objects = keepObjects(belonging, (o) => `${describeObject(o.object)} from ${o.file ?? '-'}, kept as it is.`);
  const kept = new Map<string, string>();
  for (const k of objects) kept.set(`${String(k.body.kind)}/${nameOf(k.body)}`, k.variable);
  const numbers = new Constants();
  const apiAccess =
    typeof mapping === 'object'
      ? {
          permissions: mapping.permissions,
          // The roles are not named: the library names its own, so a second import of the output says the same.
          comment: `The permissions of ${describeObject(mapping.replaced[0].object)} from ${file} (by a ClusterRole and ClusterRoleBinding): the library creates the ServiceAccount and its RBAC.`,
        }
      : undefined;
  const mapped = serviceProps(
    { ...ds, metadata: { ...asObject(ds.metadata), name: label } },
    { file, kind: choice.kind, kept, numbers, apiAccess },
  );
  const placed = options.nodes !== undefined ? placeOnPools(ds, mapped as ObjectExpr, options.nodes.list, options.nodes.pools) : undefined;
  const props = placed?.props ?? mapped;
  const patches: PatchStatement[] = [];
  if (label !== name) {
    const comment = `metadata.name: ${JSON.stringify(name)} from ${file} is not a DNS-1123 label, which the library's name is`;
    patches.push({ op: 'replace', path: '/metadata/name', value: name, comment });
  }
  if (typeof asObject(ds.metadata).namespace !== 'string') {
    const comment = `metadata.namespace: ${file} names none (it goes where it is applied); the library's default namespace is left out`;
    patches.push({ op: 'remove', path: '/metadata/namespace', comment });
  }
  // `Service` keeps the class apart from the library's own names (`LogAgent`, `NodeService` …).
  const className = uniqueName(`${pascalName(name).replace(/Service$/, '')}Service`, taken);
  const module: ServiceModule = {
    fileName: moduleFileName(className === `${pascalName(name).replace(/Service$/, '')}Service` ? name : className),
    className,
    id: name,
    construct: 'NodeService',
    props,
    objects,
    patches,
    constants: numbers.declared,
    doc: [`${describeObject(ds)}, imported from ${file}.`, `Built with NodeService (kind ${choice.kind}): ${choice.reason}.`],
  };
  const access =
    typeof mapping === 'object'
      ? `as apiAccess: the library creates the ServiceAccount ${label} and the ClusterRole and ClusterRoleBinding ${String(asObject(ds.metadata).namespace)}-${label} with the same grants, in place of ${replaced.map((o) => describeObject(o.object)).join(', ')}`
      : mapping;
  return { module, input, choice, access, placement: placed?.reason };
}

/** The `apiAccess` mapping of a service's RBAC, the reason it is kept as it is, or `undefined` without RBAC. */
function accessMapping(input: ServiceInput, name: string, runtime: AdoptRuntime): ApiAccessMapping | string | undefined {
  const ds = asObject(input.daemonSet.object);
  const pod = asObject(asObject(asObject(ds.spec).template).spec);
  const account = typeof pod.serviceAccountName === 'string' ? pod.serviceAccountName : pod.serviceAccount;
  const namespace = asObject(ds.metadata).namespace;
  if (typeof namespace !== 'string') return typeof account === 'string' ? 'kept as they are: the DaemonSet names no namespace' : undefined;
  return apiAccessOf(input.belonging, { name, namespace, account: typeof account === 'string' ? account : undefined }, runtime);
}

/** The app model: the modules of `services` and the other objects kept as they are. */
export function buildModel(services: readonly BuiltService[], others: readonly InputObject[]): AppModel {
  return {
    services: services.map((s) => s.module),
    others: keepObjects(others, (o) => `${describeObject(o.object)} from ${o.file ?? '-'}: no node service owns it; kept as it is.`),
  };
}
