/**
 * The Kubernetes version of one cluster folder of a fleet (`<outdir>/clusters/<name>/`): `Fleet.synth()` writes it
 * to a plain-text file beside the cluster's manifests, which the CLI's `--clusters` runs read, so that each cluster
 * is analysed with its own version's semantics. The file has no manifest extension: the manifest reader, Argo CD and
 * Flux do not read it as a manifest.
 */

import * as fs from 'fs';
import * as path from 'path';

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
