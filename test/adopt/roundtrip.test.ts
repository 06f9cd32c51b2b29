import * as fs from 'fs';
import * as path from 'path';
import { importManifests } from '../../src/adopt';
import { importFixture, REAL_WORLD, RUNTIME } from './support';

/** Fixtures whose first import does not check clean (see import.test.ts). */
const SKIPPED = ['antrea-agent-windows.yaml', 'cilium-agent-helm-k8s-1.30.yaml'];
const fixtures = fs.readdirSync(REAL_WORLD).filter((f) => f.endsWith('.yaml') && !SKIPPED.includes(f));

describe('importing the synthesized output again', () => {
  test.each(fixtures)(
    'GIVEN the app imported from %s WHEN its synthesized output is imported again THEN that checks clean and synthesizes the same objects',
    async (f) => {
      const first = await importFixture(path.join(REAL_WORLD, f));
      expect(first.report.unexplained).toBe(0);
      const again = first.synthesized.map((object) => ({ object, file: `test/fixtures/real-world/${f}` }));
      const second = await importManifests(again, { runtime: RUNTIME, check: true });
      expect(second.report.problems).toEqual([]);
      expect(second.report.unexplained).toBe(0);
      expect(second.synthesized).toEqual(first.synthesized);
    },
    60_000,
  );
});
