/**
 * The README's "A new app in a minute", run as written by scripts/new-app-smoke.sh: this checkout packed with
 * `npm pack`, a new app made from an empty folder with the tarball, its peers, cdk8s-cli and tsx (`app: npx tsx
 * main.ts`), the README's example as main.ts, and `npx cdk8s synth`. Dependencies come from the npm cache.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

describe('a new app from the packed tarball', () => {
  test('GIVEN an empty folder WHEN the README steps are run THEN cdk8s synth writes the example YAML without a warning, and the time is printed', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    // GIVEN the README documents the steps the script runs
    expect(readme).toContain('npm install -D cdk8s-cli tsx');
    expect(readme).toContain("printf 'language: typescript\\napp: npx tsx main.ts\\n' > cdk8s.yaml");
    expect(readme).toContain('bash scripts/new-app-smoke.sh');
    // WHEN the script runs them
    const run = spawnSync('bash', [path.join(ROOT, 'scripts', 'new-app-smoke.sh')], { cwd: ROOT, encoding: 'utf8' });
    // THEN it synthesized the three DaemonSets and printed the time from the empty folder to the YAML
    expect([run.status, run.stderr]).toEqual([0, expect.not.stringContaining('rror')]);
    const timing = /new app: empty folder to YAML in (\d+\.\d) s \(3 DaemonSets in dist\/node-agents\.k8s\.yaml\)/.exec(run.stdout);
    expect(timing).not.toBeNull();
    process.stdout.write(`${timing![0]}\n`);
  }, 600_000);
});
