// End-to-end: range writes on the platter (issue #5 item 1's last clause, issue #6). The two
// range-write lessons are opened by link, stepped to a drive decision that weighed range
// writes, and the disk view must show the candidate ranges as arcs on their tracks (examined
// pieces with their estimates in a title, pruned ones marked), the block the drive chose, and
// the decision log's sentence for it. Any console error fails; screenshots in
// test-results/e2e/range-*.png are looked at.
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, requireChromium, shotsDir, useLab } from './harness';

requireChromium();

const lessonTitle = (page: Page) =>
  page.getByRole('region', { name: 'Lesson' }).locator('h2').textContent();

/** Pause, then step decision by decision until the drive's range decision is on screen. */
async function stepToRangeDecision(page: Page): Promise<void> {
  const pause = page.getByRole('button', { name: 'Pause' });
  if ((await pause.count()) > 0) await pause.click();
  const next = page.getByRole('button', { name: 'Step to the next decision' });
  for (let i = 0; i < 12; i++) {
    await next.click();
    if ((await page.getByTestId('range-chosen').count()) > 0) return;
  }
  throw new Error('no range decision with a chosen block within 12 decisions');
}

describe.skipIf(!haveChromium)('range writes on the platter', () => {
  const lab = useLab();

  it('small files: each waiting write as candidate ranges, the pieces HRS examined, the chosen block', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=range-writes-small-files.json');
    await expect
      .poll(() => lessonTitle(page), { timeout: 60_000 })
      .toContain('sixteen processes creating small files');
    await stepToRangeDecision(page);

    // Several writes weighed at once (QD 16): one group of arcs per write, one of them chosen.
    const groups = page.getByTestId('range-candidates');
    expect(await groups.count()).toBeGreaterThan(1);
    expect(await page.locator('[data-testid="range-candidates"][data-role="chosen"]').count()).toBe(
      1,
    );
    const examined = page.locator('[data-testid="range-piece"][data-state="examined"]');
    expect(await examined.count()).toBeGreaterThan(0);
    expect(
      await page
        .locator(
          '[data-testid="range-piece"][data-state="pruned"], [data-testid="range-piece"][data-state="unreached"]',
        )
        .count(),
    ).toBeGreaterThan(0);
    // An examined piece tells its estimate on hover (its <title>).
    expect(await examined.first().locator('title').textContent()).toMatch(
      /seek [\d.]+ (ms|µs) \+ rotation [\d.]+ (ms|µs|ns) = /,
    );
    const chosen = page.getByTestId('range-chosen');
    expect(await chosen.count()).toBe(1);
    const sector = await chosen.getAttribute('data-sector');
    expect(Number(sector)).toBeGreaterThan(0);

    // Unrolled below the platter (its tracks are a pixel apart there on this 2051-cylinder
    // disk): one row per candidate track, the chosen block ringed.
    await page.getByTestId('range-strip').waitFor();
    expect(await page.getByTestId('range-strip-chosen').count()).toBeGreaterThan(0);
    expect(
      await page.locator('[data-testid="range-strip-piece"][data-state="examined"]').count(),
    ).toBeGreaterThan(0);

    // The strip's caption is text that wraps (it was SVG text cut off at the right).
    expect(await page.getByTestId('range-strip-hidden').isVisible()).toBe(true);
    // The waiting writes' chips say where they may land, not the placeholder address.
    const chips = page.getByTestId('slots').locator('.chip');
    expect(await chips.first().textContent()).toMatch(/^#\d+ (s\d+…\d+|\d+ ranges)$/);

    // The decision log's latest line reads as the drive's range choice.
    const note = page.getByTestId('range-note');
    await expect.poll(() => note.textContent()).toContain(`→ block at sector ${sector}`);
    expect(await page.getByTestId('decision-list').locator('li').first().textContent()).toContain(
      'HRS',
    );
    await lab.shot(page, 'range-small-files.png', true);
    await page
      .locator('.disk-view')
      .screenshot({ path: resolve(shotsDir, 'range-small-files-disk.png') });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('journal: the whole log region as candidates, then the block written there', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=range-writes-journal.json');
    await expect.poll(() => lessonTitle(page), { timeout: 60_000 }).toContain('journal commits');
    await stepToRangeDecision(page);
    expect(await page.locator('[data-testid="range-candidates"][data-role="chosen"]').count()).toBe(
      1,
    );
    expect(await page.getByTestId('range-piece').count()).toBeGreaterThan(10);
    await expect
      .poll(() => page.getByTestId('range-note').textContent())
      .toContain('Range write #');
    // Step on through the seek and rotation: the chosen block stays drawn, filled with the
    // transfer colour while it is written; once the write completes its candidates are gone.
    const nextEvent = page.getByRole('button', { name: 'Step to the next event' });
    const sentence = page.getByTestId('phase-sentence');
    for (let i = 0; i < 8 && !(await sentence.textContent())?.startsWith('Transfer'); i++) {
      await nextEvent.click();
      expect(await page.getByTestId('range-chosen').count()).toBe(1);
    }
    expect(await sentence.textContent()).toMatch(/^Transfer: .*sector \d+/);
    await lab.shot(page, 'range-journal.png', true);
    await page
      .locator('.disk-view')
      .screenshot({ path: resolve(shotsDir, 'range-journal-transfer-disk.png') });
    for (let i = 0; i < 8 && (await page.getByTestId('range-chosen').count()) > 0; i++) {
      await nextEvent.click();
    }
    expect(await page.getByTestId('range-chosen').count()).toBe(0);
    expect(await page.getByTestId('range-candidates').count()).toBe(0);
    expect(await page.getByTestId('range-strip').count()).toBe(0);
    await stepToRangeDecision(page);
    await page
      .locator('.disk-view')
      .screenshot({ path: resolve(shotsDir, 'range-journal-disk.png') });
    expect(problems).toEqual([]);
    await page.context().close();
  });
  it('dark theme: the candidate tracks and the unrolled strip stay legible', async () => {
    const { page, problems } = await lab.openLab(
      '?v=1&lesson=range-writes-journal.json&theme=dark',
    );
    await expect.poll(() => lessonTitle(page), { timeout: 60_000 }).toContain('journal commits');
    await stepToRangeDecision(page);
    await page.getByTestId('range-strip').waitFor();
    await page
      .locator('.disk-view')
      .screenshot({ path: resolve(shotsDir, 'range-journal-dark-disk.png') });
    expect(problems).toEqual([]);
    await page.context().close();
  });
  it('compare mode: each column draws its own range decision (SPTF with HRS vs FCFS)', async () => {
    const { page, problems } = await lab.openLab(
      '?v=1&lesson=range-writes-small-files.json&cmp=2&c1.dsched=sptf&c2.dsched=fcfs',
    );
    await expect.poll(() => page.locator('.compare-col').count(), { timeout: 60_000 }).toBe(2);
    await expect
      .poll(() => page.getByTestId('range-candidates').count(), { timeout: 60_000 })
      .toBeGreaterThan(0);
    await lab.shot(page, 'range-compare.png', true);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
