/**
 * Property: a valid DaemonSet (from `dist/`, the fleet's cluster folders and the real-world fixtures) with one value
 * changed to a value of the wrong JSON type, or to an integer outside its field's range, is refused by
 * `node-services lint` with a `field-type-invalid` error at that field — its path and its line — for every
 * supported Kubernetes version.
 *
 * The oracle is independent of the field data: a mutation is chosen only where it is wrong for every field type
 * that could hold the original value (a boolean, an object or a list where a scalar was; a scalar where an object
 * or list was), and integer ranges only for fields whose width the Kubernetes API reference states (listed here).
 * The expected line comes from the test's own JSON printer.
 */

import * as fc from 'fast-check';
import * as fs from 'fs';
import { loadAll } from 'js-yaml';
import * as os from 'os';
import * as path from 'path';
import { jsonPath } from '../../src/k8s/json';
import { KUBERNETES_VERSIONS } from '../../src/k8s/api-fields';
import { YAML_11_SCHEMA } from '../../src/manifests/yaml11';
import { runCli } from '../support/cli';

const ROOT = path.join(__dirname, '..', '..');

/** Integer fields of a DaemonSet whose width the API reference gives (`int32` / `int64`), by field name. */
const INT32_FIELDS = new Set([
  'containerPort',
  'hostPort',
  'minReadySeconds',
  'revisionHistoryLimit',
  'initialDelaySeconds',
  'periodSeconds',
  'timeoutSeconds',
  'failureThreshold',
  'successThreshold',
  'defaultMode',
  'mode',
  'weight',
]);
const INT64_FIELDS = new Set([
  'terminationGracePeriodSeconds',
  'activeDeadlineSeconds',
  'runAsUser',
  'runAsGroup',
  'fsGroup',
  'tolerationSeconds',
]);

/** Every DaemonSet of the sources, as the YAML 1.1 reader reads it, with the file it came from. */
function daemonSets(): Array<{ file: string; object: any }> {
  const files: string[] = [];
  const yamlIn = (dir: string) =>
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .forEach((f) => files.push(path.join(dir, f)));
  yamlIn(path.join(ROOT, 'dist'));
  for (const c of fs.readdirSync(path.join(ROOT, 'dist', 'clusters'))) yamlIn(path.join(ROOT, 'dist', 'clusters', c));
  yamlIn(path.join(ROOT, 'test', 'fixtures', 'real-world'));
  const out: Array<{ file: string; object: any }> = [];
  for (const file of files) {
    for (const doc of loadAll(fs.readFileSync(file, 'utf8'), undefined, { schema: YAML_11_SCHEMA }) as any[]) {
      if (doc && typeof doc === 'object' && doc.kind === 'DaemonSet') out.push({ file, object: doc });
    }
  }
  return out;
}

type Key = string | number;

/** Every value below the object with its keys, except `apiVersion`/`kind` (they choose the kind) and free-form parts. */
function leaves(value: unknown, keys: Key[] = [], out: Key[][] = []): Key[][] {
  if (keys.length === 1 && (keys[0] === 'status' || keys[0] === 'apiVersion' || keys[0] === 'kind')) return out;
  if (keys[keys.length - 1] === 'fieldsV1') return out;
  if (keys.length > 0) out.push(keys);
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, [...keys, i], out));
  else if (value !== null && typeof value === 'object') for (const k of Object.keys(value)) leaves((value as any)[k], [...keys, k], out);
  return out;
}

function get(object: any, keys: Key[]): any {
  return keys.reduce((o, k) => o[k], object);
}

/**
 * The wrong values for what `value` is: a scalar becomes an object or a list (no scalar field takes either) or a
 * boolean (unless it was one); an object or a list becomes a string or the other container; an integer of a field
 * of known width goes past its range, becomes a fraction or a digit string.
 */
function wrongValues(field: Key, value: unknown): unknown[] {
  if (value === null) return [];
  if (Array.isArray(value)) return [{}, 'x', 7];
  if (typeof value === 'object') return [[], 'x', true];
  const out: unknown[] = [{ a: 1 }, ['x']];
  if (typeof value !== 'boolean') out.push(false);
  else out.push('true', 1);
  if (typeof value === 'number' && typeof field === 'string') {
    if (INT32_FIELDS.has(field)) out.push(2 ** 31, -(2 ** 31) - 1, 3000000000, 1.5, String(value));
    if (INT64_FIELDS.has(field)) out.push(2 ** 64, -(2 ** 70), 2.5, String(value));
  }
  return out;
}

