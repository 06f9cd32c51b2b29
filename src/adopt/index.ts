/**
 * Adopting what teams already run: vendor DaemonSets (and the objects that belong to them) in, a typed cdk8s app that
 * builds them with this library's constructs out, with a report of what was chosen, carried and changed. Pure: the
 * library's exports are passed in as the runtime (see {@link AdoptRuntime}), so this module imports no cdk8s.
 */

import { InputObject } from '../day2/objects';
import { NodeServiceKind } from '../policy/kinds';
import { buildModel, buildService } from './build';
import { checkImport } from './check';
import { chooseConstructs } from './choose';
import { AdoptRuntime, synthesizeApp } from './evaluate';
import { parseObjects } from '../manifests/read';
import { omitDefaults } from './defaults';
import { fixpoint, FixpointResult } from './fixpoint';
import { formatTypeScript } from './format';
import { describeObject, gatherObjects, StrippedField, stripServerFields } from './input';
import { printMain, printModule } from './print';
import { proposePools } from './pools';
import { lintOutput } from './lint';
import { buildReport, ImportReport } from './report';
import { windowsProblems } from './windows';

export { AdoptRuntime } from './evaluate';
export { ImportReport, ServiceReport, formatReportJson, formatReportMarkdown } from './report';
export { DifferenceClass, ClassifiedChange } from './classify';
export { StrippedField } from './input';
export { ConstructChoice } from './choose';
export { LintResult, LintError, CarriedLintError } from './lint';

/** Options of {@link importManifests}. */
export interface ImportOptions {
  /** The kind of DaemonSets without a kind annotation (else inferred from their shape). */
  readonly kind?: NodeServiceKind;
  /** The library's exports (needed to carry unexpressed fields and to check). */
  readonly runtime: AdoptRuntime;
  /** Compare the synthesized app with the input and classify every difference. */
  readonly check?: boolean;
  /**
   * The cluster's Node objects (`kubectl get nodes -o json`): pools are proposed from their labels and taints, and a
   * DaemonSet's node selection is expressed as pools where that covers exactly the same nodes.
   * @default none: selectors and tolerations are kept as they are
   */
  readonly nodes?: readonly unknown[];
}

/** The generated app and its report. */
export interface ImportResult {
  /** File name (inside the output folder) to content: `main.ts` and one module per node service. */
  readonly files: Map<string, string>;
  /** The report. */
  readonly report: ImportReport;
  /** The objects the generated app synthesizes (empty when it does not synthesize). */
  readonly synthesized: unknown[];
}

/** The report file written next to the code. */
export const REPORT_FILE = 'IMPORT-REPORT.md';

/**
 * The services of a successful fixpoint with the construct chosen for each (a preset where it builds the input as
 * cleanly) and the props their construct defaults to left out; the app synthesized again when a preset was chosen.
 */
function withConstructs(
  result: FixpointResult,
  others: readonly InputObject[],
  runtime: AdoptRuntime,
  nodes?: readonly unknown[],
): FixpointResult {
  const services = omitDefaults(chooseConstructs(result.services, runtime, nodes), runtime);
  if (services.every((s) => s.module.construct === 'NodeService')) return { ...result, services };
  try {
    const output = parseObjects(synthesizeApp(buildModel(services, others), runtime), 'synthesized').map((o) => ({ object: o.object }));
    return { services, output };
  } catch (e) {
    return { services, output: [], failure: e instanceof Error ? e.message : String(e) };
  }
}

/** Turns `objects` into a cdk8s app of node services. */
export async function importManifests(objects: readonly InputObject[], options: ImportOptions): Promise<ImportResult> {
  const stripped: StrippedField[] = [];
  const inputs = objects.map((o) => ({ ...o, object: stripServerFields(o.object, stripped) }));
  const { services, others } = gatherObjects(inputs);
  const taken = new Set<string>();
  const nodes = options.nodes !== undefined ? { list: options.nodes, pools: proposePools(options.nodes) } : undefined;
  const built = services.map((s) => buildService(s, { kind: options.kind, runtime: options.runtime, nodes }, taken));
  const fixpointResult = fixpoint(built, others, options.runtime, options.nodes);
  const fixed =
    fixpointResult.failure === undefined ? withConstructs(fixpointResult, others, options.runtime, options.nodes) : fixpointResult;
  const model = buildModel(fixed.services, others);
  const files = new Map<string, string>();
  files.set('main.ts', await formatTypeScript(printMain(model)));
  for (const m of model.services) files.set(m.fileName, await formatTypeScript(printModule(m)));
  const problems = fixed.failure !== undefined ? [`the generated app does not synthesize: ${fixed.failure}`] : [];
  // What the library cannot express is said with or without --check.
  const inexpressible = windowsProblems(services.map((s) => s.daemonSet));
  const checked = options.check && fixed.failure === undefined;
  const check = checked ? checkImport(inputs, fixed.output, options.nodes) : undefined;
  const lint = checked
    ? lintOutput(
        inputs.map((o) => o.object),
        fixed.output.map((o) => o.object),
      )
    : undefined;
  const report = buildReport(
    fixed.services,
    others.map((o) => describeObject(o.object)),
    stripped,
    { check, lint, pools: nodes?.pools },
    [...inexpressible, ...(options.check ? problems : [])],
  );
  return { files, report, synthesized: fixed.output.map((o) => o.object) };
}
