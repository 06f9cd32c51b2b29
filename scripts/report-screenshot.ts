/**
 * Regenerates docs/coverage-report.png, the README's screenshot of the HTML coverage report: the examples' dist/ over
 * the test fixtures' nodes and pods, opened in headless Chromium as the browser test does.
 * Run: npx tsx scripts/report-screenshot.ts (the Chromium of `@sparticuz/chromium`, installed by `npm ci`).
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { openReport } from '../test/support/browser';
import { ROOT, writeExampleReport } from '../test/report/support';

async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-screenshot-'));
  try {
    const file = path.join(dir, 'report.html');
    await writeExampleReport(file);
    const out = path.join(ROOT, 'docs', 'coverage-report.png');
    // The matrix and the node tax: the top of the page.
    const opened = await openReport(file, async () => undefined, { screenshot: out, width: 1200, height: 1500 });
    if (opened.errors.length > 0) throw new Error(`the report logged errors: ${opened.errors.join('; ')}`);
    process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

run().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
