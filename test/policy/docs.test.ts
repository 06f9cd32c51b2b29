import * as fs from 'fs';
import * as path from 'path';
import { renderRulesDoc } from '../../src/policy/docs';
import { RULES } from '../../src/policy/rules';
import { KIND_TABLE_MARKERS, renderKindTable, withKindTable } from '../../src/policy/kinds-doc';
import { kindProfiles } from '../../src/policy/kinds';

describe('docs/rules.md', () => {
  test('is up to date with the catalogue (regenerate with `npx tsx scripts/gen-rules-doc.ts`)', () => {
    const committed = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'rules.md'), 'utf8');
    expect(committed).toBe(renderRulesDoc());
  });

  test('documents every rule with its severity, category, suppressibility, rationale, fix and example', () => {
    const doc = renderRulesDoc();
    for (const rule of RULES) {
      const start = doc.indexOf(`### \`${rule.id}\``);
      expect(start).toBeGreaterThan(0);
      const section = doc.slice(start, doc.indexOf('\n### ', start + 1) === -1 ? undefined : doc.indexOf('\n### ', start + 1));
      expect(section).toContain(`| ${rule.severity} | ${rule.category} | ${rule.suppressible ? 'yes' : 'no'} |`);
      expect(section).toContain(rule.rationale);
      expect(section).toContain(rule.fix);
      expect(section).toContain(rule.example);
    }
  });
});

describe('docs/kinds.md', () => {
  const committed = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'kinds.md'), 'utf8');

  test('holds the current kind table between its markers (regenerate with `npm run docs:rules`)', () => {
    expect(committed).toContain(KIND_TABLE_MARKERS.start);
    expect(withKindTable(committed)).toBe(committed);
  });

  test('the table has a row per kind, with every host path and capability of the kind', () => {
    const table = renderKindTable();
    for (const p of kindProfiles()) {
      const rows = table.split('\n').filter((l) => l.startsWith(`| \`${p.kind}\` |`));
      expect(rows).toHaveLength(2);
      for (const a of p.hostPaths ?? []) expect(rows[1]).toContain(`\`${a.path}\``);
      for (const c of p.capabilities ?? []) expect(rows[1]).toContain(c);
    }
  });
});