/** Pretty JSON of `value`, and the line (1-based) where the value at `target` is written. */
function printWithLine(value: unknown, target: string): { text: string; line: number } {
  const lines: string[] = [];
  let line = 0;
  const emit = (v: unknown, at: string, indent: string, prefix: string, comma: string): void => {
    if (at === target) line = lines.length + 1;
    const entries: Array<[Key, unknown]> = Array.isArray(v)
      ? v.map((x, i) => [i, x])
      : v !== null && typeof v === 'object'
        ? Object.entries(v)
        : [];
    if ((Array.isArray(v) || (v !== null && typeof v === 'object')) && entries.length > 0) {
      const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
      lines.push(`${indent}${prefix}${open}`);
      entries.forEach(([k, x], i) => {
        const childPrefix = typeof k === 'number' ? '' : `${JSON.stringify(k)}: `;
        emit(x, jsonPath(at, k), `${indent}  `, childPrefix, i < entries.length - 1 ? ',' : '');
      });
      lines.push(`${indent}${close}${comma}`);
    } else lines.push(`${indent}${prefix}${JSON.stringify(v)}${comma}`);
  };
  emit(value, '', '', '', '');
  return { text: `${lines.join('\n')}\n`, line };
}

interface LintFinding {
  readonly ruleId: string;
  readonly severity: string;
  readonly path: string;
  readonly line: number;
}

async function lint(file: string, version: string): Promise<LintFinding[]> {
  const run = await runCli(['lint', '-f', 'json', '--kubernetes-version', version, file]);
  return JSON.parse(run.out).findings as LintFinding[];
}

const SOURCES = daemonSets();
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'field-type-property-'));

/** Per source and version, the paths `unknown-field` reports on the unchanged object (their subtrees are not typed). */
const unknownPaths = new Map<string, string[]>();

test('the sources are DaemonSets of dist/, the cluster folders and the real-world fixtures, without type errors', async () => {
  expect(SOURCES.length).toBeGreaterThan(30);
  expect(new Set(SOURCES.map((s) => path.relative(ROOT, s.file).split(path.sep)[0])).size).toBe(2);
  for (let i = 0; i < SOURCES.length; i++) {
    const file = path.join(DIR, `source-${i}.yaml`);
    fs.writeFileSync(file, printWithLine(SOURCES[i].object, '').text);
    for (const v of KUBERNETES_VERSIONS) {
      const findings = await lint(file, v);
      expect(findings.filter((f) => f.ruleId === 'field-type-invalid')).toEqual([]);
      unknownPaths.set(
        `${i} ${v}`,
        findings.filter((f) => f.ruleId === 'unknown-field').map((f) => f.path),
      );
    }
  }
}, 60_000);

test('one value of the wrong type or range is an error at its path and line, for every supported version', async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(fc.nat(), fc.nat(), fc.nat(), async (pickSource, pickLeaf, pickValue) => {
      // GIVEN a DaemonSet with one value replaced by a value its field cannot take
      const source = pickSource % SOURCES.length;
      const object = structuredClone(SOURCES[source].object);
      const all = leaves(object);
      const keys = all[pickLeaf % all.length];
      const wrong = wrongValues(keys[keys.length - 1], get(object, keys));
      if (wrong.length === 0) return;
      get(object, keys.slice(0, -1))[keys[keys.length - 1]] = wrong[pickValue % wrong.length];
      const at = jsonPath('', ...keys);
      const { text, line } = printWithLine(object, at);
      const file = path.join(DIR, `mutated-${n++}.yaml`);
      fs.writeFileSync(file, text);
      for (const v of KUBERNETES_VERSIONS) {
        // a field the version does not have is reported as unknown, not typed
        const under = (p: string) => at === p || at.startsWith(`${p}.`) || at.startsWith(`${p}[`);
        if (unknownPaths.get(`${source} ${v}`)!.some(under)) continue;
        // WHEN linted for the version THEN exactly that value is a field-type-invalid error, on its line
        const typed = (await lint(file, v)).filter((f) => f.ruleId === 'field-type-invalid');
        expect(typed.map((f) => [f.severity, f.path, f.line])).toEqual([['error', at, line]]);
      }
    }),
    { numRuns: 100, seed: 25 },
  );
}, 60_000);
