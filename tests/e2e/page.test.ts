// End-to-end: the built page (dist/, from `vite build`) served under a sub-path and driven in
// Debian's headless Chromium via playwright-core. Any console error, page error, failed request
// or HTTP error fails the test; screenshots go to test-results/e2e/ for a human to look at.
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, requireChromium, shotsDir, useLab } from './harness';

const SCENARIO = 'scenarios/seek-rotate-transfer.json';

requireChromium();

describe.skipIf(!haveChromium)('the built page in headless Chromium', () => {
  const lab = useLab();
  const openPage = () => lab.openPage();
  const openLab = () => lab.openLab();

  /** The platter group's rotation transform. */
  const platterTransform = (page: Page) => page.getByTestId('platter').getAttribute('transform');

  it('opens on seek-rotate-transfer already playing: the platter turns', async () => {
    const { page, problems } = await openLab();
    expect(await page.title()).toContain('Spindle');
    await expect
      .poll(() => page.getByRole('region', { name: 'Lesson' }).locator('h2').textContent())
      .toContain('Seek, rotation, transfer');
    const first = await platterTransform(page);
    await page.waitForTimeout(400);
    const second = await platterTransform(page);
    expect(first).toMatch(/^rotate\(/);
    expect(second).not.toBe(first);
    await expect.poll(() => page.getByTestId('rate').textContent()).toContain('1 ms of disk time');
    await page.screenshot({ path: resolve(shotsDir, 'opening.png') });
    await page.waitForTimeout(2500);
    await page.screenshot({ path: resolve(shotsDir, 'opening-later.png') });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('holds the platter still while it is scrolled out of sight, and turns it when back', async () => {
    const { page, problems } = await openLab();
    await page.getByRole('region', { name: 'Charts' }).getByRole('tab', { name: 'All' }).click();
    await page.getByRole('region', { name: 'Charts' }).scrollIntoViewIfNeeded();
    await page.evaluate('window.scrollTo(0, document.scrollingElement.scrollHeight)');
    await page.waitForTimeout(300);
    const away = await platterTransform(page);
    await page.waitForTimeout(500);
    expect(await platterTransform(page)).toBe(away); // playing, but not drawn
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(1);
    await page.evaluate('window.scrollTo(0, 0)');
    await expect.poll(() => platterTransform(page)).not.toBe(away);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('pauses, plays, steps, and changes speed', async () => {
    const { page, problems } = await openLab();
    await page.getByRole('button', { name: 'Pause' }).click();
    const paused = await platterTransform(page);
    await page.waitForTimeout(300);
    expect(await platterTransform(page)).toBe(paused);

    const clock = page.getByTestId('clock');
    const before = await clock.textContent();
    await page.getByRole('button', { name: 'Step to the next event' }).click();
    await page.getByRole('button', { name: 'Step to the next event' }).click();
    await expect.poll(() => clock.textContent()).not.toBe(before);
    const stepped = await clock.textContent();
    await page.getByRole('button', { name: 'Step back' }).click();
    await expect.poll(() => clock.textContent()).not.toBe(stepped);
    await page.getByRole('button', { name: 'Step to the next decision' }).click();
    await page.screenshot({ path: resolve(shotsDir, 'stepped.png') });

    const rate = page.getByTestId('rate');
    const slow = await rate.textContent();
    await page.getByRole('slider', { name: 'Speed' }).fill('6');
    await expect.poll(() => rate.textContent()).toBe('real time');
    expect(slow).not.toBe('real time');
    // The shortcut works wherever focus is not in a text field or slider.
    // A string: this file is checked without the DOM lib.
    await page.evaluate('document.activeElement?.blur()');
    await page.keyboard.press('-');
    await expect.poll(() => rate.textContent()).not.toBe('real time');

    await page.getByRole('button', { name: 'Play' }).click();
    const playing = await platterTransform(page);
    await page.waitForTimeout(300);
    expect(await platterTransform(page)).not.toBe(playing);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('is operable by keyboard alone: Tab to the play button, Space, and ? for help', async () => {
    const { page, problems } = await openLab();
    let found = false;
    for (let i = 0; i < 40 && !found; i++) {
      await page.keyboard.press('Tab');
      const label = await page.evaluate("document.activeElement?.getAttribute('aria-label')");
      found = label === 'Pause' || label === 'Play';
    }
    expect(found).toBe(true);
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Play' }).waitFor();
    const paused = await platterTransform(page);
    await page.waitForTimeout(250);
    expect(await platterTransform(page)).toBe(paused);
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Pause' }).waitFor();

    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.screenshot({ path: resolve(shotsDir, 'help.png') });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('switches lessons from the picker and shows queues and decisions', async () => {
    const { page, problems } = await openLab();
    const heading = page.getByRole('region', { name: 'Lesson' }).locator('h2');
    for (const [file, title, shot] of [
      ['ostep-fifo-vs-satf.json', 'disk.py', 'lesson-ostep.png'],
      ['cfq-fairness.json', 'CFQ fairness', 'lesson-cfq.png'],
      ['c2247a-random-read.json', 'HP C2247A', 'lesson-c2247a.png'],
    ] as const) {
      await page.getByRole('combobox', { name: 'Lesson' }).selectOption(file);
      await expect.poll(() => heading.textContent(), { timeout: 30_000 }).toContain(title);
      await page.waitForTimeout(1200);
      await page.getByRole('button', { name: 'Step to the next decision' }).click();
      await page.waitForTimeout(400);
      await page.screenshot({ path: resolve(shotsDir, shot) });
    }
    await page.getByRole('combobox', { name: 'Filter decisions by layer' }).selectOption('disk');
    expect(await page.getByTestId('decision-list').locator('li').count()).toBeGreaterThan(0);
    // Clicking a decision moves the timeline to it.
    const line = page.getByTestId('decision-list').locator(':scope > li > button').last();
    const when = (await line.locator('.when').textContent()) ?? '';
    await line.click();
    await expect.poll(() => page.getByTestId('clock').textContent()).toBe(`t = ${when}`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('marks a sync write’s chip with blktrace’s S: TPC-B’s commits, not its page writes', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=tpcb.json');
    const queues = page.getByRole('region', { name: 'Queues' });
    const sync = queues.locator('.chip[data-sync]');
    await expect.poll(() => sync.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await sync.first().getAttribute('title')).toMatch(/: sync write, sector \d+/);
    // the S is drawn, not text: the chip still reads "#id sectors FIRST–LAST"
    expect(await sync.first().textContent()).toMatch(/^#\d+ sectors? \d+(–\d+)?$/);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('runs again with the seed typed in', async () => {
    const { page, problems } = await openLab();
    await page.getByRole('combobox', { name: 'Lesson' }).selectOption('sptf-vs-fcfs.json');
    const region = page.getByRole('region', { name: 'Lesson' });
    await expect
      .poll(() => region.locator('h2').textContent(), { timeout: 30_000 })
      .toContain('Sixteen readers');
    await page.getByRole('spinbutton', { name: 'Seed' }).fill('4242');
    await page.getByRole('button', { name: 'Run again with this seed' }).click();
    await expect.poll(() => region.textContent(), { timeout: 30_000 }).toContain('seed 4242');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the run summary gives the layers’ counters and a row per process: the page cache and ext3’s journal, CFQ-ANN’s multiply-adds', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=postmark-fs.json&pc=1024');
    const box = page.locator('details.summary-box');
    await box.locator('summary').click();
    await expect
      .poll(() => box.textContent(), { timeout: 60_000 })
      .toContain('ext3 journal 1 (kjournald): commits');
    const text = (await box.textContent()) ?? '';
    expect(text).toContain('Reads served from memory / from the disk');
    expect(text).toContain('Pages written back (by the writers themselves)');
    const rows = box.getByTestId('summary-processes').locator('tbody tr th');
    expect(await rows.allTextContents()).toEqual(['postmark', 'kjournald', 'flush-8:0']);
    await lab.shot(page, 'run-summary-page-cache.png', true);
    // no page cache, no such tables; CFQ-ANN's network shows its cost
    await page.getByRole('combobox', { name: 'Lesson' }).selectOption('ffsb-cfq-ann.json');
    await expect
      .poll(() => box.textContent(), { timeout: 60_000 })
      .toContain('I/O scheduler multiply-adds');
    expect(await box.textContent()).not.toContain('Page cache');
    expect(await box.getByTestId('summary-processes').locator('tbody tr').count()).toBe(8);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('shows an invalid scenario as readable text naming the file and the key', async () => {
    const { page, problems } = await openPage();
    // Serve the real scenario with one unknown key added: the engine must reject it by name.
    await page.route(`**/${SCENARIO}`, async (route) => {
      const response = await route.fetch();
      const json = { ...(await response.json()), notARealKey: 1 };
      await route.fulfill({ response, json });
    });
    await page.goto(lab.url);
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
