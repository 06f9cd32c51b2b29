/**
 * The input contract as a property: random and truncated bytes, `kubectl get` tables and objects of the wrong kind fed
 * to the CLI as `--nodes`, `--pods` and manifests. The CLI never gives a verdict (exit 0 or 1) on input it did not
 * parse, never prints a stack trace: it refuses (exit 2, one message), or answers, and then its answer counts exactly
 * the objects an independent YAML 1.1 parser finds in the input.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as fc from 'fast-check';
import { parseAllDocuments, stringify } from 'yaml';
import { runCli } from '../support/cli';
import { daemonSet, node, podOf } from '../day2/support';

jest.setTimeout(120_000);

const AGENT = daemonSet({ tolerateEverything: true });
const NODES = [node('n1', { labels: { pool: 'a' } }), node('n2', { labels: { pool: 'b' } }), node('n3')];
const PODS = NODES.map((n) => podOf(AGENT, n.metadata.name));

let dir: string;
let MANIFESTS: string;
let GOOD_NODES: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'input-property-'));
  MANIFESTS = path.join(dir, 'agent.json');
  fs.writeFileSync(MANIFESTS, JSON.stringify(AGENT, null, 2));
  GOOD_NODES = path.join(dir, 'nodes.json');
  fs.writeFileSync(GOOD_NODES, JSON.stringify({ kind: 'List', items: NODES }, null, 2));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * The objects an independent parser reads from `bytes`, or undefined when it finds anything but objects, or nothing
 * at all (no document: an empty list is a document, an empty file is none).
 */
function independentObjects(bytes: Buffer): any[] | undefined {
  const text = bytes.toString('utf8');
  if (text.includes('\u0000') || text.includes('\ufffd')) return undefined;
  return yamlObjects(text) ?? jsonStreamObjects(text);
}

/**
 * The objects of a stream of JSON values separated by white space (JSON lines, or `kubectl get -w -o json`), which
 * YAML cannot read as one document; undefined when the text is not such a stream of objects.
 */
function jsonStreamObjects(text: string): any[] | undefined {
  const out: any[] = [];
  let start = -1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 0 && /\s/.test(c)) continue;
    if (depth === 0 && c !== '{') return undefined;
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if (c === '}' || c === ']') {
      if (--depth === 0) {
        try {
          const value = JSON.parse(text.slice(start, i + 1));
          if (typeof value === 'object' && value !== null && typeof value.kind === 'string' && value.kind.endsWith('List')) {
            if (!Array.isArray(value.items) || !value.items.every((v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v)))
              return undefined;
            out.push(...value.items);
          } else out.push(value);
        } catch {
          return undefined;
        }
      }
    }
  }
  return depth === 0 && out.length > 0 ? out : undefined;
}

/** The objects of `text` read as YAML 1.1 documents (JSON included), or undefined (see {@link independentObjects}). */
function yamlObjects(text: string): any[] | undefined {
  const docs = parseAllDocuments(text, { version: '1.1', merge: true });
  if (!Array.isArray(docs)) return undefined;
  const out: any[] = [];
  const push = (v: unknown): boolean => {
    if (Array.isArray(v)) return v.every(push);
    if (v === null || typeof v !== 'object') return false;
    const o = v as any;
    if (typeof o.kind === 'string' && o.kind.endsWith('List') && Array.isArray(o.items)) return o.items.every(push);
    out.push(o);
    return true;
  };
  let documents = 0;
  for (const doc of docs) {
    if (doc.errors.length > 0) return undefined;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch {
      return undefined; // an unresolved alias, or too many
    }
    if (value === null || value === undefined) continue;
    documents++;
    if (!push(value)) return undefined;
  }
  return documents > 0 ? out : undefined;
}

const TABLE_CELLS = ['NAME', 'NAMESPACE', 'STATUS', 'ROLES', 'AGE', 'VERSION', 'READY', 'RESTARTS', 'DESIRED', 'UP-TO-DATE', 'IP', 'NODE'];

/** A `kubectl get` text table: a header of upper-case cells (NAME first) and rows. */
const table = fc
  .tuple(
    fc.constantFrom('NAME', 'NAMESPACE'),
    fc.uniqueArray(fc.constantFrom(...TABLE_CELLS.slice(2)), { minLength: 1, maxLength: 6 }),
    fc.array(fc.array(fc.stringMatching(/^[a-z0-9./<>-]{1,12}$/), { minLength: 2, maxLength: 7 }), { maxLength: 4 }),
  )
  .map(([first, cells, rows]) => [[first, ...cells].join('   '), ...rows.map((r) => r.join('   '))].join('\n') + '\n');

/** A valid text of `objects` (JSON, pretty JSON, JSON lines or YAML) cut at a random point. */
function truncated(objects: readonly unknown[]): fc.Arbitrary<Buffer> {
  const texts = [
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }, null, 2),
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }),
    objects.map((o) => JSON.stringify(o)).join('\n'),
    stringify({ apiVersion: 'v1', kind: 'List', items: objects }),
    objects.map((o) => stringify(o)).join('---\n'),
  ];
  return fc
    .tuple(fc.constantFrom(...texts), fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([text, at]) => Buffer.from(text.slice(0, Math.floor(text.length * at)), 'utf8'));
}

