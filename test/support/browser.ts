/**
 * Opens an HTML report in headless Chromium, driven by `playwright-core`, recording every request, console error and
 * page error, and optionally taking a screenshot. Shared by the report tests, the README screenshot script and the
 * report benchmark.
 *
 * The browser arrives with `npm ci`: the devDependency `@sparticuz/chromium` ships a headless Chromium inside the npm
 * package (pinned by the lock file), which {@link chromiumExecutable} unpacks once into the temporary folder. Nothing
 * is installed by hand; `CHROMIUM_PATH` points the tests at another Chromium when set.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { Page, chromium } from 'playwright-core';

import sparticuz from '@sparticuz/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What opening a report produced. */
export interface Opened<T> {
  /** Every URL the page requested (the report itself included). */
  readonly requests: string[];
  /** Console errors and uncaught page errors. */
  readonly errors: string[];
  /** Milliseconds from navigation start to the `load` event. */
  readonly loadMs: number;
  /** What `inspect` returned. */
  readonly result: T;
}

/**
 * The Chromium to drive: `CHROMIUM_PATH` when set, else the one shipped in `@sparticuz/chromium` (unpacked on first
 * use; jest's global set-up unpacks it before the workers start, so two workers never race on a half-written file).
 */
export async function chromiumExecutable(): Promise<string> {
  const configured = process.env.CHROMIUM_PATH;
  const executable = configured !== undefined && configured !== '' ? configured : await sparticuz.executablePath();
  requireChromium(executable);
  return executable;
}

/** Throws, saying how to get it, when Chromium is missing (a missing browser fails a check; it never skips it). */
export function requireChromium(executable: string): void {
  if (!fs.existsSync(executable)) {
    throw new Error(
      `${executable} is missing: the HTML report is checked in headless Chromium. \`npm ci\` installs one ` +
        '(the devDependency @sparticuz/chromium); set CHROMIUM_PATH to use another.',
    );
  }
}

/**
 * Opens the HTML file `file` in a fresh headless Chromium (its own temporary profile), runs `inspect` on the loaded
 * page, takes a screenshot to `screenshot` when given (of the whole page, or of the viewport when `height` is given), and closes the browser.
 */
export async function openReport<T>(
  file: string,
  inspect: (page: Page) => Promise<T>,
  options: { screenshot?: string; width?: number; height?: number } = {},
): Promise<Opened<T>> {
  const executablePath = await chromiumExecutable();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'node-services-chromium-'));
  // A persistent context on a fresh profile is Chromium's `--user-data-dir`, which playwright passes itself.
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath,
    args: ARGS,
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
  });
  try {
    const page = await browser.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => void requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => void errors.push(String(e)));
    const started = Date.now();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const loadMs = Date.now() - started;
    const result = await inspect(page);
    if (options.screenshot !== undefined) await page.screenshot({ path: options.screenshot, fullPage: options.height === undefined });
    return { requests, errors, loadMs, result };
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
