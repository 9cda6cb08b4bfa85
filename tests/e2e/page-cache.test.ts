// End-to-end: the page cache on the page — taking it out of its lesson from the settings,
// and 2.6.32's beside 6.18's in compare mode. Any console error fails a test.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, requireChromium, useLab } from './harness';

requireChromium();

/** What the page has on screen, read back from the URL it wrote. */
const query = (page: Page) => page.evaluate('window.location.search') as Promise<string>;

describe.skipIf(!haveChromium)('the page cache in the lab', () => {
  const lab = useLab();

  it('takes the page cache out of the page-cache lesson from the settings: the threads then queue their own writes', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=page-cache.json');
    await page.getByRole('button', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Settings' });
    const pc = form.getByLabel('page cache');
    expect(await pc.inputValue()).toBe('64');
    await pc.selectOption('0');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect.poll(() => query(page)).toContain('pc=0');
    await expect
      .poll(() => page.getByTestId('changed-note').textContent(), { timeout: 30_000 })
      .toContain('no page cache');
    // the legend names the fio threads, not the flusher (with the page cache a thread over
    // its dirty limit writes back too, so the flusher's leaving is what says the run changed)
    const charts = page.getByRole('region', { name: 'Charts' });
    await expect.poll(() => charts.getByText('flush-8:0').count(), { timeout: 30_000 }).toBe(0);
    // (the charts' series come from their worker: the legend may be empty a moment first)
    for (const k of [0, 1, 2, 3])
      await expect
        .poll(() => charts.getByText(new RegExp(`^rand-write-?${k}$`)).count(), { timeout: 30_000 })
        .toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('compares 2.6.32’s page cache with 6.18’s: the table counts the pages the writers wrote back themselves', async () => {
    const { page, problems } = await lab.openLab(
      '?v=1&lesson=page-cache.json&cmp=2&c2.kernel=6.18&c2.sched=mq-deadline',
    );
    const table = page.getByTestId('compare-table');
    await table.waitFor({ timeout: 60_000 });
    const row = table.locator('tr', { hasText: 'pages written back (by the writers themselves)' });
    await expect.poll(() => row.locator('td').count(), { timeout: 60_000 }).toBe(2);
    const [a, b] = await row.locator('td').allTextContents();
    // 2.6.32: the throttled fio threads write back too; 6.18: only the flusher writes
    expect(Number(/\((\d+)\)/.exec(a!)![1])).toBeGreaterThan(0);
    expect(b).toMatch(/^\d+ \(0\)$/);
    // the columns say which kernel, where it is not the default 2.6.32
    const heads = await table.locator('th').allTextContents();
    expect(heads.some((h) => h.includes('mq-deadline (kernel 6.18)'))).toBe(true);
    expect(heads.some((h) => h.includes('deadline ·') && !h.includes('kernel'))).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);
});
