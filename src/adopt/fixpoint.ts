/**
 * The escape hatch, filled in: the app is synthesized, each DaemonSet compared with its input, and every difference
 * that no prop, default or hardening explains becomes a JSON patch of the DaemonSet carrying the input's value
 * (`service.daemonSet.addJsonPatch(...)`), until nothing unexplained is left. A policy error the input carries becomes
 * a suppression with a reason that records the input. Pure given the runtime (the library's exports).
 */

import { parseObjects } from '../manifests/read';
import { RULES } from '../policy/rules';
import { InputObject } from '../day2/objects';
import { BuiltService, buildModel } from './build';
import { ClassifiedChange, DifferenceClass } from './classify';
import { daemonSetClassifier } from './check';
import { AdoptRuntime, CHART_ID, synthesizeApp } from './evaluate';
import { identityOf } from './input';
import { arr, lit, obj, ObjectExpr, PatchStatement, prop, Property, ServiceModule } from './model';
import { expandChange, LeafChange, leafChanges } from './walk';
import { withResources } from './map';
import { asArray, asObject, isObject } from '../k8s/json';
import { readSuppressions, suppressionAnnotationKey } from '../policy/suppression';

/** How many rounds of patches and suppressions the import tries before it gives up. */
const MAX_ROUNDS = 6;

/** A rule finding carried from the input, suppressed with a reason. */
export interface CarriedFinding {
  /** The rule id. */
  readonly ruleId: string;
  /** The finding's message. */
  readonly message: string;
  /** The suppression's reason as the input states it (a suppression annotation the input carries). @default `carried from <file>: <message>` */
  readonly reason?: string;
}

/** A service with what the fixpoint added to it. */
export interface FixedService extends BuiltService {
  /** Rule findings of the input suppressed with a reason. */
  readonly carried: CarriedFinding[];
}

/** The outcome of {@link fixpoint}. */
export interface FixpointResult {
  /** The services, with their patches and suppressions. */
  readonly services: FixedService[];
  /** The synthesized objects of the final round (empty when synthesis failed). */
  readonly output: InputObject[];
  /** Why the app does not synthesize, when it does not. */
  readonly failure?: string;
}

function patchOf(change: LeafChange, file: string, classify: (c: LeafChange) => ClassifiedChange): PatchStatement[] {
  const leaves = expandChange(change).map(classify);
  const open = leaves.filter((l) => l.class === DifferenceClass.UNEXPLAINED);
  if (open.length === 0) return [];
  const comment = (c: LeafChange) => `${c.path}: carried from ${file} (no prop of the library expresses it)`;
  if (change.output === undefined) return [{ op: 'add', path: change.pointer, value: change.input, comment: comment(change) }];
  if (change.input !== undefined) return [{ op: 'replace', path: change.pointer, value: change.input, comment: comment(change) }];
  if (open.length === leaves.length)
    return [{ op: 'remove', path: change.pointer, comment: `${change.path}: the input has none (${file})` }];
  return open.map((l) => ({ op: 'remove' as const, path: l.pointer, comment: `${l.path}: the input has none (${file})` }));
}

/** Removes at list indexes last, highest index first, so that earlier pointers stay valid. */
function ordered(patches: PatchStatement[]): PatchStatement[] {
  const index = (p: PatchStatement) => Number(/\/(\d+)$/.exec(p.path)?.[1] ?? -1);
  const removes = patches.filter((p) => p.op === 'remove').sort((a, b) => index(b) - index(a));
  return [...patches.filter((p) => p.op !== 'remove'), ...removes];
}

function withSuppressions(props: ObjectExpr, carried: readonly CarriedFinding[], file: string): ObjectExpr {
  if (carried.length === 0) return props;
  const items = carried.map((c) =>
    obj([prop('ruleId', lit(c.ruleId)), prop('reason', lit(c.reason ?? `carried from ${file}: ${c.message}`.slice(0, 300)))]),
  );
  const property: Property = {
    key: 'suppressions',
    value: arr(items),
    comment: 'REVIEW: findings the input already had, accepted so that the import changes nothing; fix them or keep the reasons.',
  };
  return { type: 'object', properties: [...props.properties.filter((p) => p.key !== 'suppressions'), property] };
}

