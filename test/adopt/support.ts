import * as fs from 'fs';
import * as path from 'path';
import * as cdk8s from 'cdk8s';
import * as constructs from 'constructs';
import * as ts from 'typescript';
import { importManifests, ImportResult } from '../../src/adopt';
import { parseObjects } from '../../src/manifests';
import * as library from '../../src/index';

/** The runtime the import evaluates the generated app with. */
export const RUNTIME = { library, cdk8s, constructs };

/** The real-world fixtures. */
export const REAL_WORLD = path.join(__dirname, '..', 'fixtures', 'real-world');

/** The objects of a fixture file, as the CLI reads them. */
export function fixtureObjects(file: string): ReturnType<typeof parseObjects> {
  return parseObjects(fs.readFileSync(file, 'utf8'), path.relative(path.join(__dirname, '..', '..'), file));
}

/** Imports a fixture file with `--check`. */
export function importFixture(file: string): Promise<ImportResult> {
  return importManifests(fixtureObjects(file), { runtime: RUNTIME, check: true });
}

/** Writes the generated files to `dir` and returns their paths. */
export function writeFiles(result: ImportResult, dir: string): string[] {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return [...result.files].map(([name, text]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  });
}

/**
 * Type-checks `files` strictly against the library, as a user's app imports it (`cdk8s-node-services` resolving to the
 * sources); returns each diagnostic of those files as `<file relative to relativeTo>: <message>`.
 */
export function strictDiagnostics(files: readonly string[], relativeTo: string): string[] {
  const root = path.join(__dirname, '..', '..');
  const program = ts.createProgram([...files], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: ['node'],
    typeRoots: [path.join(root, 'node_modules', '@types')],
    baseUrl: root,
    paths: { 'cdk8s-node-services': ['src/index.ts'] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && files.includes(path.resolve(d.file.fileName)))
    .map((d) => `${path.relative(relativeTo, d.file!.fileName)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

/** A DaemonSet `obs/agent` of one container `agent`, with `container` laid over its container and `pod` over its pod spec. */
export function agentDaemonSet(container: Record<string, unknown> = {}, pod: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'obs' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'agent', image: 'agent:1.0', ...container }], ...pod },
      },
    },
  };
}
