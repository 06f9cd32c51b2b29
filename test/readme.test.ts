/**
 * Every TypeScript block of the README and of the guides in docs/ is complete as pasted: it type-checks (strict)
 * against the library as users import it, and runs — an app block synthesizes manifests, a jest block passes as a
 * jest test file — printing no warning unless the text announces it with `<!-- warns: <rule-id> … -->` on the line
 * before the block. A block of generated output, marked `<!-- output: <the test that checks it> -->` on the line
 * before it, is left to that test (e.g. the app `node-services import` writes, compiled and run by its own test).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..');
const OUT = path.join(__dirname, '.readme');

/** The Markdown documents users read: the README and every guide. */
const DOCUMENTS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md'));

interface Block {
  /** `README.md:123`: the document and the line of the opening fence. */
  readonly where: string;
  readonly code: string;
  /** The warnings the text announces (rule ids), from `<!-- warns: … -->` before the block. */
  readonly warns: string[];
  /** Whether the block is a jest test file (`test(…)` at the top level). */
  readonly jest: boolean;
  /**
   * What the block prints, when the text shows it: the ```text block right after a line ending in "prints:" or
   * "prints one error:" that follows the block. Such a block demonstrates a refusal: it writes no manifest.
   */
  readonly prints?: string;
  /** The file the block is written to. */
  file: string;
}

/** The line before a fenced block that marks it as generated output checked by another test. */
const OUTPUT_MARK = /^<!-- output: test\/\S+\.test\.ts\b.* -->$/;

/** The line of text before the block that starts at `index`. */
function lineBefore(text: string, index: number): string {
  return text.slice(0, index).trimEnd().split('\n').pop() ?? '';
}

