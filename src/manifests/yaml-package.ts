/**
 * The `yaml` package, loaded on first use: the streaming reader needs it for YAML node and pod lists only, so reading
 * a JSON list (`kubectl get nodes -o json`) and the `lint` command never load it.
 */

import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

/** The `yaml` package (required on the first call). */
export function yamlPackage(): typeof Yaml {
  return (loaded ??= require('yaml') as typeof Yaml);
}
