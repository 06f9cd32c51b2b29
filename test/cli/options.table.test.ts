/**
 * The options of `lint`, `coverage`, `diff` and `plan` as tables, one named row per option value: the output formats
 * each command documents (docs/cli.md), the values it refuses, plan's numeric options and the options a command
 * requires. The command-specific tests (lint.test.ts, coverage.test.ts, …) check what the reports say.
 */

import * as path from 'path';
import { Run, runCli } from '../support/cli';
import { Row } from '../support/table';

// Several CLI runs per table on a shared machine: time is not what these tests check.
jest.setTimeout(60_000);

const FIXTURES = path.relative(process.cwd(), path.join(__dirname, '..', 'fixtures'));
const NODES = path.join(FIXTURES, 'nodes.json');
const LINT = ['lint', path.join(FIXTURES, 'policy', 'compliant-log-agent.yaml')];
const COVERAGE = ['coverage', path.join(FIXTURES, 'coverage', 'daemonsets.yaml'), '--nodes', NODES];
const OLD = path.join(FIXTURES, 'day2', 'examples-old');
const NEW = path.join(FIXTURES, 'day2', 'examples-new');
const DIFF = ['diff', OLD, NEW];
const PLAN = ['plan', NEW, '--old', OLD, '--nodes', NODES];

/** The report formats of the CLI, each with what tells it apart. */
type Format = 'text' | 'json' | 'jsonl' | 'sarif' | 'markdown' | 'html';

/** The formats that are not plain text (SARIF is JSON). */
const OTHERS: Format[] = ['json', 'jsonl', 'markdown', 'html'];

/** Why `out` is not a report in `format`, or undefined when it is one. */
function notA(format: Format, out: string): string | undefined {
  const json = (text: string): any => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const lines = out.split('\n').filter((l) => l.length > 0);
  switch (format) {
    case 'json':
      return typeof json(out) === 'object' && json(out) !== null ? undefined : 'not one JSON value';
    case 'jsonl':
      return lines.length > 1 && lines.every((l) => typeof json(l) === 'object') ? undefined : 'not JSON lines';
    case 'sarif':
      return json(out)?.version === '2.1.0' && Array.isArray(json(out)?.runs) ? undefined : 'not a SARIF 2.1.0 log';
    case 'markdown':
      return /^#{1,6} /.test(out) ? undefined : 'no Markdown heading first';
    case 'html':
      return out.startsWith('<!DOCTYPE html>') && out.trimEnd().endsWith('</html>') ? undefined : 'not one HTML page';
    case 'text':
      return lines.length > 0 && OTHERS.every((f) => notA(f, out) !== undefined) ? undefined : 'not plain text';
  }
}

/** What a run must give: its exit code and, for a report, the format of standard output. */
interface Outcome {
  readonly code: number;
  readonly format?: Format;
  /** Texts standard error must contain. */
  readonly err?: readonly string[];
}

/** One row per command and documented format; the flag is each spelling the command documents. */
const FORMATS: Row<string[], Outcome>[] = [
  ...(['text', 'json', 'sarif'] as const).flatMap((f) => [
    { name: `lint -o ${f}`, input: [...LINT, '-o', f], want: { code: 0, format: f } },
    { name: `lint --output ${f}`, input: [...LINT, '--output', f], want: { code: 0, format: f } },
    { name: `lint -f ${f}`, input: [...LINT, '-f', f], want: { code: 0, format: f } },
    { name: `lint --format ${f}`, input: [...LINT, '--format', f], want: { code: 0, format: f } },
  ]),
  { name: 'lint without a format', input: LINT, want: { code: 0, format: 'text' } },
  ...(['text', 'json', 'jsonl', 'html'] as const).map((f) => ({
    name: `coverage --output ${f}`,
    input: [...COVERAGE, '--output', f],
    want: { code: 0, format: f },
  })),
  { name: 'coverage without a format', input: COVERAGE, want: { code: 0, format: 'text' } },
  ...(['text', 'json', 'markdown', 'sarif'] as const).flatMap((f) => [
    { name: `diff -f ${f}`, input: [...DIFF, '-f', f], want: { code: 0, format: f } },
    { name: `diff --format ${f}`, input: [...DIFF, '--format', f], want: { code: 0, format: f } },
  ]),
  { name: 'diff without a format', input: DIFF, want: { code: 0, format: 'text' } },
  ...(['text', 'json', 'html'] as const).flatMap((f) => [
    { name: `plan -f ${f}`, input: [...PLAN, '-f', f], want: { code: 0, format: f } },
    { name: `plan --format ${f}`, input: [...PLAN, '--format', f], want: { code: 0, format: f } },
    { name: `plan --output ${f}`, input: [...PLAN, '--output', f], want: { code: 0, format: f } },
  ]),
  { name: 'plan without a format', input: PLAN, want: { code: 0, format: 'text' } },
];

/** One row per format option: an undocumented value is a usage error naming the option, the value and the choices, in docs/cli.md's order. */
const UNKNOWN_FORMATS: Row<string[], Outcome>[] = [
  { name: 'lint -o xml', input: [...LINT, '-o', 'xml'], want: { code: 2, err: ['--output', "'xml'", 'text, json, sarif'] } },
  { name: 'lint -f jsonl', input: [...LINT, '-f', 'jsonl'], want: { code: 2, err: ['--format', "'jsonl'", 'text, json, sarif'] } },
  {
    name: 'coverage --output sarif',
    input: [...COVERAGE, '--output', 'sarif'],
    want: { code: 2, err: ['--output', "'sarif'", 'text, json, jsonl, html'] },
  },
  { name: 'diff -f html', input: [...DIFF, '-f', 'html'], want: { code: 2, err: ['--format', "'html'", 'text, json, markdown, sarif'] } },
  { name: 'plan -f sarif', input: [...PLAN, '-f', 'sarif'], want: { code: 2, err: ['--format', "'sarif'", 'text, json, html'] } },
  {
    name: 'plan --output jsonl',
    input: [...PLAN, '--output', 'jsonl'],
    want: { code: 2, err: ['--output', "'jsonl'", 'text, json, html'] },
  },
];

