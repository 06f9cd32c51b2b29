/**
 * The streaming reader of node and pod lists (src/manifests/node-stream.ts): the same objects as parsing the whole
 * text, whatever the chunk boundaries, for kubectl JSON Lists, arrays, JSON lines and YAML lists.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as fc from 'fast-check';
import { stringify } from 'yaml';
import { NodeStreamError, fileChunks, readObjectStream } from '../../src/manifests/node-stream';
import { node } from './support';

/** Splits `text` into chunks at the given sizes (cycled). */
function chunks(text: string, sizes: readonly number[]): Buffer[] {
  const buf = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0, k = 0; i < buf.length; k++) {
    const size = Math.max(1, sizes[k % sizes.length]);
    out.push(buf.subarray(i, i + size));
    i += size;
  }
  return out;
}

async function read(
  source: Iterable<Buffer | string> | AsyncIterable<Buffer | string>,
  file = 'in',
): Promise<Array<{ object: any; line: number }>> {
  const out: Array<{ object: any; line: number }> = [];
  await readObjectStream(source, file, (object, line) => out.push({ object, line }));
  return out;
}

/** A node whose strings stress the scanner: quotes, backslashes, brackets and multi-byte characters in values. */
function trickyNode(i: number): any {
  const n = node(`node-${i}`, { labels: { pool: i % 2 ? 'a' : 'b' } });
  n.metadata.annotations = { note: `he said "}]{[" \\ ${'é€𝄞'.repeat(i % 4)} \\"`, items: '[1,2]' };
  n.status.images = [{ names: [`registry/x:${i}`], sizeBytes: i }];
  return n;
}

