// End-to-end (issue #16 item 5): compare mode teaches. The Compare button opens each lesson's
// own comparison (range writes against fixed targets, the drive's schedulers for disk.py),
// "best" is marked only between runs that completed the same work, else a note says why
// none is, and every column has its decision log.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, requireChromium, useLab } from './harness';

requireChromium();

const query = (page: Page) => page.evaluate('window.location.search') as Promise<string>;

describe.skipIf(!haveChromium)('compare that teaches', () => {
  const lab = useLab();

  it('range writes: the Compare button puts the ordinary log beside range writes, with no error', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=range-writes-journal.json');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByTestId('compare-table').waitFor({ timeout: 120_000 });
    expect(await query(page)).toContain('cmp=2&c1.ranges=0');
    expect(await page.getByRole('alert').count()).toBe(0);
    // the same work (2,000 journal writes each): the faster column is marked
    expect(await page.getByTestId('no-best').count()).toBe(0);
    expect(await page.locator('.compare-table td.best').count()).toBeGreaterThan(0);
    // a decision log per column
    for (const c of ['A', 'B']) await page.getByText(`decisions of column ${c}`).waitFor();
    expect(await page.getByRole('region', { name: 'Decision log' }).count()).toBe(2);
    await lab.shot(page, 'compare-range-journal.png', true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('disk.py: the Compare button compares the drive’s schedulers', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=ostep-fifo-vs-satf.json');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByTestId('compare-table').waitFor({ timeout: 60_000 });
    expect(await query(page)).toContain('cmp=2&c1.dsched=fcfs&c2.dsched=sptf');
    const table = (await page.getByTestId('compare-table').textContent()) ?? '';
    expect(table).toContain('795.00 ms');
    expect(table).toContain('375.00 ms');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the SSD lesson: runs that did different work get no "best", and a note says why', async () => {
    // three columns of 34 processes each: the first platter comes late, so no openLab wait
    const { page, problems } = await lab.openPage();
    await page.goto(`${lab.url}?v=1&lesson=ssd.json&cmp=3&c2.sched=deadline&c3.sched=cfq`);
    await page.getByTestId('compare-table').waitFor({ timeout: 240_000 });
    expect(await page.locator('.compare-table td.best').count()).toBe(0);
    expect(await page.getByTestId('no-best').textContent()).toMatch(
      /No column is marked best: the runs did not complete the same work/,
    );
    await lab.shot(page, 'compare-ssd-no-best.png', true);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);
});
