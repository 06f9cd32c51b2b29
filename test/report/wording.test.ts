/**
 * The wording of the HTML reports: every count agrees with its noun and verb (0, 1 and 2 of each), and the pages
 * never say "1 nodes" or "2 node".
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { headline, readableBytes } from '../../src/report/coverage-html';
import { agree, plural, sentence } from '../../src/report/html';
import { daemonSet, node } from '../day2/support';
import { runCli } from '../support/cli';

jest.setTimeout(60_000);

describe('count phrases', () => {
  test.each([
    [0, '0 DaemonSets', 'have'],
    [1, '1 DaemonSet', 'has'],
    [2, '2 DaemonSets', 'have'],
  ])('GIVEN %i THEN "%s %s"', (n, noun, verb) => {
    expect(plural(n, 'DaemonSet')).toBe(noun);
    expect(agree(n, 'has', 'have')).toBe(verb);
  });

  test('GIVEN an irregular plural THEN it is used for 0 and 2, not for 1', () => {
    expect([0, 1, 2].map((n) => plural(n, 'taint', 'taints of the node'))).toEqual([
      '0 taints of the node',
      '1 taint',
      '2 taints of the node',
    ]);
  });

  test.each([
    [0, 0, 'Every DaemonSet runs on every node it targets.'],
    [1, 0, '1 DaemonSet has gaps (nodes it targets but cannot run on).'],
    [2, 0, '2 DaemonSets have gaps (nodes they target but cannot run on).'],
    [0, 1, '1 DaemonSet is invalid (not analysed).'],
    [0, 2, '2 DaemonSets are invalid (not analysed).'],
    [1, 2, '1 DaemonSet has gaps (nodes it targets but cannot run on); 2 DaemonSets are invalid (not analysed).'],
  ])('GIVEN %i DaemonSets with gaps and %i invalid THEN the headline reads "%s"', (gaps, invalid, text) => {
    expect(headline(gaps, invalid)).toBe(text);
  });

  test('GIVEN a sentence in lower case THEN its first letter is upper case, the rest as it was', () => {
    expect(sentence('the pod template differs from --old')).toBe('The pod template differs from --old');
    expect(sentence('')).toBe('');
  });
});

/** The visible text of an HTML page, tags removed, table cells apart (`|`). */
function textOf(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, ' ')
    .replace(/<\/t[dh]>/g, ' | ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

/** Count phrases whose noun does not agree with the count (a noun before another noun is not counted: `110 pod slots`). */
function disagreements(text: string): string[] {
  const nouns = 'node|DaemonSet|pool|group|wave|pod|taint|object|rollout';
  const one = new RegExp(`(?<![\\d.])1 (?:more |new |other )?(?:${nouns})s\\b`, 'g');
  const many = new RegExp(`(?<![\\d.])(?:0|[2-9]|\\d{2,}) (?:more |new |other )?(?:${nouns})\\b(?!s|-| slots| names)`, 'g');
  return [...(text.match(one) ?? []), ...(text.match(many) ?? [])];
}

describe('the HTML pages, with 1 and 2 of everything', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-wording-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const taint = [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }];
  const db = (name: string) => node(name, { labels: { pool: 'db' }, taints: taint });

  test.each([
    ['one of each', [db('db-1')], [daemonSet({ name: 'agent' })]],
    [
      'two of each',
      [db('db-1'), db('db-2'), node('app-1', { labels: { pool: 'app' } })],
      [daemonSet({ name: 'agent' }), daemonSet({ name: 'other' })],
    ],
  ])('GIVEN %s THEN every count agrees with its words', async (name, nodes, daemonSets) => {
    const nodesFile = path.join(dir, `${name}-nodes.json`);
    const manifests = path.join(dir, `${name}-ds.json`);
    fs.writeFileSync(nodesFile, JSON.stringify({ kind: 'NodeList', items: nodes }));
    fs.writeFileSync(manifests, JSON.stringify({ kind: 'List', items: daemonSets }));
    const run = await runCli(['coverage', manifests, '--nodes', nodesFile, '--pool-label', 'pool', '--output', 'html']);
    expect([run.code, run.err]).toEqual([0, '']);
    const text = textOf(run.out);
    expect(disagreements(text)).toEqual([]);
    // THEN the counts are there to be checked (the scan is not vacuous)
    const n = daemonSets.length;
    expect(text).toContain(
      n === 1
        ? '1 DaemonSet has gaps (nodes it targets but cannot run on)'
        : `${n} DaemonSets have gaps (nodes they target but cannot run on)`,
    );
    expect(text).toContain(n === 1 ? '1 excluded by a taint' : '2 excluded by taints');
  });

  test('GIVEN the examples rollout plan THEN every count agrees with its words, and each sentence starts upper case', async () => {
    const root = path.join(__dirname, '..', '..');
    const run = await runCli([
      'plan',
      path.join(root, 'test/fixtures/day2/examples-new'),
      '--old',
      path.join(root, 'test/fixtures/day2/examples-old'),
      '--nodes',
      path.join(root, 'test/fixtures/nodes.json'),
      '--format',
      'html',
    ]);
    expect(run.code).toBe(0);
    const text = textOf(run.out);
    expect(disagreements(text)).toEqual([]);
    expect(text).toContain('1 rollout cannot complete.');
    expect(run.out).not.toMatch(/<p>[a-z]/);
  });

  test('GIVEN the scan THEN it finds what it looks for', () => {
    expect(disagreements('1 nodes, 2 node, 1 node, 2 nodes, 1 more groups, 10 DaemonSet, 1.5 nodes, 110 pod slots')).toEqual([
      '1 nodes',
      '1 more groups',
      '2 node',
      '10 DaemonSet',
    ]);
  });
});

describe('memory amounts', () => {
  test('GIVEN whole units THEN exact; GIVEN a node allocatable in Ki of many Gi THEN rounded to a tenth of a Gi', () => {
    expect(readableBytes(256 * 1024 ** 2)).toBe('256Mi');
    expect(readableBytes(16 * 1024 ** 3)).toBe('16Gi');
    expect(readableBytes(1246 * 1024 ** 2)).toBe('1246Mi');
    expect(readableBytes(31482648 * 1024)).toBe('≈30.0Gi');
    expect(readableBytes(512 * 1024 + 1)).toBe(String(512 * 1024 + 1));
  });
});
