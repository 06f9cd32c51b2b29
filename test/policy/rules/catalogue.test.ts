/**
 * The rule catalogue as a whole: the compliant DaemonSet every case starts from, the ids and documentation of the
 * rules, and the case files — one `<rule-id>.test.ts` per rule, each with a non-compliant and a compliant case.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { checkManifests } from '../../../src/policy/engine';
import { RULES } from '../../../src/policy/rules';
import { compliantDaemonSet } from './support';

/** Files of this folder that are not the case file of a rule. */
const NOT_CASE_FILES = ['catalogue.test.ts', 'support.ts'];

/** The number of cases in each table of a case file, read from its `describeRule(id, { nonCompliant, compliant })`. */
interface CaseCount {
  readonly file: string;
  readonly ruleIds: string[];
  readonly nonCompliant: number;
  readonly compliant: number;
}

/** Counts the literal cases of the `describeRule` calls in one case file's source. */
function countCases(file: string, text: string): CaseCount {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const count = { file, ruleIds: [] as string[], nonCompliant: 0, compliant: 0 };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'describeRule') {
      const [id, cases] = node.arguments;
      count.ruleIds.push(id && ts.isStringLiteral(id) ? id.text : '?');
      if (cases && ts.isObjectLiteralExpression(cases)) {
        for (const p of cases.properties) {
          if (!ts.isPropertyAssignment(p) || !ts.isIdentifier(p.name) || !ts.isArrayLiteralExpression(p.initializer)) continue;
          const literal = p.initializer.elements.filter((e) => ts.isObjectLiteralExpression(e)).length;
          if (p.name.text === 'nonCompliant') count.nonCompliant += literal;
          if (p.name.text === 'compliant') count.compliant += literal;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

/** What is missing from the case files of `ruleIds`, one line per problem (empty when every rule is covered). */
function missingCases(dir: string, ruleIds: string[]): string[] {
  const files = fs.readdirSync(dir).filter((f) => !NOT_CASE_FILES.includes(f));
  const problems: string[] = [];
  for (const id of ruleIds) if (!files.includes(`${id}.test.ts`)) problems.push(`${id}: no case file ${id}.test.ts`);
  for (const file of files) {
    const id = file.replace(/\.test\.ts$/, '');
    if (!ruleIds.includes(id)) problems.push(`${file}: no rule '${id}' in the catalogue`);
    const count = countCases(file, fs.readFileSync(path.join(dir, file), 'utf8'));
    if (count.ruleIds.join() !== id) problems.push(`${file}: describes [${count.ruleIds.join(', ')}], not just '${id}'`);
    if (count.nonCompliant === 0) problems.push(`${id}: no non-compliant case`);
    if (count.compliant === 0) problems.push(`${id}: no compliant case`);
  }
  return problems.sort();
}

describe('the compliant DaemonSet used by every case', () => {
  test('has no findings at all', () => {
    // GIVEN the compliant log agent WHEN it is checked
    const report = checkManifests([compliantDaemonSet()]);
    // THEN nothing is reported
    expect(report.findings).toEqual([]);
    expect(report.checkedObjects).toBe(1);
  });
});

describe('the catalogue', () => {
  test('has at least 35 rules with unique kebab-case ids and complete documentation', () => {
    const ids = RULES.map((r) => r.id);
    expect(RULES.length).toBeGreaterThanOrEqual(35);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULES) {
      expect(r.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      for (const text of [r.title, r.rationale, r.fix, r.example]) expect(text.trim().length).toBeGreaterThan(0);
    }
  });

  test('every rule has a non-compliant and a compliant case', () => {
    // GIVEN the rule registry and the case files next to this test WHEN each file's cases are counted
    const problems = missingCases(__dirname, RULES.map((r) => r.id).sort());
    // THEN every rule has its case file, each describing that rule only, with at least one case of each kind
    expect(problems).toEqual([]);
  });

  test('keeps the ids the construct library relies on, with their severities', () => {
    const expected: Array<[string, string, boolean]> = [
      ['host-path-writable', 'warning', true],
      ['privileged-container', 'warning', true],
      ['on-delete-without-reason', 'warning', true],
      ['dangerous-capability', 'warning', true],
      ['default-namespace', 'warning', true],
      ['no-node-local-need', 'warning', true],
      ['host-path-not-allowed', 'error', true],
      ['capability-not-allowed', 'error', true],
    ];
    for (const [id, severity, suppressible] of expected) {
      const rule = RULES.find((r) => r.id === id);
      expect({ id, severity: rule?.severity, suppressible: rule?.suppressible }).toEqual({ id, severity, suppressible });
    }
  });

  test('API-validity rules are errors that cannot be suppressed or configured', () => {
    const api = RULES.filter((r) => r.category === 'api-validity');
    expect(api.length).toBeGreaterThan(0);
    for (const r of api)
      expect({ id: r.id, severity: r.severity, suppressible: r.suppressible, configurable: r.configurable }).toEqual({
        id: r.id,
        severity: 'error',
        suppressible: false,
        configurable: false,
      });
  });

  test('each rule file is named after its rule id', () => {
    const files = fs
      .readdirSync(path.join(__dirname, '../../../src/policy/rules'))
      .filter((f: string) => f !== 'index.ts')
      .map((f: string) => f.replace(/\.ts$/, ''))
      .sort();
    expect(files).toEqual(RULES.map((r) => r.id).sort());
  });
});

describe('the case-file guard', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rule-cases-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => fs.writeFileSync(path.join(dir, file), text);

  test('GIVEN a rule without a case file and files missing a kind of case WHEN checked THEN it lists each', () => {
    // GIVEN rule a with both kinds of case, b only non-compliant, c only compliant, d no file, and a stray file e
    write('support.ts', '');
    write('a.test.ts', "describeRule('a', { nonCompliant: [{ name: 'x' }], compliant: [{ name: 'y' }] });");
    write('b.test.ts', "describeRule('b', { nonCompliant: [{ name: 'x' }], compliant: [] });");
    write('c.test.ts', "describeRule('c', { nonCompliant: [], compliant: [{ name: 'y' }] });");
    write('e.test.ts', "describeRule('a', { nonCompliant: [{ name: 'x' }], compliant: [{ name: 'y' }] });");
    // WHEN the folder is checked against the rules a, b, c, d
    const problems = missingCases(dir, ['a', 'b', 'c', 'd']);
    // THEN each gap is listed, and the complete file a is not
    expect(problems).toEqual([
      'b: no compliant case',
      'c: no non-compliant case',
      'd: no case file d.test.ts',
      "e.test.ts: describes [a], not just 'e'",
      "e.test.ts: no rule 'e' in the catalogue",
    ]);
  });
});
