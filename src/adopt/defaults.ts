/**
 * Props equal to what the construct would default to are left out of the generated code: each prop is tried away and
 * the service synthesized again; when the objects come out the same, the prop said nothing the default does not, so a
 * second import of the synthesized output writes the same code. The comparison is against the synthesized default,
 * never a copied constant. Props that record a human decision (`// REVIEW:`) are kept, as are the ones that name the
 * service and its containers.
 */

import { parseObjects } from '../manifests/read';
import { jsonEqual } from '../day2/objects';
import { buildModel } from './build';
import { AdoptRuntime, synthesizeApp } from './evaluate';
import { FixedService } from './fixpoint';
import { call, Expr, obj, ObjectExpr, Property } from './model';

/**
 * Props never tried away: they name things, or the construct requires them, or (a pool's `taints`) they state what
 * the coverage check at synth holds the service to although the output is the same without them.
 */
const KEPT = new Set(['name', 'image', 'containers', 'taints']);

/** The objects one service synthesizes alone, or `undefined` when it does not synthesize. */
function synthesizeAlone(service: FixedService, runtime: AdoptRuntime): unknown[] | undefined {
  try {
    return parseObjects(synthesizeApp(buildModel([service], []), runtime), 'synthesized').map((o) => o.object);
  } catch {
    return undefined;
  }
}

/** The names of the constants `expr` uses. */
function constantsOf(expr: Expr, out = new Set<string>()): Set<string> {
  if (expr.type === 'constant') out.add(expr.name);
  else if (expr.type === 'call') expr.args.forEach((a) => constantsOf(a, out));
  else if (expr.type === 'array') expr.items.forEach((i) => constantsOf(i, out));
  else if (expr.type === 'object') expr.properties.forEach((p) => constantsOf(p.value, out));
  return out;
}

/** The service with `props`, declaring only the constants they use. */
function withProps(service: FixedService, props: ObjectExpr): FixedService {
  const used = constantsOf(props);
  const constants = service.module.constants.filter((c) => used.has(c.name));
  return { ...service, module: { ...service.module, props, constants } };
}

function removable(p: Property): boolean {
  return !KEPT.has(p.key) && !(p.comment ?? '').startsWith('REVIEW');
}

/** Every property of every object literal in `expr` (factory options included), outermost first. */
function propertiesOf(expr: Expr, out: Property[] = []): Property[] {
  if (expr.type === 'object')
    for (const p of expr.properties) {
      out.push(p);
      propertiesOf(p.value, out);
    }
  else if (expr.type === 'array') expr.items.forEach((i) => propertiesOf(i, out));
  else if (expr.type === 'call') expr.args.forEach((a) => propertiesOf(a, out));
  return out;
}

/** `expr` without the properties in `removed` (a factory's trailing options left empty are dropped, as `call` does). */
function without(expr: Expr, removed: ReadonlySet<Property>): Expr {
  if (expr.type === 'object')
    return obj(expr.properties.filter((p) => !removed.has(p)).map((p) => ({ ...p, value: without(p.value, removed) })));
  if (expr.type === 'array') return { ...expr, items: expr.items.map((i) => without(i, removed)) };
  if (expr.type === 'call') return call(expr.owner, expr.method, ...expr.args.map((a) => without(a, removed)));
  return expr;
}

/** The service with every prop (container props and factory options included) that the construct defaults to the same objects left out. */
function omitServiceDefaults(service: FixedService, runtime: AdoptRuntime): FixedService {
  const baseline = synthesizeAlone(service, runtime);
  if (baseline === undefined) return service;
  const props = service.module.props as ObjectExpr;
  const removed = new Set<Property>();
  for (const p of propertiesOf(props)) {
    if (!removable(p)) continue;
    removed.add(p);
    const out = synthesizeAlone(withProps(service, without(props, removed) as ObjectExpr), runtime);
    if (out === undefined || !jsonEqual(out, baseline)) removed.delete(p);
  }
  return withProps(service, without(props, removed) as ObjectExpr);
}

/** Every service with the props its construct defaults to left out (the synthesized objects stay the same). */
export function omitDefaults(services: readonly FixedService[], runtime: AdoptRuntime): FixedService[] {
  return services.map((s) => omitServiceDefaults(s, runtime));
}
