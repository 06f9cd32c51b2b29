import * as fs from 'fs';
import * as path from 'path';
import * as cdk8s from 'cdk8s';
import * as constructs from 'constructs';
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