/** plan's numeric options: whole numbers from 0 (seconds) or 1 (nodes per canary wave), nothing else. */
const PLAN_NUMBERS: Row<string[], Outcome>[] = [
  { name: '--pull-seconds 0', input: [...PLAN, '--pull-seconds', '0'], want: { code: 0, format: 'text' } },
  { name: '--pull-seconds 120', input: [...PLAN, '--pull-seconds', '120'], want: { code: 0, format: 'text' } },
  { name: '--pull-seconds -1', input: [...PLAN, '--pull-seconds', '-1'], want: { code: 2, err: ['--pull-seconds', "'-1'", 'at least 0'] } },
  { name: '--pull-seconds 1.5', input: [...PLAN, '--pull-seconds', '1.5'], want: { code: 2, err: ['--pull-seconds', "'1.5'", 'integer'] } },
  { name: '--pull-seconds 30s', input: [...PLAN, '--pull-seconds', '30s'], want: { code: 2, err: ['--pull-seconds', "'30s'", 'integer'] } },
  { name: '--ready-seconds 0', input: [...PLAN, '--ready-seconds', '0'], want: { code: 0, format: 'text' } },
  {
    name: '--ready-seconds -5',
    input: [...PLAN, '--ready-seconds', '-5'],
    want: { code: 2, err: ['--ready-seconds', "'-5'", 'at least 0'] },
  },
  {
    name: '--ready-seconds ten',
    input: [...PLAN, '--ready-seconds', 'ten'],
    want: { code: 2, err: ['--ready-seconds', "'ten'", 'integer'] },
  },
  { name: '--canary-wave-size 1', input: [...PLAN, '--canary-wave-size', '1'], want: { code: 0, format: 'text' } },
  {
    name: '--canary-wave-size 0',
    input: [...PLAN, '--canary-wave-size', '0'],
    want: { code: 2, err: ['--canary-wave-size', "'0'", 'at least 1'] },
  },
  {
    name: '--canary-wave-size 2.5',
    input: [...PLAN, '--canary-wave-size', '2.5'],
    want: { code: 2, err: ['--canary-wave-size', "'2.5'", 'integer'] },
  },
];

/** The options a command cannot run without. */
const REQUIRED: Row<string[], Outcome>[] = [
  {
    name: 'coverage without --nodes',
    input: ['coverage', path.join(FIXTURES, 'coverage', 'daemonsets.yaml')],
    want: { code: 2, err: ['--nodes'] },
  },
  { name: 'plan without --nodes', input: ['plan', NEW, '--old', OLD], want: { code: 2, err: ['--nodes'] } },
  { name: 'plan without --old or --pods', input: ['plan', NEW, '--nodes', NODES], want: { code: 2, err: ['--old', '--pods'] } },
  { name: 'diff with one input', input: ['diff', OLD], want: { code: 2, err: ['new'] } },
];

/** THEN the run has the wanted exit code, and prints a report in the wanted format or an error with the wanted texts. */
function expectOutcome(run: Run, want: Outcome): void {
  expect(run.code).toBe(want.code);
  if (want.format) expect(notA(want.format, run.out)).toBeUndefined();
  if (want.err) {
    expect(run.out).toBe('');
    for (const text of want.err) expect(run.err).toContain(text);
  }
}

describe.each([
  ['output formats: each documented format of each command, under each of its flags', FORMATS],
  ['output formats: a value a command does not document is a usage error listing the choices', UNKNOWN_FORMATS],
  ['plan: the numeric options take whole numbers only', PLAN_NUMBERS],
  ['required options and arguments', REQUIRED],
] as const)('%s', (_table, rows) => {
  test.each(rows)('$name', async ({ input, want }) => {
    // GIVEN the command line of the row WHEN the CLI runs it
    const run = await runCli(input);
    // THEN it exits and prints as the row wants
    expectOutcome(run, want);
  });
});

describe('the format recognizer used above', () => {
  const samples: Row<string, Format>[] = [
    { name: 'a text report', input: '1 DaemonSet checked\n', want: 'text' },
    { name: 'one JSON object', input: '{"a": 1}\n', want: 'json' },
    { name: 'JSON lines', input: '{"a": 1}\n{"b": 2}\n', want: 'jsonl' },
    { name: 'a SARIF log', input: '{"version": "2.1.0", "runs": []}\n', want: 'sarif' },
    { name: 'Markdown', input: '## node-services diff\n\ntext\n', want: 'markdown' },
    { name: 'an HTML page', input: '<!DOCTYPE html>\n<html><body></body></html>\n', want: 'html' },
  ];
  const FORMAT_NAMES: Format[] = ['text', 'json', 'jsonl', 'sarif', 'markdown', 'html'];

  test.each(samples)('GIVEN $name THEN it is recognized as its format only (SARIF is also JSON)', ({ input, want }) => {
    const recognized = FORMAT_NAMES.filter((f) => notA(f, input) === undefined);
    expect(recognized).toEqual(want === 'sarif' ? ['json', 'sarif'] : [want]);
  });
});
