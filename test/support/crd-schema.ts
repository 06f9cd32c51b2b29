/**
 * Validation of Argo CD and Flux custom resources against the CRD schemas that `@kubernetes-models/argo-cd` and
 * `@kubernetes-models/flux-cd` publish, loaded as ES modules (the form those packages put first) in one child Node.js
 * process per call.
 */

import { spawnSync } from 'child_process';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

/** The kinds validated here: apiVersion, kind, the module exporting the model. */
const MODELS: ReadonlyArray<readonly [string, string, string]> = [
  ['argoproj.io/v1alpha1', 'ApplicationSet', '@kubernetes-models/argo-cd/argoproj.io/v1alpha1/ApplicationSet'],
  ['argoproj.io/v1alpha1', 'Application', '@kubernetes-models/argo-cd/argoproj.io/v1alpha1/Application'],
  ['kustomize.toolkit.fluxcd.io/v1', 'Kustomization', '@kubernetes-models/flux-cd/kustomize.toolkit.fluxcd.io/v1/Kustomization'],
  ['source.toolkit.fluxcd.io/v1', 'GitRepository', '@kubernetes-models/flux-cd/source.toolkit.fluxcd.io/v1/GitRepository'],
];

/** The apiVersion and kind of every CRD validated here. */
export const CRD_KINDS: ReadonlyArray<readonly [string, string]> = MODELS.map(([a, k]) => [a, k] as const);

const SCRIPT = `
const models = ${JSON.stringify(MODELS)};
let input = '';
for await (const chunk of process.stdin) input += chunk;
const errors = [];
for (const object of JSON.parse(input)) {
  const entry = models.find(([a, k]) => a === object.apiVersion && k === object.kind);
  const id = object.kind + ' ' + (object.metadata?.name ?? '');
  if (!entry) { errors.push(id + ': no CRD schema for ' + object.apiVersion); continue; }
  const Model = (await import(entry[2]))[entry[1]];
  try { new Model(object).validate(); } catch (e) { errors.push(id + ' is not valid for its CRD schema: ' + e.message); }
}
process.stdout.write(JSON.stringify(errors));
`;

/** One message per object that its CRD schema rejects (none when all are valid). */
export function crdSchemaErrors(objects: readonly unknown[]): string[] {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    cwd: ROOT,
    input: JSON.stringify(objects),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`CRD schema validation did not run: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}
