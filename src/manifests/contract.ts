/**
 * The input contract of manifests: what `lint`, `coverage`, `diff`, `plan` and the validation plugin accept as the
 * manifests to check, and what they refuse (exit 2, one message naming the input, what was expected and the fix).
 * The catalogue of input classes is `docs/input-contract.md`; node and pod lists are `node-input.ts`.
 *
 * Every command refuses what `readManifests` reports (unreadable, binary, malformed, templated, a `kubectl get`
 * table, not objects, an empty named file) and Node objects. The commands that read one cluster (`coverage`, `diff`,
 * `plan`) also refuse a fleet's folder (cluster folders inside), the same object twice, and a DaemonSet without a pod
 * template. A gate (`--fail-on-*`, lint's exit code) over zero nodes or zero DaemonSets is refused as nothing to
 * check; without a gate an empty list is a valid, empty answer.
 */

import * as fs from 'fs';
import * as path from 'path';
import { CLUSTER_VERSION_FILE } from './cluster-version';
import { describeProblem, ReadProblem, ReadProblemKind } from './documents';
import { wrongTypeFields } from '../k8s/api-fields';
import { fieldPosition, InputError, readManifests, SourcedObject } from './read';

function at(o: SourcedObject): { file: string; line?: number } {
  return { file: o.file, line: o.line };
}

function identity(object: any): string | undefined {
  const kind = object?.kind;
  const name = object?.metadata?.name;
  if (typeof kind !== 'string' || typeof name !== 'string') return undefined;
  const namespace = typeof object?.metadata?.namespace === 'string' ? object.metadata.namespace : '';
  return `${kind} ${namespace ? `${namespace}/` : ''}${name}`;
}

function where(p: { file: string; line?: number }): string {
  const file = p.file === '-' ? '<stdin>' : p.file;
  return p.line !== undefined ? `${file}:${p.line}` : file;
}

/** Node objects among manifests: a node list given where manifests go. */
export function nodeObjectProblems(objects: readonly SourcedObject[], nodesFlag: string | undefined): ReadProblem[] {
  const nodes = objects.filter((o) => o.object?.kind === 'Node');
  return nodes.length === 0 ? [] : [nodeObjectsProblem(nodes.length, nodes[0], nodesFlag)];
}

/** The problem of `count` Node objects among manifests, the first at `first`. */
export function nodeObjectsProblem(count: number, first: { file: string; line?: number }, nodesFlag: string | undefined): ReadProblem {
  const fix = nodesFlag !== undefined ? `give the nodes as ${nodesFlag}` : 'the nodes of a cluster are the --nodes of coverage and plan';
  return {
    kind: ReadProblemKind.WRONG_KIND,
    file: first.file,
    line: first.line,
    message: `${count} Node object${count === 1 ? '' : 's'} (a node list?), not manifests; expected the manifests (DaemonSets and the objects beside them); ${fix}`,
  };
}

/** DaemonSets without a pod template with containers: not something the API server takes. */
function podTemplateProblems(objects: readonly SourcedObject[]): ReadProblem[] {
  const out: ReadProblem[] = [];
  for (const o of objects) {
    if (o.object?.kind !== 'DaemonSet') continue;
    const spec = o.object?.spec?.template?.spec;
    if (spec == null || typeof spec !== 'object' || !Array.isArray(spec.containers)) {
      out.push({
        kind: ReadProblemKind.NO_POD_TEMPLATE,
        ...at(o),
        message:
          `DaemonSet ${JSON.stringify(o.object?.metadata?.name ?? '')} has no spec.template.spec.containers; ` +
          'a DaemonSet needs a pod template with at least one container',
      });
    }
  }
  return out;
}

/**
 * Values the API server cannot decode into their field's type (`hostNetwork: "true"`, `containerPort: "80"`), at the
 * field's line: the object would be refused by the cluster, so no verdict is given on it.
 */
function wrongTypeProblems(objects: readonly SourcedObject[]): ReadProblem[] {
  const out: ReadProblem[] = [];
  for (const o of objects) {
    for (const w of wrongTypeFields(o.object)) {
      const position = fieldPosition(o, w.path);
      out.push({
        kind: ReadProblemKind.WRONG_TYPE,
        file: o.file,
        line: position?.line ?? o.line,
        column: position?.column,
        message:
          `${identity(o.object) ?? 'object'}: field ${w.path} ${w.problem}; the API server cannot decode it, so no verdict ` +
          'is given on the object (node-services lint lists every such field as field-type-invalid)',
      });
    }
  }
  return out;
}

/** The same object (kind, namespace, name) more than once: not one cluster's manifests. */
function duplicateProblems(objects: readonly SourcedObject[]): ReadProblem[] {
  const seen = new Map<string, SourcedObject>();
  const out: ReadProblem[] = [];
  for (const o of objects) {
    const key = identity(o.object);
    if (key === undefined) continue;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, o);
      continue;
    }
    out.push({
      kind: ReadProblemKind.DUPLICATE,
      ...at(o),
      message: `${key} again (first at ${where(at(first))}); expected one cluster's manifests, each object once: give one cluster per run`,
    });
  }
  return out;
}

