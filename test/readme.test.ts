import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..');
const OUT = path.join(__dirname, '.readme');

/** Every ```ts block of the README that imports the library. */
function readmeExamples(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).filter((code) => code.includes("from 'cdk8s-node-services'"));
}

describe('README examples', () => {
  const examples = readmeExamples();
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const files = examples.map((code, i) => {
    const file = path.join(OUT, `example-${i}.ts`);
    fs.writeFileSync(file, `export {};\n${code}`);
    return file;
  });

  test('GIVEN the README THEN it has usage examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(2);
  });

  test('GIVEN every README example THEN it type-checks against the library as published', () => {
    const program = ts.createProgram(files, {
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
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file && files.includes(path.resolve(d.file.fileName)));
    const messages = diagnostics.map((d) => `${path.basename(d.file!.fileName)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(messages).toEqual([]);
  });

  test('GIVEN the README app examples WHEN run THEN they synthesize manifests', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-synth-'));
    const previous = process.env.CDK8S_OUTDIR;
    process.env.CDK8S_OUTDIR = outdir;
    try {
      const apps = files.filter((f) => /\b(app|fleet)\.synth\(\)/.test(fs.readFileSync(f, 'utf8')));
      expect(apps.length).toBeGreaterThan(0);
      for (const file of apps) {
        jest.isolateModules(() => require(file));
      }
      // Apps write to the outdir, fleets below it (clusters/<name>/, gitops/).
      const written = (fs.readdirSync(outdir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(outdir, f)).isFile());
      expect(written.length).toBeGreaterThan(0);
      expect(written).toEqual(
        expect.arrayContaining([path.join('clusters', 'edge-eu', 'node-agents.k8s.yaml'), path.join('gitops', 'argocd.k8s.yaml')]),
      );
      const yaml = written.map((f) => fs.readFileSync(path.join(outdir, f), 'utf8')).join('\n');
      expect(yaml).toContain('kind: DaemonSet');
    } finally {
      if (previous === undefined) delete process.env.CDK8S_OUTDIR;
      else process.env.CDK8S_OUTDIR = previous;
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });
});
