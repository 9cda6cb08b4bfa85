// End-to-end: the page works offline after one visit (issue 16 item 7). The first load
// registers Workbox's service worker, which precaches the page and every lesson; then the
// browser context goes offline, and the page must reload and switch lessons from the cache,
// showing each lesson's own disk under its own title.
import { describe, expect, it } from 'vitest';
import { haveChromium, requireChromium, useLab } from './harness';

requireChromium();

describe.skipIf(!haveChromium)('offline after one visit', () => {
  const lab = useLab();

  it('reloads and switches lessons with the network gone', async () => {
    const { page, problems } = await lab.openPage();
    await page.goto(lab.url);
    await page.getByTestId('platter').waitFor({ timeout: 30_000 });
    // the service worker has installed (precached everything) and controls the page
    // (a string: this file is checked without the DOM lib)
    await expect
      .poll(() => page.evaluate('navigator.serviceWorker.controller !== null'), {
        timeout: 30_000,
      })
      .toBe(true);
    await page.context().setOffline(true);

    await page.reload();
    await page.getByTestId('platter').waitFor({ timeout: 30_000 });
    const title = page.getByRole('region', { name: 'Lesson' }).locator('h2');
    await expect.poll(() => title.textContent()).toContain('Seek, rotation, transfer');

    await page.getByRole('combobox', { name: 'Lesson' }).selectOption('deadline-promise.json');
    await expect
      .poll(() => title.textContent(), { timeout: 30_000 })
      .toContain("Deadline's promise");
    await page.getByTestId('platter').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await lab.shot(page, 'offline-lesson-switch.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
