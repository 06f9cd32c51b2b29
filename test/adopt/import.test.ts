import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as prettier from 'prettier/standalone';
import * as estree from 'prettier/plugins/estree';
import * as tsPlugin from 'prettier/plugins/typescript';
import { ImportResult } from '../../src/adopt';
import { parseObjects } from '../../src/manifests';
import { checkManifests, Finding } from '../../src/policy/engine';
import { Severity } from '../../src/policy/types';
import { fixtureObjects, importFixture, REAL_WORLD, strictDiagnostics, writeFiles } from './support';

const ROOT = path.join(__dirname, '..', '..');
const OUT = path.join(ROOT, 'test', '.adopt');

const fixtures = fs.readdirSync(REAL_WORLD).filter((f) => f.endsWith('.yaml'));
const results = new Map<string, ImportResult>();

beforeAll(async () => {
  for (const f of fixtures) results.set(f, await importFixture(path.join(REAL_WORLD, f)));
}, 120_000);

describe('import of every real-world fixture', () => {
  test.each(fixtures)('GIVEN %s WHEN imported with --check THEN no difference is unexplained', (f) => {
    const { report } = results.get(f)!;
    expect(report.problems).toEqual([]);
    expect(report.services.length).toBeGreaterThan(0);
    const unexplained = report.services.flatMap((s) => (s.differences ?? []).filter((d) => d.class === 'unexplained').map((d) => d.path));
    expect(unexplained).toEqual([]);
    expect(report.unexplained).toBe(0);
  });

  test.each(fixtures)(
    'GIVEN %s WHEN imported with --check THEN its synthesized app passes lint at error level, or the error is carried from the input with its reason',
    (f) => {
      const { report, synthesized } = results.get(f)!;
      // Linted here again, apart from the report, for the version the app targets: no error is left, and each
      // suppressed one the input had too.
      const config = { kubernetesVersion: report.target!.version };
      const errors = checkManifests(synthesized, config).findings.filter((x) => x.severity === Severity.ERROR);
      // (at any level: a kind the input's shape shows is held to its allowlists less strictly than a declared one)
      const inputFindings = checkManifests(
        fixtureObjects(path.join(REAL_WORLD, f)).map((o) => o.object),
        config,
      ).findings;
      const id = (x: Finding) => `${x.ruleId} ${x.object.kind} ${x.object.name}`;
      expect(errors.filter((x) => !x.suppressed).map(id)).toEqual([]);
      const carried = errors.filter((x) => x.suppressed);
      expect(carried.map(id).filter((c) => !inputFindings.map(id).includes(c))).toEqual([]);
      for (const c of carried) expect(c.suppressionReason).toMatch(/^carried from /);
      // The report says the same.
      expect(report.lint?.errors).toEqual([]);
      expect(report.lint?.carried.map((c) => `${c.ruleId} ${c.reason}`)).toEqual(carried.map((c) => `${c.ruleId} ${c.suppressionReason}`));
    },
  );

  test('GIVEN every generated app THEN it type-checks under tsc --strict against the library', () => {
    const files = fixtures.flatMap((f) => writeFiles(results.get(f)!, path.join(OUT, f.replace(/\.yaml$/, ''))));
    const messages = strictDiagnostics(files, OUT);
    expect(messages).toEqual([]);
    // No `any` in what a reviewer reads.
    for (const file of files) expect(fs.readFileSync(file, 'utf8')).not.toMatch(/\bany\b(?![-\w])/);
  }, 180_000);

  test('GIVEN every generated file WHEN formatted with prettier THEN it is unchanged', async () => {
    for (const f of fixtures) {
      for (const [name, text] of results.get(f)!.files) {
        expect({ file: `${f}/${name}`, text: await prettier.format(text, { parser: 'typescript', plugins: [tsPlugin, estree] }) }).toEqual({
          file: `${f}/${name}`,
          text,
        });
      }
    }
  });

  test.each(['fluent-bit-helm.yaml', 'calico-node.yaml', 'aws-ebs-csi-node.yaml', 'kube-proxy.yaml'])(
    'GIVEN the generated app of %s WHEN its main.ts runs THEN it synthesizes what --check compared',
    (f) => {
      const result = results.get(f)!;
      const dir = path.join(OUT, `run-${f.replace(/\.yaml$/, '')}`);
      writeFiles(result, dir);
      const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'adopt-run-'));
      const previous = process.env.CDK8S_OUTDIR;
      process.env.CDK8S_OUTDIR = outdir;
      try {
        jest.isolateModules(() => require(path.join(dir, 'main.ts')));
        const written = fs.readdirSync(outdir).filter((n) => n.endsWith('.yaml'));
        expect(written.length).toBe(1);
        const objects = parseObjects(fs.readFileSync(path.join(outdir, written[0]), 'utf8'), written[0]).map((o) => o.object);
        expect(objects).toEqual(result.synthesized);
      } finally {
        if (previous === undefined) delete process.env.CDK8S_OUTDIR;
        else process.env.CDK8S_OUTDIR = previous;
        fs.rmSync(outdir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
