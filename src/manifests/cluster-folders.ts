/**
 * Per-cluster inputs of `coverage --clusters` and `diff --clusters`: a folder per cluster (the layout a Fleet
 * synthesizes, `<outdir>/clusters/<cluster-name>/` with that cluster's `*.k8s.yaml`), and a folder of per-cluster
 * files named after the clusters (`<cluster-name>.json`, `.yaml` or `.yml`) for `--nodes` and `--pods`.
 *
 * Every problem of the layout is found before anything is read, and reported together in one error.
 */

import * as fs from 'fs';
import * as path from 'path';
import { clusterVersion } from './cluster-version';
import { InputError, MANIFEST_EXTENSIONS, expandPaths } from './read';

/** The extensions of a per-cluster nodes or pods file, in the order they are listed in messages. */
const DATA_EXTENSIONS = ['.json', '.yaml', '.yml'];

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isFolder(p: string): boolean | undefined {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return undefined;
  }
}

function list(names: readonly string[]): string {
  return names.map((n) => JSON.stringify(n)).join(', ');
}

/**
 * The clusters under `root` (given as `flag`): its subfolders, sorted by name; hidden folders are skipped. A missing
 * or empty root, a manifest file directly in it (it belongs in a cluster's folder), and a cluster folder without
 * manifests are problems, appended to `problems`.
 */
export function clusterFolders(root: string, flag: string, problems: string[]): string[] {
  const folder = isFolder(root);
  if (folder === undefined) {
    problems.push(`${flag} ${root}: no such folder`);
    return [];
  }
  if (!folder) {
    problems.push(`${flag} ${root}: a file, not a folder; give the folder that holds one folder per cluster (e.g. dist/clusters)`);
    return [];
  }
  const entries = fs.readdirSync(root, { withFileTypes: true }).filter((e) => !e.name.startsWith('.'));
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort(byName);
  const strays = entries
    .filter((e) => !e.isDirectory() && MANIFEST_EXTENSIONS.includes(path.extname(e.name).toLowerCase()))
    .map((e) => e.name)
    .sort(byName);
  if (strays.length > 0) {
    problems.push(
      `${flag} ${root}: manifest files outside a cluster folder: ${list(strays)}; each cluster's manifests go in <cluster-name>/`,
    );
  }
  if (names.includes('clusters') && isFolder(path.join(root, 'clusters'))) {
    problems.push(
      `${flag} ${root}: it holds a clusters/ folder; give that one, ${path.join(root, 'clusters')} (the folder of the cluster folders)`,
    );
    return [];
  }
  if (names.length === 0) {
    problems.push(`${flag} ${root}: no cluster folders in it; expected one folder per cluster (<cluster-name>/ with its *.k8s.yaml)`);
    return [];
  }
  const empty = names.filter((n) => expandPaths([path.join(root, n)]).files.length === 0);
  if (empty.length > 0) {
    problems.push(
      `${flag} ${root}: cluster folder${empty.length === 1 ? '' : 's'} without manifests (${MANIFEST_EXTENSIONS.map((e) => `*${e}`).join(', ')}): ${list(empty)}`,
    );
  }
  return names;
}

/**
 * The per-cluster files of `dir` (given as `flag`), by cluster: `<cluster>.json`, `.yaml` or `.yml`. A missing folder,
 * a cluster without a file (unless it is `optional`), a file without a cluster and two files for one cluster are
 * problems, appended to `problems`.
 */
