// End-to-end: the built page (dist/, from `vite build`) served under a sub-path and driven in
// Debian's headless Chromium via playwright-core. Any console error, page error, failed request
// or HTTP error fails the test; screenshots go to test-results/e2e/ for a human to look at.
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, type StaticServer } from './static-server';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(chromiumPath);
const inCI = process.env.CI === 'true' || process.env.CI === '1';
const distDir = resolve('dist');
const shotsDir = resolve('test-results/e2e');
const SCENARIO = 'scenarios/seek-rotate-transfer.json';

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

if (!haveChromium) {
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

describe.skipIf(!haveChromium)('the built page in headless Chromium', () => {
  let server: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(resolve(distDir, 'index.html'))) {
      throw new Error('dist/index.html is missing: build first (`npm run test:e2e` does).');
    }
    mkdirSync(shotsDir, { recursive: true });
    server = await serveStatic(distDir, '/some/sub/path/');
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Open the page in a fresh context, recording every problem the browser reports. */
  async function openPage(): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('requestfailed', (req) =>
      problems.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ''}`),
    );
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
    });
    return { page, problems };
  }

  /** The text of a row of the summary table, by its header. */
  async function summaryValue(page: Page, label: string): Promise<string> {
    const table = page.getByRole('table', { name: 'Run summary' });
    const row = table.locator('tr', { has: page.locator('th', { hasText: label }) });
    return (await row.locator('td').textContent())?.trim() ?? '';
  }

  it('runs the scenario in the worker and shows its summary', async () => {
    const { page, problems } = await openPage();
    await page.goto(server.url);
    await page.getByRole('table', { name: 'Run summary' }).waitFor({ timeout: 30_000 });

    expect(await page.title()).toContain('Spindle');
    expect(await page.locator('h2').textContent()).not.toBe('');
    expect(Number(await summaryValue(page, 'Requests completed'))).toBeGreaterThan(0);
    expect(Number.parseFloat(await summaryValue(page, 'IOPS'))).toBeGreaterThan(0);
    await page.screenshot({ path: resolve(shotsDir, 'summary.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('runs again with the seed typed in', async () => {
    const { page, problems } = await openPage();
    await page.goto(server.url);
    await page.getByRole('table', { name: 'Run summary' }).waitFor({ timeout: 30_000 });

    await page.getByLabel('Run again with seed').fill('4242');
    await page.getByRole('button', { name: 'Run' }).click();
    await page
      .getByRole('table', { name: 'Run summary' })
      .locator('tr', { has: page.locator('th', { hasText: 'Seed' }) })
      .locator('td', { hasText: /^4242$/ })
      .waitFor({ timeout: 30_000 });
    expect(Number(await summaryValue(page, 'Requests completed'))).toBeGreaterThan(0);
    await page.screenshot({ path: resolve(shotsDir, 'seed-4242.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows an invalid scenario as readable text naming the file and the key', async () => {
    const { page, problems } = await openPage();
    // Serve the real scenario with one unknown key added: the engine must reject it by name.
    await page.route(`**/${SCENARIO}`, async (route) => {
      const response = await route.fetch();
      const json = { ...(await response.json()), notARealKey: 1 };
      await route.fulfill({ response, json });
    });
    await page.goto(server.url);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    const text = (await alert.textContent()) ?? '';
    expect(text).toContain('seek-rotate-transfer.json');
    expect(text).toContain('notARealKey');
    await page.screenshot({ path: resolve(shotsDir, 'invalid-scenario.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
