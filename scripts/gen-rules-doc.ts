/**
 * Writes docs/rules.md from the rule catalogue, and the kind table of docs/kinds.md (between its markers) from the
 * kind table: `npx tsx scripts/gen-rules-doc.ts`. Tests regenerate both in memory and fail when a committed file differs.
 */

import * as fs from 'fs';
import * as path from 'path';
import { renderRulesDoc } from '../src/policy/docs';
import { KIND_TABLE_MARKERS, withKindTable } from '../src/policy/kinds-doc';

const docs = path.join(__dirname, '..', 'docs');
const rules = path.join(docs, 'rules.md');
fs.mkdirSync(docs, { recursive: true });
fs.writeFileSync(rules, renderRulesDoc());
process.stdout.write(`wrote ${path.relative(process.cwd(), rules)}\n`);

const kinds = path.join(docs, 'kinds.md');
const updated = withKindTable(fs.readFileSync(kinds, 'utf8'));
if (updated === undefined) {
  process.stderr.write(
    `${path.relative(process.cwd(), kinds)} has no line ${KIND_TABLE_MARKERS.start} followed by ${KIND_TABLE_MARKERS.end}\n`,
  );
  process.exitCode = 1;
} else {
  fs.writeFileSync(kinds, updated);
  process.stdout.write(`wrote the kind table of ${path.relative(process.cwd(), kinds)}\n`);
}
