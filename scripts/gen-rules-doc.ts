/**
 * Writes docs/rules.md from the rule catalogue: `npx tsx scripts/gen-rules-doc.ts`.
 * A test regenerates the text in memory and fails when the committed file differs.
 */

import * as fs from 'fs';
import * as path from 'path';
import { renderRulesDoc } from '../src/policy/docs';

const target = path.join(__dirname, '..', 'docs', 'rules.md');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, renderRulesDoc());
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
