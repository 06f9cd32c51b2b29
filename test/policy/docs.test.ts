import * as fs from 'fs';
import * as path from 'path';
import { renderRulesDoc } from '../../src/policy/docs';
import { RULES } from '../../src/policy/rules';

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