export function clusterFiles(
  dir: string,
  flag: string,
  clusters: readonly string[],
  problems: string[],
  optional: ReadonlySet<string> = new Set(),
): Map<string, string> {
  const out = new Map<string, string>();
  const folder = isFolder(dir);
  if (folder === undefined) {
    problems.push(`${flag} ${dir}: no such folder`);
    return out;
  }
  if (!folder) {
    problems.push(
      `${flag} ${dir}: a file, but with --clusters ${flag} is a folder with one file per cluster (<cluster-name>.json, .yaml or .yml)`,
    );
    return out;
  }
  const byCluster = new Map<string, string[]>();
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const ext = path.extname(e.name).toLowerCase();
    if (e.name.startsWith('.') || e.isDirectory() || !DATA_EXTENSIONS.includes(ext)) continue;
    const cluster = e.name.slice(0, e.name.length - ext.length);
    let files = byCluster.get(cluster);
    if (files === undefined) byCluster.set(cluster, (files = []));
    files.push(e.name);
  }
  const known = new Set(clusters);
  const missing = clusters.filter((c) => !byCluster.has(c) && !optional.has(c));
  const orphans = [...byCluster.keys()].filter((c) => !known.has(c)).sort(byName);
  const doubles = [...byCluster.entries()].filter(([c, files]) => known.has(c) && files.length > 1).sort((a, b) => byName(a[0], b[0]));
  if (missing.length > 0) {
    problems.push(
      `${flag} ${dir}: no file for cluster${missing.length === 1 ? '' : 's'} ${list(missing)} (expected ${missing
        .map((c) => `${c}.json`)
        .join(', ')}, or .yaml / .yml)`,
    );
  }
  if (orphans.length > 0) {
    problems.push(
      `${flag} ${dir}: ${orphans.length === 1 ? 'a file' : 'files'} without a cluster folder: ${list(orphans.map((c) => byCluster.get(c)!.sort(byName)).flat())} (clusters: ${list(clusters)})`,
    );
  }
  for (const [cluster, files] of doubles) {
    problems.push(`${flag} ${dir}: more than one file for cluster ${JSON.stringify(cluster)}: ${list(files.sort(byName))}; keep one`);
  }
  for (const [cluster, files] of byCluster) if (known.has(cluster) && files.length === 1) out.set(cluster, path.join(dir, files[0]));
  return out;
}

/** Throws one {@link InputError} listing every problem, when there are any. */
export function throwProblems(problems: readonly string[]): void {
  if (problems.length === 0) return;
  if (problems.length === 1) throw new InputError(problems[0]);
  throw new InputError(`${problems.length} problems with the per-cluster inputs:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}

/**
 * With `--clusters` every input is a folder: each of `inputs` (its name as the user gives it, and its value) that is
 * `-` is a problem, appended to `problems`; `expected` says what the input is instead.
 */
export function stdinProblems(inputs: ReadonlyArray<readonly [string, string | undefined]>, expected: string, problems: string[]): void {
  for (const [name, value] of inputs) {
    if (value === '-') problems.push(`${name} -: with --clusters, ${name} is ${expected}, not standard input`);
  }
}

/**
 * The per-cluster nodes file of each cluster (`--nodes`, unless there are no clusters or it is `-`) and, when `pods`
 * is given, its pods file (`--pods`); the problems of both folders are appended to `problems`.
 */
export function clusterDataFiles(
  nodes: string,
  pods: string | undefined,
  clusters: readonly string[],
  problems: string[],
): { nodes: Map<string, string>; pods?: Map<string, string> } {
  return {
    nodes: clusters.length > 0 && nodes !== '-' ? clusterFiles(nodes, '--nodes', clusters, problems) : new Map(),
    pods: clusters.length > 0 && pods !== undefined && pods !== '-' ? clusterFiles(pods, '--pods', clusters, problems) : undefined,
  };
}

/** One cluster of a fleet's folder: its manifests folder, nodes file, pods file and the Kubernetes version it records. */
export interface ClusterInput {
  readonly name: string;
  readonly folder: string;
  readonly nodes: string;
  readonly pods?: string;
  readonly version?: { readonly text: string; readonly minor: number };
}

/**
 * The clusters under `root` (given as `flag`) with their folder, their files of the `nodes` and `pods` folders, and the
 * Kubernetes version each folder records; the problems of the layout are appended to `problems`.
 */
export function clusterInputs(root: string, flag: string, nodes: string, pods: string | undefined, problems: string[]): ClusterInput[] {
  const clusters = clusterFolders(root, flag, problems);
  const files = clusterDataFiles(nodes, pods, clusters, problems);
  // The Kubernetes version a Fleet records in each cluster folder.
  const versions = new Map<string, { text: string; minor: number }>();
  for (const name of clusters) {
    const recorded = clusterVersion(path.join(root, name));
    if (recorded === undefined) continue;
    if (recorded.error !== undefined) problems.push(`${recorded.file}: ${recorded.error}`);
    else versions.set(name, { text: recorded.text, minor: recorded.minor! });
  }
  return clusters.map((name) => ({
    name,
    folder: path.join(root, name),
    nodes: files.nodes.get(name)!,
    pods: files.pods?.get(name),
    version: versions.get(name),
  }));
}

/** What an input of `diff --clusters` and `plan --clusters` is (in {@link stdinProblems}). */
export const FOLDER_OF_CLUSTERS = 'a folder of cluster folders (or files per cluster)';
