// End-to-end: presenter view for a projector (issue 16 item 2). At 1280×720 and 1920×1080
// the disk, the decision log (its latest decision with the candidates it weighed), the
// queues, the playback controls and the clock are all inside the viewport, the page does
// not scroll, and no text on screen is under 18 px. Screenshots of three lessons go to
// test-results/e2e/presenter-*.png.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe';
import { haveChromium, requireChromium, useLab } from './harness';
import { textUnder } from './text-size';

requireChromium();

/** the element lies wholly inside the viewport and inside every ancestor that clips it */
async function inViewport(page: Page, el: Locator): Promise<boolean> {
  await el.waitFor();
  // a function body as a string: this file is checked without the DOM lib
  return (await el.evaluate(
    new Function(
      'el',
      `const r = el.getBoundingClientRect();
      const inside = (b) => r.left >= b.left - 0.5 && r.top >= b.top - 0.5 &&
        r.right <= b.right + 0.5 && r.bottom <= b.bottom + 0.5;
      if (!inside({ left: 0, top: 0, right: innerWidth, bottom: innerHeight })) return false;
      for (let a = el.parentElement; a; a = a.parentElement) {
        const o = getComputedStyle(a);
        if ((o.overflowX !== 'visible' || o.overflowY !== 'visible') && !inside(a.getBoundingClientRect()))
          return false;
      }
      return true;`,
    ) as (el: unknown) => boolean,
  )) as boolean;
}

const LESSONS = ['ostep-fifo-vs-satf.json', 'deadline-promise.json', 'cfq-fairness.json'];

describe.skipIf(!haveChromium)('presenter view', () => {
  const lab = useLab();

  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    for (const lesson of width === 1280 ? LESSONS : LESSONS.slice(0, 1)) {
      it(`${lesson} at ${width}×${height}: everything on one screen, no text under 18 px`, async () => {
        const { page, problems } = await lab.openPage({ width, height });
        await page.goto(`${lab.url}?lesson=${lesson}&present=1`);
        await page.getByTestId('platter').waitFor({ timeout: 30_000 });
        await page.getByRole('button', { name: 'Pause' }).click();
        // step until the latest decision weighed more than one candidate
        const candidates = page.getByRole('list', { name: 'Candidates of the latest decision' });
        for (let i = 0; i < 40 && (await candidates.count()) === 0; i++)
          await page.getByRole('button', { name: 'Step to the next decision' }).click();
        await candidates.waitFor();
        await lab.shot(page, `presenter-${lesson.replace('.json', '')}-${width}.png`);

        expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
        const log = page.getByRole('region', { name: 'Decision log' });
        for (const el of [
          page.locator('.disk-view svg'),
          log.locator('li.latest'),
          candidates,
          page.getByRole('region', { name: 'Queues' }).getByRole('heading', { level: 2 }),
          page.getByTestId('slots'),
          page.getByRole('button', { name: 'Play' }),
          page.getByRole('button', { name: 'Step to the next decision' }),
          page.getByTestId('clock'),
        ])
          expect(await inViewport(page, el), String(el)).toBe(true);
        // nothing scrolls
        expect(await page.evaluate('document.scrollingElement.scrollHeight')).toBeLessThanOrEqual(
          height,
        );
        const small = await textUnder(page, 18);
        expect(small, JSON.stringify(small.slice(0, 20), null, 1)).toEqual([]);
        // the queues' heading tells the clock's time
        const clock = (await page.getByTestId('clock').textContent())!;
        expect(await page.getByTestId('queues-time').textContent()).toBe(
          clock.replace(/^t = /, 'at t = '),
        );
        if (width === 1280) expect(await seriousViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
        await page.context().close();
      });
    }
  }

  it('the lesson text’s Try: steps are buttons there too: a step runs in presenter view', async () => {
    const { page, problems } = await lab.openPage({ width: 1280, height: 720 });
    await page.goto(`${lab.url}?lesson=deadline-promise.json&present=1`);
    await page.getByTestId('platter').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Lesson text' }).click();
    const lesson = page.getByRole('region', { name: 'Lesson' });
    const tries = lesson.getByRole('button', { name: /^Try:/ });
    await tries.first().waitFor();
    expect(await tries.count()).toBeGreaterThanOrEqual(2);
    await lesson.getByRole('button', { name: 'Try: noop instead of deadline' }).click();
    const query = () => page.evaluate('window.location.search') as Promise<string>;
    await expect.poll(query, { timeout: 30_000 }).toContain('sched=noop');
    expect(await query()).toContain('present=1');
    // still the presenter view, the run changed, the way back offered
    await expect
      .poll(() => lesson.getByTestId('changed-note').textContent(), { timeout: 30_000 })
      .toContain('I/O scheduler noop');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Leave presenter mode' }).count()).toBe(1);
    const back = lesson.getByRole('button', { name: "Back to the lesson's setup" });
    await lab.shot(page, 'presenter-try-step.png');
    // the side column scrolled to the step clicked; the way back is at the lesson's top
    await back.scrollIntoViewIfNeeded();
    expect(await inViewport(page, back)).toBe(true);
    expect(await textUnder(page, 18)).toEqual([]);
    await back.click();
    await expect.poll(query, { timeout: 30_000 }).not.toContain('sched=noop');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('opens the lesson text in the side column and back', async () => {
    const { page, problems } = await lab.openPage({ width: 1280, height: 720 });
    await page.goto(`${lab.url}?present=1`);
    await page.getByTestId('platter').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Lesson text' }).click();
    const lesson = page.getByRole('region', { name: 'Lesson' });
    await lesson.waitFor();
    expect(await inViewport(page, lesson.locator('h2'))).toBe(true);
    expect(await textUnder(page, 18)).toEqual([]);
    await lab.shot(page, 'presenter-lesson-text.png');
    await page.getByRole('button', { name: 'Lesson text' }).click();
    await page.getByRole('region', { name: 'Decision log' }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
