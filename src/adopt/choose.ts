/**
 * The construct of each imported DaemonSet: the preset of its kind when the preset builds the input as cleanly as
 * `NodeService` does — it synthesizes, the check finds nothing unexplained, and it needs no escape-hatch patch, no
 * suppression, no object and no access that the `NodeService` form does not — else `NodeService`, with the reason
 * (the first thing the preset would change). Pure given the runtime.
 */

import { parseObjects } from '../manifests/read';
import { InputObject } from '../day2/objects';
import { buildModel } from './build';
import { checkImport, daemonSetClassifier } from './check';
import { DifferenceClass } from './classify';
import { expandChange, leafChanges } from './walk';
import { AdoptRuntime, synthesizeApp } from './evaluate';
import { fixpoint, FixedService } from './fixpoint';
import { identityOf } from './input';
import { Constants } from './map';
import { ObjectExpr, PatchStatement } from './model';
import { presetMismatch, presetOf, presetProps, presetShape } from './preset';

/** Which construct builds a service, and why. */
export interface ConstructChoice {
  /** `NodeService` or a preset's name. */
  readonly construct: string;
  /** Why, in a sentence. */
  readonly reason: string;
}

const patchKey = (p: PatchStatement) => `${p.op} ${p.path} ${JSON.stringify(p.value)}`;

/** The objects a service synthesizes alone (its DaemonSet and the objects kept with it). */
function outputOf(service: FixedService, runtime: AdoptRuntime): InputObject[] {
  return parseObjects(synthesizeApp(buildModel([service], []), runtime), 'synthesized').map((o) => ({ object: o.object }));
}

/** Up to three items and how many more. */
function few(items: readonly string[]): string {
  const shown = items.slice(0, 3).join(', ');
  return items.length > 3 ? `${shown} and ${items.length - 3} more` : shown;
}

/** How the preset form compares with the NodeService form: `undefined` when as clean, else what it would change. */
function compare(
  preset: FixedService,
  presetOutput: InputObject[],
  service: FixedService,
  serviceOutput: InputObject[],
  inputs: InputObject[],
  nodes?: readonly unknown[],
): string | undefined {
  const known = new Set(service.module.patches.map(patchKey));
  const extra = preset.module.patches.filter((p) => !known.has(patchKey(p)));
  if (extra.length > 0) return `would change ${few([...new Set(extra.map(patchedPath))])}`;
  const carried = preset.carried.filter((c) => !service.carried.some((s) => s.ruleId === c.ruleId));
  if (carried.length > 0) return `would need the findings ${few(carried.map((c) => c.ruleId))} suppressed`;
  const ids = (objects: InputObject[]) => objects.map((o) => identityOf(o.object)).sort();
  const more = ids(presetOutput).filter((i) => !ids(serviceOutput).includes(i));
  if (more.length > 0) return `would add ${few(more)}`;
  const a = checkImport(inputs, presetOutput, nodes);
  const b = checkImport(inputs, serviceOutput, nodes);
  if (a.unexplained > 0) return `leaves ${a.unexplained} difference(s) unexplained`;
  const access = (r: typeof a) => JSON.stringify(r.daemonSets.map((d) => [d.accessAdded, d.accessRemoved]));
  if (access(a) !== access(b)) return 'would grant or take away other access than NodeService';
  return undefined;
}

/** The report path a patch carries (its comment starts with it). */
const patchedPath = (p: PatchStatement) => p.comment.split(': ')[0];

/**
 * The fields the preset form, synthesized without escape-hatch patches, leaves unexplained that the NodeService form
 * does not carry by a patch either: what the preset would change. None when the preset form does not synthesize
 * without suppressions (the fixpoint then decides).
 */
function changedByPreset(preset: FixedService, service: FixedService, runtime: AdoptRuntime, nodes?: readonly unknown[]): string[] {
  let output: InputObject[];
  try {
    output = outputOf(preset, runtime);
  } catch {
    return [];
  }
  const input = service.input.daemonSet.object;
  const produced = output.find((o) => identityOf(o.object) === identityOf(input));
  if (produced === undefined) return [];
  const carried = service.module.patches.map(patchedPath);
  const covered = (path: string) => carried.some((c) => path === c || path.startsWith(`${c}.`) || path.startsWith(`${c}[`));
  const open = leafChanges(input, produced.object)
    .flatMap(expandChange)
    .map(daemonSetClassifier(input, produced.object, nodes))
    .filter((c) => c.class === DifferenceClass.UNEXPLAINED && !covered(c.path));
  return [...new Set(open.map((c) => c.path))];
}

/** The service built with its kind's preset, or why it is not. */
function tryPreset(service: FixedService, runtime: AdoptRuntime, nodes?: readonly unknown[]): FixedService | string {
  const preset = presetOf(service.choice.kind);
  if (preset === undefined) return `the library has no preset for the kind ${service.choice.kind}`;
  const shape = presetShape(preset, runtime);
  const ds = service.input.daemonSet.object;
  const mismatch = presetMismatch(preset, shape, ds);
  if (mismatch !== undefined) return mismatch;
  const numbers = new Constants();
  numbers.declared.push(...service.module.constants);
  const file = service.input.daemonSet.file ?? '-';
  const props = presetProps(preset, shape, service.module.props as ObjectExpr, file, (n, v) => numbers.number(n, v));
  if (typeof props === 'string') return props;
  const module = { ...service.module, construct: preset.construct, props, patches: [], constants: numbers.declared };
  const start: FixedService = { ...service, module, carried: [] };
  const changed = changedByPreset(start, service, runtime, nodes);
  if (changed.length > 0) return `${preset.construct} would change ${few(changed)}`;
  const fixed = fixpoint([start], [], runtime, nodes);
  if (fixed.failure !== undefined) {
    const lines = fixed.failure.split('\n').map((l) => l.trim());
    return `${preset.construct} does not build it (${lines.find((l) => l.startsWith('[')) ?? lines.find((l) => l !== '')})`;
  }
  const inputs = [service.input.daemonSet, ...service.input.belonging];
  const presetForm = fixed.services[0];
  const why = compare(presetForm, fixed.output, service, outputOf(service, runtime), inputs, nodes);
  return why === undefined ? presetForm : `${preset.construct} ${why}`;
}

/** Each service with the construct chosen for it (a preset, or NodeService) and why. */
export function chooseConstructs(services: readonly FixedService[], runtime: AdoptRuntime, nodes?: readonly unknown[]): FixedService[] {
  return services.map((s) => {
    const refused = s.choice.refused;
    const tried =
      refused !== undefined ? `the ${refused} allowlists refuse its ${few(s.choice.refusedAccess ?? [])}` : tryPreset(s, runtime, nodes);
    const construct: ConstructChoice =
      typeof tried === 'string'
        ? { construct: 'NodeService', reason: tried }
        : {
            construct: tried.module.construct,
            reason: `it builds the input as cleanly as NodeService (no other escape-hatch value, suppression, object or access)`,
          };
    const chosen = typeof tried === 'string' ? s : tried;
    const doc = [
      ...chosen.module.doc.map((l) => l.replace(/^Built with NodeService /, `Built with ${construct.construct} `)),
      `Chose ${construct.construct}: ${construct.reason}.`,
    ];
    return { ...chosen, construct, module: { ...chosen.module, doc } };
  });
}
