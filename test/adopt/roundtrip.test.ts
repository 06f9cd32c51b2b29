import * as fs from 'fs';
import * as path from 'path';
import { importManifests } from '../../src/adopt';
import { importFixture, REAL_WORLD, RUNTIME } from './support';

const fixtures = fs.readdirSync(REAL_WORLD).filter((f) => f.endsWith('.yaml'));

/**
 * The files with the lines that must differ made equal: why the kind was chosen (the first input's shape; the second
 * input carries the kind annotation the first import's output declares), and so why the construct was (the inferred
 * kind's allowlists the first time, the declared kind the second); the construct itself is compared.
 */
function comparable(files: ReadonlyMap<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, text] of files)
    out[name] = text.replace(/^( \* Built with \w+ \(kind [a-z-]+\)): .*$/gm, '$1: …').replace(/^( \* Chose \w+): .*$/gm, '$1: …');
  return out;
}

describe('importing the synthesized output again', () => {
  test.each(fixtures)(
    'GIVEN the app imported from %s WHEN its synthesized output is imported again THEN that checks clean, synthesizes the same objects and writes the same code',
    async (f) => {
      const first = await importFixture(path.join(REAL_WORLD, f));
      expect(first.report.unexplained).toBe(0);
      const again = first.synthesized.map((object) => ({ object, file: `test/fixtures/real-world/${f}` }));
      const second = await importManifests(again, { runtime: RUNTIME, check: true });
      expect(second.report.problems).toEqual([]);
      expect(second.report.unexplained).toBe(0);
      expect(second.synthesized).toEqual(first.synthesized);
      expect(comparable(second.files)).toEqual(comparable(first.files));
    },
    120_000,
  );
});
