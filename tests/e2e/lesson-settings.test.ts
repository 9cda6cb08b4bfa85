// End-to-end (issue #16 item 1): every setting a lesson talks about is reachable in Settings —
// a process's I/O class and level, the drive's cache policy, range writes on/off (off where a
// lesson makes them, on where its random writes could be) and the run's length — and each
// runs, writes the link and names the change above the lesson text.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, requireChromium, useLab } from './harness';

requireChromium();

const query = (page: Page) => page.evaluate('window.location.search') as Promise<string>;
const changed = (page: Page) => page.getByTestId('changed-note').textContent();

async function settings(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  const form = page.getByRole('form', { name: 'Settings' });
  await form.waitFor();
  return form;
}

describe.skipIf(!haveChromium)('the settings every lesson mentions', () => {
  const lab = useLab();

  it('a process’s I/O class and level (cfq-fairness)', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=cfq-fairness.json');
    const form = await settings(page);
    await form.getByLabel('d: I/O class').selectOption('idle');
    await form.getByLabel('a: I/O level').selectOption('0');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect.poll(() => query(page), { timeout: 30_000 }).toContain('io.0=be.0&io.3=idle.4');
    await expect.poll(() => changed(page), { timeout: 30_000 }).toContain('process 3 idle');
    await lab.shot(page, 'settings-ioprio.png', true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the drive’s cache policy (queue-depth-write-back)', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=queue-depth-write-back.json');
    const form = await settings(page);
    const cache = form.getByLabel('drive cache');
    expect(await cache.inputValue()).toBe('write-back');
    await cache.selectOption('write-through');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect.poll(() => query(page), { timeout: 30_000 }).toContain('cache=write-through');
    await expect
      .poll(() => changed(page), { timeout: 30_000 })
      .toContain('drive cache write-through');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('range writes off (range-writes-journal) and the run’s length in requests', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=range-writes-journal.json');
    const form = await settings(page);
    await form.getByLabel('range writes').selectOption('off');
    await form.getByLabel('run length', { exact: true }).fill('300');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect
      .poll(() => query(page), { timeout: 30_000 })
      .toContain('ranges=0&stop.requests=300');
    await expect.poll(() => changed(page), { timeout: 30_000 }).toContain('range writes off');
    const summary = page.locator('details.summary-box');
    await summary.locator('summary').click();
    await expect.poll(() => summary.textContent()).toMatch(/\b300\b/);
    // a length out of range is refused in words, and nothing runs
    await form.getByLabel('run length', { exact: true }).fill('0');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect
      .poll(() => form.locator('.field-error').first().textContent())
      .toContain('from 1 to 1,000,000');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('range writes on (c2247a-block-group-writes): the block group’s writes placed by the drive', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=c2247a-block-group-writes.json');
    const summary = page.locator('details.summary-box');
    await summary.locator('summary').click();
    const before = await summary.textContent();
    const form = await settings(page);
    const ranges = form.getByLabel('range writes');
    expect(await ranges.inputValue()).toBe('off');
    await ranges.selectOption('on');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect.poll(() => query(page), { timeout: 30_000 }).toContain('ranges=1');
    await expect.poll(() => changed(page), { timeout: 30_000 }).toContain('range writes on');
    // another run: the summary's figures change (the drive writes where the head is)
    await expect.poll(() => summary.textContent(), { timeout: 30_000 }).not.toBe(before);
    await lab.shot(page, 'settings-ranges-on.png', true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the run’s length in time, and the page cache and kernel era on a generator lesson', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=tpcb.json');
    const form = await settings(page);
    await form.getByLabel('run length unit').selectOption('ms');
    await form.getByLabel('run length', { exact: true }).fill('2000');
    await form.getByLabel('page cache').selectOption('64');
    await form.getByLabel('kernel era').selectOption('2.6.16');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect
      .poll(() => query(page), { timeout: 30_000 })
      .toContain('kernel=2.6.16&pc=64&stop.timeMs=2000');
    await expect.poll(() => changed(page), { timeout: 30_000 }).toContain('2000 ms');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
