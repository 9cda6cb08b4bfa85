// End-to-end: orientation and speed (issue 16 items 3, 4 and 8). A first visit gets an
// introduction, dismissed once and remembered, and shown again from the help overlay; the
// speed goes to a thousand times real time; the controls jump to the next decision of the
// rule chosen in the decision log and to the end; the phone layout (390×844) has no text
// under 12 px.
import { describe, expect, it } from 'vitest';
import { haveChromium, requireChromium, useLab } from './harness';
import { textUnder } from './text-size';

requireChromium();

describe.skipIf(!haveChromium)('orientation and speed', () => {
  const lab = useLab();

  it('a first visit gets the introduction; dismissed, it stays away after a reload', async () => {
    const { page, problems } = await lab.openLab();
    const intro = page.getByRole('region', { name: 'New here? What you are looking at' });
    await intro.waitFor();
    await lab.shot(page, 'intro.png');
    expect(await intro.textContent()).toContain('Lesson menu');
    await intro.getByRole('button', { name: 'Got it' }).click();
    await intro.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('platter').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500); // the remembered answer is read from IndexedDB
    expect(await intro.count()).toBe(0);
    // the help overlay shows it again
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await page.getByRole('button', { name: 'Show the introduction' }).click();
    await intro.waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('plays at up to 1000× real time; jumps to the next decision of a rule and to the end', async () => {
    const { page, problems } = await lab.openLab('?lesson=deadline-promise.json');
    await page.getByRole('button', { name: 'Pause' }).click();
    const rate = page.getByTestId('rate');
    await page.getByRole('slider', { name: 'Speed' }).fill('9');
    await expect
      .poll(() => rate.textContent())
      .toBe('1000× real time (1 s of disk time = 1.00 ms on screen)');

    const clock = page.getByTestId('clock');
    const rule = page.getByRole('combobox', { name: 'Filter decisions by rule' });
    // a rule that fired at least twice (its count is in the option's text)
    const options = await rule.locator('option').allTextContents();
    const i = options.findIndex(
      (o, k) => k > 0 && Number(/\(([\d,]+)\)$/.exec(o)?.[1]?.replace(/,/g, '')) >= 2,
    );
    expect(i, options.join(', ')).toBeGreaterThan(0);
    const name = (await rule.locator('option').nth(i).getAttribute('value'))!;
    await rule.selectOption(name);
    const next = page.getByRole('button', { name: `Step to the next ${name} decision` });
    await next.click();
    const latest = page.getByTestId('decision-list').locator('li.latest');
    await expect.poll(() => latest.textContent()).toContain(name);
    const first = await clock.textContent();
    await next.click();
    await expect.poll(() => clock.textContent()).not.toBe(first);
    expect(await latest.textContent()).toContain(name);

    await page.getByRole('button', { name: 'Jump to the end' }).click();
    const end = await page.getByRole('slider', { name: 'Timeline' }).getAttribute('max');
    expect(await page.getByRole('slider', { name: 'Timeline' }).inputValue()).toBe(end);
    // Play from the end starts over, at 1000×: the whole window passes in well under a minute
    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('has no text under 12 px, anywhere on the page', async () => {
    const { page, problems } = await lab.openPage({ width: 390, height: 844 });
    await page.goto(lab.url);
    await page.getByTestId('platter').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    await lab.shot(page, 'phone.png', true);
    const small = await textUnder(page, 12, true);
    expect(small, JSON.stringify(small.slice(0, 30), null, 1)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
