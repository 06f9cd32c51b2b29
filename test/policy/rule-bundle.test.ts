import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'bundle-rules.js');

/** A compiled catalogue in miniature: an index of two rules, a helper beside the folder, a package. */
function miniCatalogue(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rule-bundle-'));
  const write = (file: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write('policy/helpers.js', 'exports.instances = (globalThis.__helperLoads = (globalThis.__helperLoads || 0) + 1);\n');
  write('node_modules/some-package/index.js', 'exports.value = 42;\n');
  write('policy/rules/first-rule.js', `const h = require('../helpers');\nexports.first = { id: "first-rule", helper: h };\n`);
  write(
    'policy/rules/second-rule.js',
    `const h = require('../helpers');\nconst p = require('some-package');\nexports.second = { id: "second-rule", helper: h, value: p.value };\n`,
  );
  write('policy/rules/index.js', "exports.RULES = [require('./first-rule').first, require('./second-rule').second];\n");
  return root;
}

describe('scripts/bundle-rules.js', () => {
  test('GIVEN a compiled rule folder WHEN bundled THEN its index holds every rule and requires only what lies outside', () => {
    // GIVEN
    const root = miniCatalogue();
    const index = path.join(root, 'policy', 'rules', 'index.js');
    try {
      // WHEN
      const r = spawnSync(process.execPath, [SCRIPT, '--dir', path.join(root, 'policy', 'rules')], { encoding: 'utf8' });

      // THEN
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const text = fs.readFileSync(index, 'utf8');
      expect(text).not.toMatch(/require\("\.\/(first|second)-rule"\)/);
      expect(text).toContain('id: "first-rule"');
      expect(text).toContain('id: "second-rule"');
      expect(text).toContain('require("../helpers")');
      expect(text).toContain('require("some-package")');
      const loaded = spawnSync(
        process.execPath,
        ['-e', `const m = require(${JSON.stringify(index)}); process.stdout.write(JSON.stringify(m));`],
        {
          encoding: 'utf8',
        },
      );
      expect(JSON.parse(loaded.stdout)).toEqual({
        RULES: [
          { id: 'first-rule', helper: { instances: 1 } },
          { id: 'second-rule', helper: { instances: 1 }, value: 42 },
        ],
      });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