/** Rules whose findings can be suppressed (not the API-validity ones: the API server would reject the object). */
const SUPPRESSIBLE = new Set(RULES.filter((r) => r.suppressible).map((r) => r.id));

/** The findings of a synthesis error, by the construct id of the service they belong to. */
function findingsOf(message: string): Map<string, CarriedFinding[]> {
  const out = new Map<string, CarriedFinding[]>();
  const re = new RegExp(`^\\s*\\[${CHART_ID}/([^/\\]]+)/[^\\]]*\\] ([a-z0-9-]+): (.*)$`, 'gm');
  for (const m of message.matchAll(re)) {
    if (!SUPPRESSIBLE.has(m[2])) continue;
    const list = out.get(m[1]) ?? [];
    list.push({ ruleId: m[2], message: m[3].trim() });
    out.set(m[1], list);
  }
  return out;
}

function rebuild(s: FixedService, patches: PatchStatement[], carried: CarriedFinding[]): FixedService {
  const file = s.input.daemonSet.file ?? '-';
  const module: ServiceModule = { ...s.module, patches, props: withSuppressions(s.module.props as ObjectExpr, carried, file) };
  return { ...s, module, carried };
}

/** The containers of a pod list (`containers`, `initContainers`) of a DaemonSet, by name. */
function containersByName(ds: unknown, list: string): Map<string, Record<string, any>> {
  const pod = asObject(asObject(asObject(asObject(ds).spec).template).spec);
  return new Map(
    asArray(pod[list])
      .filter(isObject)
      .map((c) => [String(c.name), c]),
  );
}

/** A container's resources with `over`'s requests and limits laid over `under`'s. */
function overlaid(under: unknown, over: unknown): Record<string, unknown> {
  const u = asObject(under);
  const o = asObject(over);
  return {
    requests: { ...asObject(u.requests), ...asObject(o.requests) },
    limits: { ...asObject(u.limits), ...asObject(o.limits) },
  };
}

/**
 * The service with the typed `resources` prop on each container whose input states only some of its resources (a CPU
 * request alone, say): the input's values laid over what the library synthesized for the rest, instead of a patch per
 * value, so that importing the output again (which states them all) writes the same code. `undefined`: none to add.
 */
function completeResources(s: FixedService, out: unknown): FixedService | undefined {
  const props = s.module.props as ObjectExpr;
  let changed = false;
  const properties = props.properties.map((p) => {
    if ((p.key !== 'containers' && p.key !== 'initContainers') || p.value.type !== 'array') return p;
    const inputs = containersByName(s.input.daemonSet.object, p.key);
    const outputs = containersByName(out, p.key);
    const items = p.value.items.map((item) => {
      const name = item.type === 'object' ? item.properties.find((q) => q.key === 'name')?.value : undefined;
      const key = name?.type === 'literal' ? String(name.value) : '';
      const input = inputs.get(key);
      if (input === undefined || !isObject(input.resources) || Object.keys(input.resources).length === 0) return item;
      const completed = withResources(item, overlaid(outputs.get(key)?.resources, input.resources));
      if (completed === undefined) return item;
      changed = true;
      return completed;
    });
    return { ...p, value: { ...p.value, items } };
  });
  return changed ? { ...s, module: { ...s.module, props: { ...props, properties } } } : undefined;
}

/**
 * The suppressions the input states by annotation (`ignore-check.node-services.cdk8s.io/<rule>: <reason>`, as an app of
 * this library writes them), reason by rule id: they become the `suppressions` prop with that reason, not a patch of
 * the annotation.
 */