/** Inputs of every hostile class, for a list of `objects` of the right kind and `wrong` ones of another. */
function hostile(objects: readonly unknown[], wrong: readonly unknown[], wrongList: string): fc.Arbitrary<Buffer> {
  return fc.oneof(
    fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
    fc.string({ maxLength: 200 }).map((s) => Buffer.from(s, 'utf8')),
    truncated(objects),
    table.map((t) => Buffer.from(t, 'utf8')),
    truncated(wrong),
    fc.constantFrom(
      Buffer.from(JSON.stringify({ kind: 'List', items: wrong })),
      Buffer.from(JSON.stringify({ kind: 'List', items: [...objects, ...objects] })),
      Buffer.from(JSON.stringify({ kind: wrongList, items: [] })),
      Buffer.from(`kind: ${wrongList}\nitems: []\n`),
    ),
  );
}

let count = 0;
function writeInput(bytes: Buffer): string {
  const file = path.join(dir, `input-${count++}.json`);
  fs.writeFileSync(file, bytes);
  return file;
}

function noStackTrace(err: string): void {
  expect(err).not.toMatch(/\n\s+at |TypeError|RangeError|ReferenceError|internal error/);
}

describe('property: hostile --nodes', () => {
  test('coverage --fail-on-missing refuses, or answers over exactly the nodes the input holds', async () => {
    await fc.assert(
      fc.asyncProperty(hostile(NODES, [AGENT, ...PODS], 'DaemonSetList'), async (bytes) => {
        const run = await runCli(['coverage', '--fail-on-missing', '--output', 'json', '--nodes', writeInput(bytes), MANIFESTS]);
        noStackTrace(run.err);
        expect([0, 1, 2]).toContain(run.code);
        if (run.code === 2) {
          expect(run.err).toMatch(/^node-services: /);
          expect(run.out).toBe('');
          return;
        }
        const objects = independentObjects(bytes);
        expect(objects).toBeDefined();
        const names = objects!.map((o) => o?.metadata?.name);
        expect(objects!.every((o) => o.kind === undefined || o.kind === 'Node')).toBe(true);
        expect(new Set(names).size).toBe(names.length);
        // a gate over zero nodes is refused
        expect(names.length).toBeGreaterThan(0);
        expect(names.every((n) => typeof n === 'string' && n.length > 0)).toBe(true);
        expect(JSON.parse(run.out).nodes).toBe(names.length);
      }),
      { numRuns: 80 },
    );
  });

  test('plan --fail-on-stuck refuses, or plans over the nodes the input holds', async () => {
    await fc.assert(
      fc.asyncProperty(hostile(NODES, [AGENT], 'PodList'), async (bytes) => {
        const run = await runCli(['plan', '--fail-on-stuck', '-f', 'json', MANIFESTS, '--old', MANIFESTS, '--nodes', writeInput(bytes)]);
        noStackTrace(run.err);
        if (run.code === 2) return;
        const objects = independentObjects(bytes);
        expect(objects).toBeDefined();
        expect(objects!.length).toBeGreaterThan(0);
        expect(objects!.every((o) => (o.kind === undefined || o.kind === 'Node') && typeof o.metadata?.name === 'string')).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});

describe('property: hostile --pods', () => {
  test('coverage --pods refuses, or reads only pods', async () => {
    await fc.assert(
      fc.asyncProperty(hostile(PODS, NODES, 'NodeList'), async (bytes) => {
        const run = await runCli(['coverage', '--fail-on-missing', '--nodes', GOOD_NODES, '--pods', writeInput(bytes), MANIFESTS]);
        noStackTrace(run.err);
        if (run.code === 2) return;
        const objects = independentObjects(bytes);
        expect(objects).toBeDefined();
        expect(objects!.every((o) => (o.kind === undefined || o.kind === 'Pod') && typeof o.metadata?.name === 'string')).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('property: hostile manifests', () => {
  test('coverage and lint refuse, or answer over exactly the DaemonSets the input holds', async () => {
    const other = daemonSet({ name: 'other', image: 'registry.example.com/other:2.0.0' });
    await fc.assert(
      fc.asyncProperty(hostile([AGENT, other], NODES, 'NodeList'), async (bytes) => {
        const file = writeInput(bytes);
        const coverage = await runCli(['coverage', '--fail-on-missing', '--output', 'json', '--nodes', GOOD_NODES, file]);
        const lint = await runCli(['lint', '--output', 'json', file]);
        const ungated = await runCli(['coverage', '--output', 'json', '--nodes', GOOD_NODES, file]);
        noStackTrace(coverage.err);
        noStackTrace(lint.err);
        noStackTrace(ungated.err);
        const objects = independentObjects(bytes);
        const daemonSets = (objects ?? []).filter((o) => o.kind === 'DaemonSet');
        // without a gate, an answer (even over no DaemonSet) only on input that parsed whole
        if (ungated.code !== 2) {
          expect(objects).toBeDefined();
          expect(JSON.parse(ungated.out).workloads).toHaveLength(daemonSets.length);
        }
        if (coverage.code !== 2) {
          expect(objects).toBeDefined();
          expect(JSON.parse(coverage.out).workloads.map((w: any) => w.name)).toEqual(daemonSets.map((d) => d.metadata.name));
          expect(daemonSets.length).toBeGreaterThan(0);
        }
        if (lint.code !== 2) {
          expect(objects).toBeDefined();
          expect(JSON.parse(lint.out).summary.checkedObjects).toBe(daemonSets.length);
          expect(daemonSets.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 60 },
    );
  });
});
