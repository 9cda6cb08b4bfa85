// The shared set-up of every browser test file: the built page (dist/, or $SPINDLE_DIST when
// several people build at once) served under a sub-path, and Debian's headless Chromium driven
// by playwright-core. Any console error, page error, failed request or HTTP error is recorded
// as a problem the test asserts empty; screenshots go to test-results/e2e/ for a human to look at.
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { serveStatic, type StaticServer } from './static-server';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(chromiumPath);
const inCI = process.env.CI === 'true' || process.env.CI === '1';
export const distDir = resolve(process.env.SPINDLE_DIST ?? 'dist');
export const shotsDir = resolve('test-results/e2e');

/** TESTING.md: without the background-networking flags Chromium floods the closed network. */
const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Call once at the top of a test file. Without Chromium the file's tests are skipped with a
 * loud warning locally, and fail in CI (a run that silently skips the browser is not green).
 */
export function requireChromium(): void {
  if (haveChromium) return;
  const message =
    `Chromium not found at ${chromiumPath}. Install it with ` +
    '`apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium`, ' +
    'or set CHROMIUM_PATH.';
  if (inCI) {
    it('has Chromium to run the end-to-end tests (required when CI=true)', () => {
      throw new Error(message);
    });
  } else {
    console.warn(`\n!!! SKIPPING the end-to-end tests: ${message}\n`);
  }
}

export interface Lab {
  /** the page's address under its sub-path, e.g. http://127.0.0.1:PORT/some/sub/path/ */
  readonly url: string;
  /** a fresh context and page, recording every problem the browser reports */
  openPage(viewport?: { width: number; height: number }): Promise<Opened>;
  /** open the page (with an optional query/hash suffix) and wait for the disk view */
  openLab(suffix?: string): Promise<Opened>;
  shot(page: Page, name: string, fullPage?: boolean): Promise<void>;
}

export interface Opened {
  page: Page;
  problems: string[];
}

/** Start the server and the browser for this describe block (call inside describe). */
export function useLab(): Lab {
  let server: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(resolve(distDir, 'index.html'))) {
      throw new Error(`${distDir}/index.html is missing: build first (\`npm run test:e2e\` does).`);
    }
    mkdirSync(shotsDir, { recursive: true });
    server = await serveStatic(distDir, '/some/sub/path/');
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openPage(viewport = { width: 1100, height: 900 }): Promise<Opened> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('requestfailed', (req) => {
      const why = req.failure()?.errorText ?? '';
      // ERR_ABORTED: the test navigated away while the request (e.g. a lazy chunk) was in
      // flight — a cancellation, not a failure; a missing file shows as an HTTP error below
      if (why !== 'net::ERR_ABORTED') problems.push(`request failed: ${req.url()} ${why}`);
    });
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
    });
    return { page, problems };
  }

  return {
    get url() {
      return server.url;
    },
    openPage,
    async openLab(suffix = '') {
      const opened = await openPage();
      await opened.page.goto(server.url + suffix);
      // compare mode draws a platter per column: wait for the first
      await opened.page.getByTestId('platter').first().waitFor({ timeout: 30_000 });
      return opened;
    },
    async shot(page, name, fullPage = false) {
      await page.screenshot({ path: resolve(shotsDir, name), fullPage });
    },
  };
}
