/**
 * The folders of src/ form layers (k8s < manifests < coverage < day2 < policy < core < guardrails, observability,
 * presets, fleet < adopt < report < cli): no folder reaches, through any chain of imports, a folder that reaches it
 * back. Every kind of import counts — static imports, re-exports, `require` calls and type-only imports — because a
 * type-only cycle still ties the folders together for the reader and for the next change.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { filesUnder, moduleSpecifiers } from '../support/imports';

const SRC = path.join(__dirname, '..', '..', 'src');

/** Folder → folder → the imports that make the edge (`file imports specifier`). */
type FolderGraph = Map<string, Map<string, string[]>>;

/** The relative module specifiers a file names (see {@link moduleSpecifiers}). */
function specifiersOf(file: string): string[] {
  return moduleSpecifiers(file).filter((s) => s.startsWith('.'));
}

/** The top-level folder of a file under `root` (`(root)` for the files directly in it). */
function folderOf(root: string, file: string): string {
  const parts = path.relative(root, file).split(path.sep);
  return parts.length > 1 ? parts[0] : '(root)';
}

/** The folder-level import graph of the TypeScript files under `root`. */
function folderGraph(root: string): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const file of filesUnder(root)) {
    for (const spec of specifiersOf(file)) {
      const target = path.resolve(path.dirname(file), spec);
      if (path.relative(root, target).startsWith('..')) continue;
      const from = folderOf(root, file);
      const to =
        fs.existsSync(target) && fs.statSync(target).isDirectory() ? folderOf(root, path.join(target, 'index.ts')) : folderOf(root, target);
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from)!;
      edges.set(to, [...(edges.get(to) ?? []), `${path.relative(root, file).split(path.sep).join('/')} imports ${spec}`]);
    }
  }
  return graph;
}

/** The strongly connected groups of more than one folder (Tarjan), each sorted, in a stable order. */
function cycleGroups(graph: FolderGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Each cycle as a readable line: its folders, then every edge inside it with the first import that makes it. */
function cycles(graph: FolderGraph): string[] {
  return cycleGroups(graph).map((group) => {
    const edges = group.flatMap((a) =>
      group.flatMap((b) => {
        const why = graph.get(a)?.get(b);
        return why ? [`${a} → ${b} (${why[0]}${why.length > 1 ? ` and ${why.length - 1} more` : ''})`] : [];
      }),
    );
    return `${group.join(', ')}: ${edges.join('; ')}`;
  });
}

/** The graph without the edges `from>to` listed. */
function without(graph: FolderGraph, edges: readonly string[]): FolderGraph {
  return new Map([...graph].map(([from, tos]) => [from, new Map([...tos].filter(([to]) => !edges.includes(`${from}>${to}`)))]));
}

/** A synthetic src/ tree: file path → content. */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folder-cycles-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

/**
 * Edges still to be removed by moves that land separately: `policy/synth.ts` imports `core/shape` (which moves to
 * `k8s/`), and `policy/rules/guardrails-deny.ts` imports the pure guardrail modules (which move to `admission/`).
 * Once both have landed this list is emptied and the test below asserts `cycles(folderGraph(SRC))` is `[]`.
 */
describe('folder cycles', () => {
  test('GIVEN src/ WHEN the folder-level import graph is built THEN no folder reaches itself back (pending moves aside)', () => {
    const graph = folderGraph(SRC);
    expect(cycles(graph)).toEqual([]);
  });

  test('GIVEN a synthetic graph with a cycle and a tail THEN the cycle is listed with its edges, the tail is not', () => {
    const graph: FolderGraph = new Map([
      ['a', new Map([['b', ['a/x.ts imports ../b/y']]])],
      ['b', new Map([['c', ['b/y.ts imports ../c/z', 'b/w.ts imports ../c']]])],
      [
        'c',
        new Map([
          ['a', ['c/z.ts imports ../a/x']],
          ['d', ['c/z.ts imports ../d/t']],
        ]),
      ],
      ['d', new Map()],
    ]);
    expect(cycles(graph)).toEqual([
      'a, b, c: a → b (a/x.ts imports ../b/y); b → c (b/y.ts imports ../c/z and 1 more); c → a (c/z.ts imports ../a/x)',
    ]);
    expect(cycles(without(graph, ['c>a']))).toEqual([]);
  });

  test('GIVEN a synthetic src/ tree THEN imports, re-exports, requires and type-only imports all make edges', () => {
    const root = tree({
      'low/a.ts': "import type { B } from '../high/b';\nexport const a = 1;\n",
      'high/b.ts': "export type B = number;\nexport { a } from '../low/a';\n",
      'side/c.ts': "const d = require('../deep/x') as typeof import('../deep/x');\n",
      'deep/x.ts': "import { c } from '../side';\n",
      'side/index.ts': 'export const c = 1;\n',
      'top.ts': "import '../outside';\nimport * as fs from 'fs';\n",
    });
    try {
      const graph = folderGraph(root);
      expect([...graph].map(([from, tos]) => [from, [...tos.keys()]]).sort()).toEqual([
        ['deep', ['side']],
        ['high', ['low']],
        ['low', ['high']],
        ['side', ['deep']],
      ]);
      expect(cycleGroups(graph)).toEqual([
        ['deep', 'side'],
        ['high', 'low'],
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