function statedSuppressions(s: FixedService): Map<string, string> {
  const annotations = asObject(asObject(asObject(s.input.daemonSet.object).metadata).annotations);
  return new Map(
    readSuppressions(annotations)
      .filter((e) => SUPPRESSIBLE.has(e.ruleId) && e.reason !== '')
      .map((e) => [e.ruleId, e.reason]),
  );
}

/**
 * The stated suppressions the output lacks and the service does not carry yet, as carried findings. (One the output
 * has, the library wrote: a derived or carried suppression, whose value a patch keeps.)
 */
function missingSuppressions(s: FixedService, out: unknown): CarriedFinding[] {
  const made = asObject(asObject(asObject(out).metadata).annotations);
  return [...statedSuppressions(s)]
    .filter(([ruleId]) => made[suppressionAnnotationKey(ruleId)] === undefined && !s.carried.some((c) => c.ruleId === ruleId))
    .map(([ruleId, reason]) => ({ ruleId, message: reason, reason }));
}

/** One round: the patches each service needs after a successful synthesis (none: the fixpoint is reached). */
function nextPatches(
  services: FixedService[],
  output: InputObject[],
  nodes?: readonly unknown[],
): { services: FixedService[]; changed: boolean } {
  const produced = new Map(output.map((o) => [identityOf(o.object), o.object]));
  let changed = false;
  const next = services.map((s) => {
    const out = produced.get(identityOf(s.input.daemonSet.object));
    if (out === undefined) return s;
    const missing = missingSuppressions(s, out);
    if (missing.length > 0) {
      changed = true;
      return rebuild(s, s.module.patches as PatchStatement[], [...s.carried, ...missing]);
    }
    const completed = completeResources(s, out);
    if (completed !== undefined) {
      changed = true;
      return completed;
    }
    const classify = daemonSetClassifier(s.input.daemonSet.object, out, nodes);
    const added = leafChanges(s.input.daemonSet.object, out).flatMap((c) => patchOf(c, s.input.daemonSet.file ?? '-', classify));
    if (added.length === 0) return s;
    changed = true;
    return rebuild(s, [...s.module.patches, ...ordered(added)], s.carried);
  });
  return { services: next, changed };
}

/** Synthesizes, patches and suppresses until every DaemonSet matches its input up to explained differences. */
export function fixpoint(
  built: readonly BuiltService[],
  others: readonly InputObject[],
  runtime: AdoptRuntime,
  nodes?: readonly unknown[],
): FixpointResult {
  let services: FixedService[] = built.map((b) => ({ ...b, carried: [] }));
  let output: InputObject[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let yaml: string;
    try {
      yaml = synthesizeApp(buildModel(services, others), runtime);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const findings = findingsOf(message);
      const known = (s: FixedService, f: CarriedFinding) => s.carried.some((c) => c.ruleId === f.ruleId);
      const fresh = services.some((s) => (findings.get(s.module.id) ?? []).some((f) => !known(s, f)));
      if (!fresh) return { services, output: [], failure: message };
      services = services.map((s) => {
        // A finding the input states a suppression for keeps the input's reason.
        const stated = statedSuppressions(s);
        const more = (findings.get(s.module.id) ?? [])
          .filter((f, i, all) => !known(s, f) && all.findIndex((g) => g.ruleId === f.ruleId) === i)
          .map((f) => (stated.has(f.ruleId) ? { ...f, reason: stated.get(f.ruleId) } : f));
        return more.length > 0 ? rebuild(s, s.module.patches as PatchStatement[], [...s.carried, ...more]) : s;
      });
      continue;
    }
    output = parseObjects(yaml, 'synthesized').map((o) => ({ object: o.object }));
    const next = nextPatches(services, output, nodes);
    if (!next.changed) return { services, output };
    services = next.services;
  }
  return { services, output, failure: `no fixpoint after ${MAX_ROUNDS} rounds of escape-hatch patches` };
}
