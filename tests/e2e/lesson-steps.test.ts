// End-to-end (issue #16 item 1): every lesson is a walkthrough. For each lesson, each `Try:`
// button in its text runs exactly its step — the URL carries the step's settings, the run
// (or the compare columns) finishes, no error is shown, and the button says it is on screen —
// and "Back to the lesson's setup" returns to the lesson's own link.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, requireChromium, useLab } from './harness';

requireChromium();

const query = (page: Page) => page.evaluate('window.location.search') as Promise<string>;
const lessons = (
  JSON.parse(readFileSync(join(__dirname, '../../public/scenarios/index.json'), 'utf8')) as {
    lessons: Array<{ file: string }>;
  }
).lessons.map((l) => l.file);

/** The step's own settings, each `key=value` as the page's canonical link writes it. */
const pairs = (q: string) => [...new URLSearchParams(q).entries()].map(([k, v]) => `${k}=${v}`);

async function settled(page: Page, compare: boolean) {
  await expect.poll(() => page.getByText('running…').count(), { timeout: 240_000 }).toBe(0);
  if (compare) await page.getByTestId('compare-table').waitFor({ timeout: 240_000 });
  else await page.locator('.disk-view').first().waitFor({ timeout: 240_000 }); // an SSD has no platter
  expect(await page.getByRole('alert').count()).toBe(0);
}

describe.skipIf(!haveChromium)('every lesson’s Try: steps', () => {
  const lab = useLab();

  it('predict first: the step waits for the guess, and the answer is the two runs’ figures', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=ostep-fifo-vs-satf.json');
    await settled(page, false);
    const lesson = page.getByRole('region', { name: 'Lesson' });
    await lesson.getByLabel('Predict before each step').check();
    const before = await query(page);
    await lesson.getByRole('button', { name: /^Try: shortest positioning time first/ }).click();
    const box = lesson.getByRole('group', { name: 'Predict first' });
    await box.getByText('will the time the run takes be higher, lower or about the same').waitFor();
    expect(await query(page)).toBe(before); // nothing runs before the guess
    await box.getByRole('button', { name: 'lower' }).click();
    await expect.poll(() => query(page), { timeout: 30_000 }).toContain('dsched=sptf');
    await expect
      .poll(() => box.getByTestId('predict-answer').textContent(), { timeout: 60_000 })
      .toMatch(/^Right: the time the run takes went from 795 to 375 ms \(lower\)/);
    await lab.shot(page, 'steps-predict.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.each(lessons)(
    '%s',
    async (file) => {
      // some lessons take long to run on a loaded machine: no openLab 30 s wait
      const { page, problems } = await lab.openPage();
      await page.goto(`${lab.url}?v=1&lesson=${file}`);
      await settled(page, false);
      const tries = page
        .getByRole('region', { name: 'Lesson' })
        .getByRole('button', { name: /^Try:/ });
      const n = await tries.count();
      expect(n).toBeGreaterThanOrEqual(2);
      const before = await query(page);
      for (let i = 0; i < n; i++) {
        const button = page
          .getByRole('region', { name: 'Lesson' })
          .getByRole('button', { name: /^Try:/ })
          .nth(i);
        const name = (await button.textContent()) ?? '';
        const q = (await button.getAttribute('title')) ?? '';
        await button.click();
        for (const pair of pairs(q))
          await expect.poll(() => query(page), { timeout: 30_000 }).toContain(pair);
        await settled(page, q.includes('cmp='));
        const again = page
          .getByRole('region', { name: 'Lesson' })
          .getByRole('button', { name, exact: true });
        expect(await again.first().getAttribute('aria-pressed'), name).toBe('true');
        if (i === 0) await lab.shot(page, `steps-${file.replace('.json', '')}.png`, true);
      }
      expect(await query(page)).not.toBe(before);
      await page.getByRole('button', { name: "Back to the lesson's setup" }).click();
      await expect.poll(() => query(page), { timeout: 30_000 }).toBe(before);
      await settled(page, false);
      expect(problems).toEqual([]);
      await page.context().close();
    },
    600_000,
  );
});
