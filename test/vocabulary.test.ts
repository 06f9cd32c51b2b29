/**
 * The project's own label and annotation keys are literals in one file, `src/k8s/vocabulary.ts`: core writes them,
 * and day2, coverage, lint and import read them by importing the same constants, so renaming a key cannot leave a
 * reader behind without a failing compile.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { ANNOTATION_PREFIX } from '../src/k8s/vocabulary';

const SRC = path.join(__dirname, '..', 'src');
const VOCABULARY = path.join(SRC, 'k8s', 'vocabulary.ts');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** `file:line` of every string or template literal (comments aside) in `files` that spells the project's prefix. */
function prefixLiterals(files: string[]): string[] {
  const hits: string[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (
        (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) &&
        node.text.includes(ANNOTATION_PREFIX)
      ) {
        hits.push(`${path.basename(file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return hits;
}

describe('vocabulary', () => {
  test('GIVEN the sources under src/ WHEN scanned THEN only k8s/vocabulary.ts spells the project prefix', () => {
    const files = filesUnder(SRC).filter((f) => f !== VOCABULARY);
    expect(files.length).toBeGreaterThan(50);
    expect(prefixLiterals(files)).toEqual([]);
    expect(prefixLiterals([VOCABULARY])).toEqual(['vocabulary.ts:9']);
  });

  test('GIVEN a file that writes a key as a literal WHEN scanned THEN the scan finds it, comments aside', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vocabulary-'));
    const file = path.join(tmp, 'x.ts');
    fs.writeFileSync(
      file,
      `// ${ANNOTATION_PREFIX}/service in a comment is prose\nconst a = '${ANNOTATION_PREFIX}/service';\nconst b = \`x \${a} ${ANNOTATION_PREFIX}/track\`;\n`,
    );
    expect(prefixLiterals([file])).toEqual(['x.ts:2', 'x.ts:3']);
  });
});
