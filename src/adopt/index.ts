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
import { AdoptRuntime, ImportRuntime, synthesizeApp } from './evaluate';
import { parseObjects } from '../manifests/read';
import { omitDefaults } from './defaults';
import { fixpoint, FixpointResult } from './fixpoint';
import { formatTypeScript } from './format';
import { describeObject, gatherObjects, StrippedField, stripServerFields } from './input';
import { printMain, printModule } from './print';
import { proposePools } from './pools';
import { lintOutput } from './lint';
import { buildReport, ImportReport } from './report';
import { describeNeed, TargetVersion, targetVersion } from './target';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSIONS, KubernetesVersion } from '../k8s/api-fields/versions';
import { bool, checkArguments, implementing, json, list, object, oneOf, opt, ParamList, req, str } from '../k8s/shape';
import { TargetDeclaration } from './print';
import { windowsProblems } from './windows';

export { AdoptRuntime } from './evaluate';
export { ImportReport, ServiceReport, formatReportJson, formatReportMarkdown } from './report';
export { DifferenceClass, ClassifiedChange } from './classify';
export { StrippedField } from './input';
export { ConstructChoice } from './choose';
export { LintResult, LintError, CarriedLintError } from './lint';
export { TargetVersion, VersionNeed } from './target';

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
  /**
   * The Kubernetes version the generated app targets (`main.ts` declares it with `NodeServiceChecks.of`, and the check
   * synthesizes and lints at it). Each field of the input that this version does not have is reported as a problem,
   * with its file, path and the version that has it; it is not dropped.
   * @default the lowest version from 1.28 to 1.33 whose API has every field and kind of the input
   */
  readonly kubernetesVersion?: KubernetesVersion;
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
  runtime: ImportRuntime,
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

/** The shape of the arguments of {@link importManifests}, checked before anything runs. */
const IMPORT_PARAMS = (): ParamList => [
  ['objects', req(list(implementing('InputObject', { object: opt(json), file: opt(str) })))],
  [
    'options',
    req(
      object('ImportOptions', {
        kind: opt(oneOf('NodeServiceKind', Object.values(NodeServiceKind))),
        runtime: req(
          implementing('AdoptRuntime', {
            library: req(
              implementing('the exports of cdk8s-node-services', {
                NodeService: req(json),
                NodeServiceChecks: req(json),
                PolicyLoggers: req(json),
              }),
            ),
            cdk8s: req(
              implementing('the exports of cdk8s', { App: req(json), Chart: req(json), ApiObject: req(json), JsonPatch: req(json) }),
            ),
            constructs: req(implementing('the exports of constructs', { Construct: req(json) })),
          }),
        ),
        check: opt(bool),
        nodes: opt(list(json)),
        kubernetesVersion: opt(oneOf('KubernetesVersion', KUBERNETES_VERSIONS)),
      }),
    ),
  ],
];

/** What `main.ts` writes for the target: nothing for the library's default, else the version and what requires it. */
function declaration(target: TargetVersion): TargetDeclaration | undefined {
  if (target.version === DEFAULT_KUBERNETES_VERSION) return undefined;
  const member = Object.entries(KubernetesVersion).find(([, v]) => v === target.version)![0];
  const needs = target.requiredBy.slice(0, 3).map(describeNeed);
  const more = target.requiredBy.length > needs.length ? ` and ${target.requiredBy.length - needs.length} more` : '';
  const comment =
    target.source === 'option'
      ? `Target Kubernetes ${target.version}, the version the import was asked to target.`
      : `Target Kubernetes ${target.version}, the lowest version that has ${needs.join('; ')}${more}.`;
  return { member, comment };
}

/** Turns `objects` into a cdk8s app of node services, for the target Kubernetes version (see {@link ImportOptions}). */
export async function importManifests(objects: readonly InputObject[], options: ImportOptions): Promise<ImportResult> {
  checkArguments('importManifests', arguments, IMPORT_PARAMS);
  const stripped: StrippedField[] = [];
  const inputs = objects.map((o) => ({ ...o, object: stripServerFields(o.object, stripped) }));
  const target = targetVersion(inputs, options.kubernetesVersion);
  const runtime: ImportRuntime = { ...options.runtime, target: target.version };
  const { services, others } = gatherObjects(inputs);
  const taken = new Set<string>();
  const nodes = options.nodes !== undefined ? { list: options.nodes, pools: proposePools(options.nodes) } : undefined;
  const built = services.map((s) => buildService(s, { kind: options.kind, runtime, nodes }, taken));
  const fixpointResult = fixpoint(built, others, runtime, options.nodes);
  const fixed = fixpointResult.failure === undefined ? withConstructs(fixpointResult, others, runtime, options.nodes) : fixpointResult;
  const model = buildModel(fixed.services, others);
  const files = new Map<string, string>();
  files.set('main.ts', await formatTypeScript(printMain(model, declaration(target))));
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
        target.version,
      )
    : undefined;
  const report = buildReport(
    fixed.services,
    others.map((o) => describeObject(o.object)),
    stripped,
    { check, lint, pools: nodes?.pools, target },
    [...inexpressible, ...(options.check ? problems : [])],
  );
  return { files, report, synthesized: fixed.output.map((o) => o.object) };
}
