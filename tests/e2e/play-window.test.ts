// End-to-end: a played window that starts later in the run. The switcher lesson opens where
// its `play.fromMs` says (a few seconds before its first switch to anticipatory), the clock
// and the scrubber start there, the decision list reaches the switch, and "play from" under
// the disk or a click on the whole run's charts plays another window (the link says `from=`). Any console error fails a
// test; screenshots go to test-results/e2e/play-window-*.png and are looked at.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, requireChromium, useLab } from './harness';

requireChromium();

const lessonInfo = (page: Page) =>
  page.getByRole('region', { name: 'Lesson' }).locator('p.muted').textContent();
/** The clock's reading in seconds ("t = 125.929 s"), scrolled into sight first: a clock out
 * of sight holds still, so read it through expect.poll (it catches up at its next frame). */
async function clockSeconds(page: Page): Promise<number> {
  const clock = page.getByTestId('clock');
  await clock.scrollIntoViewIfNeeded();
  const text = (await clock.textContent()) ?? '';
  const m = /t = ([\d.]+) (s|ms|µs|ns)/.exec(text);
  if (!m) return NaN;
  const scale = { s: 1, ms: 1e-3, µs: 1e-6, ns: 1e-9 }[m[2] as 's' | 'ms' | 'µs' | 'ns'];
  return Number(m[1]) * scale;
}
const query = (page: Page) => page.evaluate('window.location.search') as Promise<string>;

describe.skipIf(!haveChromium)('playing a window that starts later in the run', () => {
  const lab = useLab();

  it('opens the switcher lesson before its switch and reaches switch-to-anticipatory', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=fio-switcher.json');
    await expect
      .poll(() => lessonInfo(page), { timeout: 60_000 })
      .toMatch(/showing 125\.9–\d+\.\d s of the run/);
    await expect.poll(() => clockSeconds(page)).toBeGreaterThanOrEqual(125.9);
    const scrubber = page.getByLabel('Timeline');
    expect(Number(await scrubber.getAttribute('min'))).toBe(125.9e9);
    expect(await page.getByTestId('played-window').textContent()).toMatch(/^played 125\.9–/);
    // the requests alive at 125.9 s are on screen from its first instant
    const queued = page.getByRole('region', { name: 'Queues' }).locator('.chip');
    expect(await queued.count()).toBeGreaterThan(0);

    // to the switch (126.0 s) on the scrubber: the decision list shows it
    await page.getByRole('button', { name: 'Pause' }).click();
    // the range input snaps to its step ((end − start) / 2000): the first step at or past it
    const step = Number(await scrubber.getAttribute('step'));
    await scrubber.fill(String(125.9e9 + Math.ceil((126e9 - 125.9e9) / step) * step));
    // the decision log holds still while out of sight: look at it
    await page.getByRole('region', { name: 'Decision log' }).scrollIntoViewIfNeeded();
    await expect
      .poll(() => page.getByTestId('decision-list').textContent())
      .toContain('switch-to-anticipatory');
    await expect.poll(() => clockSeconds(page)).toBeGreaterThanOrEqual(126);
    await lab.shot(page, 'play-window-switch.png', true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the decision log filters by rule: the rules that fired, with counts; the next switch is a click away', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=fio-switcher.json');
    await expect
      .poll(() => lessonInfo(page), { timeout: 60_000 })
      .toMatch(/showing 125\.9–\d+\.\d s of the run/);
    await page.getByRole('button', { name: 'Pause' }).click();
    const rule = page.getByRole('combobox', { name: 'Filter decisions by rule' });
    // CFQ's and AS's own rules fire thousands of times; the switch once
    const options = await rule.locator('option').allTextContents();
    expect(options[0]).toBe('every rule');
    expect(options).toContain('switch-to-anticipatory (1)');
    await rule.selectOption('switch-to-anticipatory');
    // at 125.9 s the switch is still ahead: the log says so and offers to go there
    const list = page.getByRole('region', { name: 'Decision log' });
    await expect.poll(() => list.textContent()).toContain('No switch-to-anticipatory decision yet');
    await page.getByRole('button', { name: /Go to the next, at 126\.000 s/ }).click();
    await expect
      .poll(() => page.getByTestId('decision-list').locator('li').first().textContent())
      .toMatch(/switch-to-anticipatory.*SR 0\.\d\d ≥ 0\.75/);
    expect(await page.getByTestId('decision-list').locator('li').count()).toBe(1);
    await expect.poll(() => clockSeconds(page)).toBeCloseTo(126, 3);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('plays from a time typed under the disk, or clicked on the whole run’s chart; the link says from=', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=fio-switcher.json&from=0');
    await expect
      .poll(() => lessonInfo(page), { timeout: 60_000 })
      .toContain('showing the first part of the run');
    await expect.poll(() => clockSeconds(page)).toBeLessThan(60);
    const from = page.getByLabel(/^Play from \(s/);
    await from.fill('10');
    await page.getByRole('button', { name: 'Watch from there' }).click();
    await expect
      .poll(() => lessonInfo(page), { timeout: 60_000 })
      .toMatch(/showing 10\.0–\d+\.\d s of the run/);
    await expect.poll(() => clockSeconds(page)).toBeGreaterThanOrEqual(10);
    expect(await query(page)).toContain('from=10000000000');
    // Reset goes back to the window's start, not to 0
    await page.getByRole('button', { name: 'Reset to the start' }).click();
    await expect.poll(() => clockSeconds(page)).toBe(10);
    await lab.shot(page, 'play-window-from.png', true);

    // the whole run's charts: a click on a time chart plays from the time clicked
    const charts = page.getByRole('region', { name: 'Charts' });
    await charts.getByRole('button', { name: 'Chart the whole run' }).click();
    await charts.getByRole('button', { name: 'Show the part played' }).waitFor({ timeout: 60_000 });
    const plot = charts.getByTestId('chart-latency-over-time').locator('rect[fill="transparent"]');
    const box = (await plot.boundingBox())!;
    await plot.hover({ position: { x: box.width * 0.7, y: box.height / 2 } });
    expect(await charts.getByTestId('chart-readout').textContent()).toContain(
      'click or Enter: watch from here',
    );
    await plot.click({ position: { x: box.width * 0.7, y: box.height / 2 } });
    await expect
      .poll(() => lessonInfo(page), { timeout: 60_000 })
      .toMatch(/showing 1[0-9]{2}\.\d–\d+\.\d s of the run/);
    const start = Number(/from=(\d+)/.exec(await query(page))![1]) / 1e9;
    expect(start).toBeGreaterThan(100);
    await expect.poll(() => clockSeconds(page)).toBeGreaterThanOrEqual(start);
    await lab.shot(page, 'play-window-chart-click.png', true);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
