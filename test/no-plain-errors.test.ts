/**
 * The library reports misuse and bad input with its own error classes (`NodeServiceError`, `InputError`,
 * `PolicyConfigError`, …), whose messages name where, the field, the value and the fix: no plain `Error` is thrown.
 */

import * as fs from 'fs';
import * as path from 'path';

const SRC = path.join(__dirname, '..', 'src');
const PLAIN = /throw\s+new\s+Error\s*\(/;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** `file:line` of every plain `throw new Error(` in `files`. */
function plainThrows(files: string[]): string[] {
  return files.flatMap((f) =>
    fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .flatMap((line, i) => (PLAIN.test(line) ? [`${path.relative(SRC, f)}:${i + 1}`] : [])),
  );
}

describe('error classes', () => {
  test('GIVEN the sources under src/ WHEN scanned THEN none throws a plain Error', () => {
    const files = filesUnder(SRC);
    expect(files.length).toBeGreaterThan(50);
    expect(plainThrows(files)).toEqual([]);
  });

  test('GIVEN a file with a plain throw WHEN scanned THEN the scan finds it', () => {
    // GIVEN a copy of a source with one plain throw added
    const tmp = fs.mkdtempSync(path.join(require('os').tmpdir(), 'plain-'));
    const file = path.join(tmp, 'x.ts');
    fs.writeFileSync(file, "export const a = 1;\nexport function f(): void {\n  throw new Error('boom');\n}\n");
    // THEN it is reported with its line
    expect(plainThrows([file])).toEqual([`${path.relative(SRC, file)}:3`]);
  });
});