describe('readObjectStream', () => {
  const nodes = Array.from({ length: 40 }, (_, i) => trickyNode(i));
  const list = { apiVersion: 'v1', kind: 'List', items: nodes, metadata: { resourceVersion: '' } };

  test('a kubectl-style JSON List (items before kind) in any chunking gives exactly its items, with their lines', async () => {
    const text = JSON.stringify({ apiVersion: 'v1', items: nodes, kind: 'List', metadata: { resourceVersion: '' } }, null, 4);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 8 }), async (sizes) => {
        const got = await read(chunks(text, sizes));
        expect(got.map((g) => g.object)).toEqual(nodes);
      }),
      { numRuns: 60, seed: 13 },
    );
    // the line of each item is where it starts
    const got = await read([text]);
    const lines = text.split('\n');
    for (const g of got) expect(lines[g.line - 1].trim()).toBe('{');
  });

  test('without lines (lines: false) a kubectl-style List in any chunking gives exactly the same items', async () => {
    const text = JSON.stringify({ apiVersion: 'v1', items: nodes, kind: 'List', metadata: { resourceVersion: '' } }, null, 4);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 8 }), async (sizes) => {
        const got: any[] = [];
        await readObjectStream(chunks(text, sizes), 'in', (object) => void got.push(object), { lines: false });
        expect(got).toEqual(nodes);
      }),
      { numRuns: 60, seed: 14 },
    );
  });

  test('a layout that looks like kubectl’s but closes an inner object at the item’s indentation is still split right', async () => {
    // the first item teaches "\n  }" as the item close; the second has an inner object closing with the same line
    const text = '{"items": [\n  {"a": 1\n  },\n  {"a": {\n  "b": 1\n  },\n  "c": 2\n  },\n  {"d": "\\n  }"\n  }\n], "kind": "List"}';
    expect((await read([text])).map((g) => g.object)).toEqual([{ a: 1 }, { a: { b: 1 }, c: 2 }, { d: '\n  }' }]);
    expect((await read(chunks(text, [5]))).map((g) => g.object)).toEqual([{ a: 1 }, { a: { b: 1 }, c: 2 }, { d: '\n  }' }]);
  });

  test('one byte at a time still works (escapes and multi-byte characters split across chunks)', async () => {
    const text = JSON.stringify(list);
    expect((await read(chunks(text, [1]))).map((g) => g.object)).toEqual(nodes);
  });

  test('a JSON array, JSON lines, a single object and an empty List', async () => {
    expect((await read([JSON.stringify(nodes)])).map((g) => g.object)).toEqual(nodes);
    const lines = nodes.map((n) => JSON.stringify(n)).join('\n') + '\n';
    const got = await read(chunks(lines, [97]));
    expect(got.map((g) => g.object)).toEqual(nodes);
    expect(got.map((g) => g.line)).toEqual(nodes.map((_, i) => i + 1));
    expect((await read([JSON.stringify(nodes[0])])).map((g) => g.object)).toEqual([nodes[0]]);
    expect(await read(['{"kind":"NodeList","items":[]}'])).toEqual([]);
    expect(await read(['  \n'])).toEqual([]);
  });

  test('YAML: a NodeList with items, documents, and a top-level sequence, in any chunking', async () => {
    const yamlList = stringify(list);
    const docs = nodes.map((n) => stringify(n)).join('---\n');
    const seq = stringify(nodes);
    for (const text of [yamlList, docs, seq]) {
      for (const sizes of [[7], [1000], [3, 50, 1]]) {
        expect((await read(chunks(text, sizes))).map((g) => g.object)).toEqual(nodes);
      }
    }
    // items at column 0 and kubectl's two-space style both work; lines point at each entry's "-"
    const flat = 'kind: NodeList\nitems:\n- metadata: {name: a}\n- metadata:\n    name: b\n';
    const got = await read([flat]);
    expect(got).toEqual([
      { object: { metadata: { name: 'a' } }, line: 3 },
      { object: { metadata: { name: 'b' } }, line: 4 },
    ]);
  });

  test('YAML is read with YAML 1.1 semantics, as kubectl does', async () => {
    const got = await read(['items:\n  - metadata: {name: a, labels: {enabled: yes, mode: 0644}}\n']);
    expect(got[0].object.metadata.labels).toEqual({ enabled: true, mode: 420 });
  });

  test('malformed input is an error naming file and line', async () => {
    await expect(read(['{"items": [{"a": 1}, {"b": tru}]}'], 'nodes.json')).rejects.toThrow(/^nodes\.json:1: invalid JSON/);
    await expect(read(['{"items": [\n{"a": 1},\n{"b": 2}\n'], 'nodes.json')).rejects.toThrow(
      /nodes\.json:4: invalid JSON: the input ends inside a value/,
    );
    await expect(read(['items:\n  - a: [1,\n  - b: 2\n'], 'nodes.yaml')).rejects.toThrow(NodeStreamError);
    await expect(read(['items:\n  - a: [1,\n  - b: 2\n'], 'nodes.yaml')).rejects.toThrow(/^nodes\.yaml:[23]:\d+: /);
  });

  test('YAML entries are read one at a time: an alias to an anchor in another entry is a clear error, not a crash', async () => {
    // what PyYAML's safe_dump writes for two nodes sharing one taint list
    const text = [
      'kind: List',
      'items:',
      '- metadata: {name: a}',
      '  spec:',
      '    taints: &id001',
      '    - {key: edge, effect: NoSchedule}',
      '- metadata: {name: b}',
      '  spec:',
      '    taints: *id001',
      '',
    ].join('\n');
    await expect(read(chunks(text, [11]), 'nodes.yaml')).rejects.toThrow(
      new NodeStreamError(
        "nodes.yaml:7: the alias *id001 refers to an anchor outside this list entry; list entries are read one at a time, so each must be whole (expand the aliases, e.g. with yq 'explode(.)')",
      ),
    );
    // an alias inside its own entry is fine
    const whole = await read(['items:\n- metadata: {name: a, labels: &l {x: "1"}}\n  spec: {labels2: *l}\n']);
    expect(whole[0].object.spec.labels2).toEqual({ x: '1' });
  });

  test('a generated list of 3,000 nodes read from a file equals JSON.parse of it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-stream-'));
    try {
      const file = path.join(dir, 'nodes.json');
      const many = Array.from({ length: 3000 }, (_, i) => trickyNode(i));
      fs.writeFileSync(file, JSON.stringify({ apiVersion: 'v1', items: many, kind: 'List' }, null, 4));
      const got = await read(fileChunks(file), file);
      expect(got.length).toBe(3000);
      expect(got.map((g) => g.object)).toEqual(JSON.parse(fs.readFileSync(file, 'utf8')).items);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
