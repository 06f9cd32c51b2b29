/**
 * The Kubernetes version of one cluster folder of a fleet (`<outdir>/clusters/<name>/`): `Fleet.synth()` writes it
 * to a plain-text file beside the cluster's manifests, which the CLI's `--clusters` runs read, so that each cluster
 * is analysed with its own version's semantics. The file has no manifest extension: the manifest reader, Argo CD and
 * Flux do not read it as a manifest.
 */

import * as fs from 'fs';
import * as path from 'path';
import { KubernetesVersion, parseKubernetesVersion } from '../k8s/api-fields/versions';

/** The name of the file that holds a cluster folder's Kubernetes version (`1.30` and a newline). */
export const CLUSTER_VERSION_FILE = 'kubernetes-version';

/**
 * The Kubernetes version recorded in `folder` (its {@link CLUSTER_VERSION_FILE}, trimmed), or undefined when the
 * folder has none. The text is returned as written; the caller checks its grammar and names the file in errors.
 */
export function readClusterVersion(folder: string): { readonly version: string; readonly file: string } | undefined {
  const file = path.join(folder, CLUSTER_VERSION_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return { version: text.trim(), file };
}

/** The version of a cluster folder, checked with the one version grammar of `k8s/`. */
export interface ClusterVersion {
  /** The version file. */
  readonly file: string;
  /** Its text, trimmed. */
  readonly text: string;
  /** The version, when the text is a supported one. */
  readonly version?: KubernetesVersion;
  /** Its minor number, when the text is a supported version. */
  readonly minor?: number;
  /** `"<text>" <why>; <fix>`, when the text is not a supported version (prefix it with {@link ClusterVersion.file}). */
  readonly error?: string;
}

/**
 * The checked Kubernetes version of `folder` (see {@link readClusterVersion}), or undefined when it records none. Every
 * command reads a cluster folder's version through this, so that one grammar and one message apply.
 */
export function clusterVersion(folder: string): ClusterVersion | undefined {
  const recorded = readClusterVersion(folder);
  if (recorded === undefined) return undefined;
  const parsed = parseKubernetesVersion(recorded.version);
  const base = { file: recorded.file, text: recorded.version };
  if (parsed.error !== undefined) {
    return { ...base, error: `${JSON.stringify(recorded.version)} ${parsed.error}; write one of them, or remove the file` };
  }
  return { ...base, version: parsed.version, minor: parsed.minor };
}
