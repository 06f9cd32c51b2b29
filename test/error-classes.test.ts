/**
 * One error type: every error class of the library and the CLI extends `NodeServicesError`, so a caller catches them
 * all with one `instanceof`, and each has a stable `code` of its own.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { InputError, NodeServiceError, NodeServicesError, NodeServicesErrorCode, PolicyConfigError } from '../src';
import { NodeStreamError } from '../src/manifests/node-stream';
import { ApiValidatorMissingError } from '../src/coverage/validity';

const ROOT = path.join(__dirname, '..');
const SRC = path.join(ROOT, 'src');
const BASE = 'NodeServicesError';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Every `class X extends Y` of `files`: X → Y. */
function superclasses(files: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of files) {
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node): void => {
      if (ts.isClassLike(n) && n.name) {
        const ext = n.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
        if (ext) out.set(n.name.text, ext.expression.getText(sf));
      }
      n.forEachChild(visit);
    };
    visit(sf);
  }
  return out;
}

/** The error classes (those whose chain reaches a built-in `…Error`) that do not extend the base on the way. */
function errorsOutsideTheBase(files: readonly string[]): string[] {
  const parents = superclasses(files);
  const offending: string[] = [];
  for (const name of parents.keys()) {
    if (name === BASE) continue;
    const chain: string[] = [];
    for (let c: string | undefined = name; c !== undefined && !chain.includes(c); c = parents.get(c)) chain.push(c);
    const top = chain[chain.length - 1];
    const isError = /Error$/.test(top) && !parents.has(top);
    if (isError && !chain.includes(BASE)) offending.push(`${name} (${chain.join(' → ')})`);
  }
  return offending.sort();
}

describe('error classes', () => {
  test('GIVEN every class under src/ WHEN scanned THEN each error class extends NodeServicesError', () => {
    const files = filesUnder(SRC);
    // The scan sees the known error classes (so a scan that reads nothing cannot pass).
    const parents = superclasses(files);
    expect(['NodeServiceError', 'PolicyConfigError', 'InputError', 'NodeStreamError'].every((c) => parents.has(c))).toBe(true);
    expect(errorsOutsideTheBase(files)).toEqual([]);
  });

  test('GIVEN a source with an error class outside the base WHEN scanned THEN the scan names it', () => {
    // GIVEN one class extending Error directly, one extending it in turn, one extending the base
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'errors-'));
    const file = path.join(dir, 'x.ts');
    fs.writeFileSync(
      file,
      'class A extends Error {}\nexport class B extends A {}\nclass C extends NodeServicesError {}\nclass D extends TypeError {}\n',
    );
    // THEN the three outside the base are named, with their chain
    expect(errorsOutsideTheBase([file])).toEqual(['A (A → Error)', 'B (B → A → Error)', 'D (D → TypeError)']);
  });

  const made: Array<[string, () => NodeServicesError, string]> = [
    [
      'NodeServiceError (props)',
      () => new NodeServiceError('app/x', [{ field: 'f', value: '1', problem: 'bad', fix: 'fix' }]),
      'INVALID_PROPS',
    ],
    [
      'NodeServiceError (arguments)',
      () =>
        new NodeServiceError(
          'Toleration.equal',
          [{ field: 'Toleration.equal(value)', value: 'undefined', problem: 'is required', fix: 'pass a string' }],
          'arguments',
        ),
      'INVALID_ARGUMENTS',
    ],
    ['PolicyConfigError', () => new PolicyConfigError('rules: unknown rule id'), 'INVALID_POLICY_CONFIG'],
    ['InputError', () => new InputError('a.yaml:1:1: not YAML'), 'INVALID_INPUT'],
    ['NodeStreamError', () => new NodeStreamError('nodes.json:3: unexpected end'), 'MALFORMED_STREAM'],
    ['ApiValidatorMissingError', () => new ApiValidatorMissingError(), 'API_VALIDATOR_MISSING'],
  ];

  test.each(made)('GIVEN a %s THEN it is a NodeServicesError and an Error with its stable code', (_name, make, code) => {
    const e = make();
    expect(e).toBeInstanceOf(NodeServicesError);
    expect(e).toBeInstanceOf(Error);
    expect(e.code).toBe(code);
    expect(e.problems.length).toBe(1);
  });

  test('GIVEN the codes THEN each error kind has its own, every code is thrown by one, and docs/errors.md lists each', () => {
    const codes = made.map(([, make]) => make().code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(Object.values(NodeServicesErrorCode).sort());
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'errors.md'), 'utf8');
    expect(codes.filter((c) => !new RegExp(`^\\| \`${c}\` +\\|`, 'm').test(doc))).toEqual([]);
  });

  test('GIVEN an error listing several problems WHEN read THEN problems has one entry per listed line', () => {
    // GIVEN an InputError in the shape "N problems with the input:" and one line each
    const e = new InputError('2 problems with the input:\n  - a.yaml:1:1: not YAML\n  - b.yaml: no such file or directory');
    // THEN its problems are the two lines, and its message is as given
    expect(e.problems).toEqual([{ problem: 'a.yaml:1:1: not YAML' }, { problem: 'b.yaml: no such file or directory' }]);
    expect(e.message).toBe('2 problems with the input:\n  - a.yaml:1:1: not YAML\n  - b.yaml: no such file or directory');
  });

  test('GIVEN an error WHEN printed by Node THEN code and problems are not repeated after the message', () => {
    const e = new PolicyConfigError('rules: unknown rule id');
    expect(Object.keys(e)).toEqual(['name']);
  });
});