/** The cluster folders below `folder` (folders that record a cluster's version, as a Fleet writes them), by path. */
function clusterFoldersBelow(folder: string, depth = 0): string[] {
  if (depth > 4) return [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (!e.isDirectory() || e.name.startsWith('.') || e.name === 'node_modules') continue;
    const sub = path.join(folder, e.name);
    if (fs.existsSync(path.join(sub, CLUSTER_VERSION_FILE))) out.push(sub);
    else for (const f of clusterFoldersBelow(sub, depth + 1)) out.push(f);
  }
  return out;
}

/**
 * A fleet's folder given where one cluster's manifests go: `input` is a folder that holds cluster folders (a folder
 * with a {@link CLUSTER_VERSION_FILE}, as `Fleet.synth()` writes `<outdir>/clusters/<name>/`). `clustersCommand`
 * gives the command line that reads them cluster by cluster, from the folder of the cluster folders.
 */
function fleetFolderProblem(input: string, clustersCommand: OneClusterInput['clustersCommand']): ReadProblem | undefined {
  if (input === '-') return undefined;
  let isFolder = false;
  try {
    isFolder = fs.statSync(input).isDirectory();
  } catch {
    return undefined;
  }
  if (!isFolder || fs.existsSync(path.join(input, CLUSTER_VERSION_FILE))) return undefined;
  const clusters = clusterFoldersBelow(input);
  if (clusters.length === 0) return undefined;
  const roots = [...new Set(clusters.map((c) => path.dirname(c)))];
  const names = clusters.map((c) => path.basename(c));
  const root = roots[0];
  return {
    kind: ReadProblemKind.FLEET_FOLDER,
    file: input,
    message:
      `a fleet's folder: it holds ${clusters.length} cluster folder${clusters.length === 1 ? '' : 's'} ` +
      `(${names.join(', ')} in ${roots.join(', ')}), which would be read as one cluster; expected one cluster's manifests; ` +
      `read the clusters one by one with ${clustersCommand(root, input)}, or give one cluster's folder (e.g. ${clusters[0]})`,
  };
}

/** One {@link InputError} for the problems (one line, or a count and a line each). */
export function inputErrorOf(problems: readonly ReadProblem[]): InputError {
  const lines = problems.map(describeProblem);
  if (lines.length === 1) return new InputError(lines[0]);
  const shown = lines.slice(0, 20);
  const more = lines.length > shown.length ? `\n  … and ${lines.length - shown.length} more` : '';
  return new InputError(`${lines.length} problems with the input:\n${shown.map((l) => `  - ${l}`).join('\n')}${more}`);
}

/** How a command that reads one cluster's manifests names them. */
export interface OneClusterInput {
  /** The flag or argument the inputs were given as (`<old>`, `--old`), for messages; @default none */
  readonly flag?: string;
  /** The flag that takes the nodes, named when Node objects are given as manifests. @default none */
  readonly nodesFlag?: string;
  /** The command line that reads a fleet's cluster folders one by one, from the folder that holds them (in `input`). */
  readonly clustersCommand: (clustersRoot: string, input: string) => string;
  /**
   * Whether values of the wrong JSON type (see {@link wrongTypeProblems}) are refused too: by the commands that give
   * a verdict on the objects (`coverage`, `plan`). @default false
   */
  readonly refuseWrongTypes?: boolean;
}

/**
 * Reads one cluster's manifests (`coverage`, `diff`, `plan`) from files, folders or `-`, under the contract of this
 * file; throws one {@link InputError} listing every problem.
 */
export async function readOneCluster(
  inputs: readonly string[],
  readStdin: () => Promise<string>,
  options: OneClusterInput,
): Promise<SourcedObject[]> {
  const fleet = inputs.map((i) => fleetFolderProblem(i, options.clustersCommand)).filter((p): p is ReadProblem => p !== undefined);
  const prefix = (p: ReadProblem): ReadProblem =>
    options.flag !== undefined && p.file !== '' ? { ...p, message: `${p.message} (${options.flag})` } : p;
  if (fleet.length > 0) throw inputErrorOf(fleet.map(prefix));
  const { objects, problems } = await readManifests(inputs, readStdin);
  const all = [
    ...problems,
    ...nodeObjectProblems(objects, options.nodesFlag),
    ...duplicateProblems(objects),
    ...podTemplateProblems(objects),
    ...(options.refuseWrongTypes === true ? wrongTypeProblems(objects) : []),
  ];
  if (all.length > 0) throw inputErrorOf(all.map(prefix));
  return objects;
}

/**
 * The error of a gate over nothing: `what` (e.g. `no DaemonSet in the manifests`) with the gate that gives no verdict
 * over it.
 */
export function nothingToCheck(what: string, gate: string): InputError {
  return new InputError(`nothing to check: ${what}; ${gate} gives no verdict over nothing (check the inputs, or drop ${gate})`);
}

/** `3 ConfigMap, 1 Namespace`: the kinds of objects read, for a message that says what was found instead. */
export function kindsOf(objects: readonly unknown[]): string {
  const tally = new KindTally();
  for (const o of objects) tally.add(o);
  return tally.toString();
}

/** The kinds of objects read, counted as they are read, for {@link kindsOf}'s message. */
export class KindTally {
  private readonly counts = new Map<string, number>();

  /** Counts one object. */
  public add(o: unknown): void {
    const kind = typeof (o as any)?.kind === 'string' ? (o as any).kind : 'object without kind';
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  /** `3 ConfigMap, 1 Namespace`, or `no objects`. */
  public toString(): string {
    return this.counts.size === 0 ? 'no objects' : [...this.counts].map(([k, n]) => `${n} ${k}`).join(', ');
  }
}
