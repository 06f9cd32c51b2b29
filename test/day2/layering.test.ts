import * as fs from 'fs';
import * as path from 'path';

const SRC = path.join(__dirname, '..', '..', 'src');

/** Every module `file` imports (relative ones resolved to files under src/, packages by name), transitively. */
function importsOf(file: string, seen = new Set<string>(), packages = new Set<string>()): { files: Set<string>; packages: Set<string> } {
  if (seen.has(file)) return { files: seen, packages };
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'|require\('([^']+)'\)/g)].map(
    (m) => m[1] ?? m[2],
  );
  for (const spec of specifiers) {
    if (!spec.startsWith('.')) {
      packages.add(spec);
      continue;
    }
    const base = path.resolve(path.dirname(file), spec);
    const resolved = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
    if (resolved) importsOf(resolved, seen, packages);
  }
  return { files: seen, packages };
}

describe('the day-2 modules load no cdk8s', () => {
  test.each(['day2/diff.ts', 'day2/plan.ts', 'day2/format.ts', 'cli/diff.ts', 'cli/plan.ts'])(
    '%s imports neither cdk8s, cdk8s-plus, constructs, core nor presets',
    (entry) => {
      const { files, packages } = importsOf(path.join(SRC, entry));
      const local = [...files].map((f) => path.relative(SRC, f));
      expect(local.filter((f) => f.startsWith('core') || f.startsWith('presets'))).toEqual([]);
      expect([...packages].filter((p) => p === 'cdk8s' || p.startsWith('cdk8s-plus') || p === 'constructs')).toEqual([]);
    },
  );

  test('the walk follows imports (the diff reaches the coverage engine and the Kubernetes grammar)', () => {
    const local = [...importsOf(path.join(SRC, 'cli/diff.ts')).files].map((f) => path.relative(SRC, f));
    expect(local).toEqual(expect.arrayContaining(['cli/io.ts', 'day2/diff.ts', 'coverage/analyze.ts', 'k8s/names.ts']));
  });

  test('src/day2 imports nothing from src/cli', () => {
    for (const file of fs.readdirSync(path.join(SRC, 'day2'))) {
      const local = [...importsOf(path.join(SRC, 'day2', file)).files].map((f) => path.relative(SRC, f));
      expect(local.filter((f) => f.startsWith('cli'))).toEqual([]);
    }
  });
});
