/**
 * The supported Node.js versions are said once, in `engines`, and agree with the README and with every package the
 * lock file installs: `npm ci` prints no EBADENGINE on any of them.
 */
import * as fs from 'fs';
import * as path from 'path';

// semver has no bundled types; the two functions used here.
const semver: {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
} = require('semver');

const ROOT = path.join(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
const range: string = pkg.engines.node;

/** The lowest version of each release line the range admits (e.g. 20.19.0, 22.13.0, 24.0.0). */
const lowest = range.split('||').map((part) => semver.minVersion(part.trim())!.version);

describe('supported Node.js versions', () => {
  test('GIVEN package.json THEN engines names release lines, the README the same ones, and the lock file the same range', () => {
    expect(lowest.length).toBeGreaterThanOrEqual(2);
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`\`${range}\``);
    expect(lock.packages[''].engines.node).toBe(range);
  });

  test('GIVEN every package of the lock file THEN its engines admit the lowest version of every supported line and this Node.js', () => {
    const versions = [...lowest, process.versions.node];
    expect(semver.satisfies(process.versions.node, range)).toBe(true);
    const refused = Object.entries<any>(lock.packages)
      .filter(([name, p]) => name !== '' && typeof p.engines?.node === 'string')
      .flatMap(([name, p]) =>
        versions.filter((v) => !semver.satisfies(v, p.engines.node)).map((v) => `${name} (${p.engines.node}) refuses ${v}`),
      );
    expect(refused).toEqual([]);
  });
});