/** Every ```ts / ```typescript / ```js block of `document` (but generated output marked as such). */
function blocksOf(document: string): Block[] {
  const text = fs.readFileSync(path.join(ROOT, document), 'utf8');
  const fenced = [...text.matchAll(/```(ts|typescript|js|javascript)\n([\s\S]*?)```/g)];
  for (const m of fenced.filter((m) => OUTPUT_MARK.test(lineBefore(text, m.index)))) {
    const test = /test\/\S+\.test\.ts/.exec(lineBefore(text, m.index))![0];
    if (!fs.existsSync(path.join(ROOT, test))) throw new Error(`${document}: a block is left to ${test}, which does not exist`);
  }
  return fenced
    .filter((m) => !OUTPUT_MARK.test(lineBefore(text, m.index)))
    .map((m) => {
      const line = text.slice(0, m.index).split('\n').length;
      const before = lineBefore(text, m.index);
      const warns =
        /^<!-- warns: (.*) -->$/
          .exec(before)?.[1]
          .split(/[\s,]+/)
          .filter(Boolean) ?? [];
      const after = /^\s*\n[^\n`]*\bprints(?: one error)?:\n\n```text\n([\s\S]*?)```/.exec(text.slice(m.index + m[0].length));
      return { where: `${document}:${line}`, code: m[2], warns, jest: /^test\(/m.test(m[2]), prints: after?.[1], file: '' };
    });
}

const blocks = DOCUMENTS.flatMap(blocksOf);
fs.rmSync(OUT, { recursive: true, force: true });
fs.mkdirSync(path.join(OUT, 'jest'), { recursive: true });
blocks.forEach((b, i) => {
  const name = `${b.where.replace(/[^A-Za-z0-9]+/g, '-')}-${i}`;
  b.file = b.jest ? path.join(OUT, 'jest', `${name}.spec.ts`) : path.join(OUT, `${name}.ts`);
  fs.writeFileSync(b.file, `export {};\n${b.code}`);
});

/** Runs `block` in this process with its own outdir; returns what it wrote to stderr and the files it synthesized. */
function run(block: Block): { stderr: string; stdout: string; written: string[]; outdir: string } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-synth-'));
  const previous = process.env.CDK8S_OUTDIR;
  process.env.CDK8S_OUTDIR = outdir;
  let stderr = '';
  let stdout = '';
  const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => {
    stderr += String(chunk);
    return true;
  });
  const spies = (['warn', 'error', 'log'] as const).map((level) =>
    jest.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      if (level !== 'log') stderr += `${args.join(' ')}\n`;
      else stdout += `${args.join(' ')}\n`;
    }),
  );
  try {
    jest.isolateModules(() => require(block.file));
  } finally {
    write.mockRestore();
    spies.forEach((s) => s.mockRestore());
    if (previous === undefined) delete process.env.CDK8S_OUTDIR;
    else process.env.CDK8S_OUTDIR = previous;
  }
  const written = (fs.readdirSync(outdir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(outdir, f)).isFile());
  return { stderr, stdout, written, outdir };
}

describe('the code blocks of the README and the guides', () => {
  test('GIVEN the README and the guides THEN they have code blocks, the README at least one complete app', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(20);
    expect(blocks.filter((b) => b.where.startsWith('README.md:') && /\bapp\.synth\(\)/.test(b.code)).length).toBeGreaterThanOrEqual(1);
  });

  test('GIVEN every block THEN it is complete as pasted: it imports the library and synthesizes (or is a jest test)', () => {
    const incomplete = blocks
      .filter((b) => !b.code.includes("from 'cdk8s-node-services'") || !(b.jest || /\b(app|fleet)\.synth\(\)/.test(b.code)))
      .map((b) => b.where);
    expect(incomplete).toEqual([]);
  });

  test('GIVEN every block THEN it type-checks (strict) against the library as published', () => {
    const program = ts.createProgram(
      blocks.map((b) => b.file),
      {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        esModuleInterop: true,
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        moduleResolution: ts.ModuleResolutionKind.Node10,
        types: ['node', 'jest'],
        typeRoots: [path.join(ROOT, 'node_modules', '@types')],
        baseUrl: ROOT,
        paths: { 'cdk8s-node-services': ['src/index.ts'] },
      },
    );
    const where = new Map(blocks.map((b) => [b.file, b.where]));
    const messages = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && where.has(path.resolve(d.file.fileName)))
      .map((d) => {
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        const [doc, start] = where.get(path.resolve(d.file!.fileName))!.split(':');
        return `${doc}:${Number(start) + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    expect(messages).toEqual([]);
  }, 120_000);

  const apps = blocks.filter((b) => !b.jest);
  test.each(apps.map((b) => [b.where, b] as const))(
    'GIVEN the block at %s WHEN run THEN it synthesizes manifests and prints only the warnings the text announces',
    (_where, block) => {
      const { stderr, stdout, written, outdir } = run(block);
      try {
        const yaml = written.map((f) => fs.readFileSync(path.join(outdir, f), 'utf8')).join('\n');
        if (block.prints !== undefined) {
          // A refusal shown in the text: exactly what the text shows is printed, and no manifest is written.
          expect(stdout).toBe(block.prints);
          expect(written).toEqual([]);
        } else expect(yaml).toMatch(/^kind: /m);
        if (block.warns.length === 0) expect(stderr).toBe('');
        else for (const id of block.warns) expect(stderr).toContain(`${id}:`);
      } finally {
        fs.rmSync(outdir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  test('GIVEN the fleet block THEN it writes one folder per cluster and the GitOps objects', () => {
    const fleet = apps.find((b) => /\bfleet\.synth\(\)/.test(b.code) && b.code.includes("'edge-eu'"));
    expect(fleet).toBeDefined();
    const { written, outdir } = run(fleet!);
    fs.rmSync(outdir, { recursive: true, force: true });
    expect(written).toEqual(
      expect.arrayContaining([path.join('clusters', 'edge-eu', 'node-agents.k8s.yaml'), path.join('gitops', 'argocd.k8s.yaml')]),
    );
  }, 60_000);

  const jestBlocks = blocks.filter((b) => b.jest);
  test('GIVEN the jest blocks WHEN run by jest as test files THEN they pass', () => {
    expect(jestBlocks.length).toBeGreaterThan(0);
    const config = {
      rootDir: ROOT,
      roots: ['<rootDir>/test/.readme/jest'],
      testMatch: ['**/*.spec.ts'],
      testEnvironment: 'node',
      transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', isolatedModules: true }] },
      moduleNameMapper: { '^cdk8s-node-services$': '<rootDir>/src/index.ts' },
    };
    const r = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--ci=false', '--config', JSON.stringify(config)], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect([r.status, r.stderr]).toEqual([0, expect.stringContaining(`Tests:       ${jestBlocks.length} passed`)]);
  }, 120_000);
});
