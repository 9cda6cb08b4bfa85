// End-to-end: the configurable lab (issue #5 items 6, 7, 9, 10) — the settings panel made
// from the engine's tunables tables, the configuration in the URL (share-link round trip,
// hostile links), compare mode on one clock, presenter and embed modes, themes, and
// keyboard-only use of all of it. Any console error fails a test; screenshots go to
// test-results/e2e/lab-*.png and are looked at.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, requireChromium, useLab } from './harness';

requireChromium();

/** What the page has on screen, read back from the URL it wrote. */
const query = (page: Page) => page.evaluate('window.location.search') as Promise<string>;
const diskVisibility = (page: Page) =>
  page.evaluate(
    "getComputedStyle(document.querySelector('.disk-view')).visibility",
  ) as Promise<string>;
const lessonInfo = (page: Page) =>
  page.getByRole('region', { name: 'Lesson' }).locator('p.muted').textContent();

describe.skipIf(!haveChromium)('the configurable lab', () => {
  const lab = useLab();

  it('changes the I/O scheduler and a tunable from the settings panel; the URL follows', async () => {
    // A small lesson (four requests) switched to deadline by the link itself.
    const { page, problems } = await lab.openLab(
      '?v=1&lesson=seek-rotate-transfer.json&sched=deadline',
    );
    await expect.poll(() => lessonInfo(page), { timeout: 30_000 }).toContain('deadline');
    await page.getByRole('button', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Settings' });
    await form.waitFor();
    // The tunables come from the engine's table, by their Linux names.
    const readExpire = form.getByLabel('read_expire');
    expect(await readExpire.inputValue()).toBe('500');
    await readExpire.fill('-1');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect
      .poll(() => form.locator('.field-error').first().textContent())
      .toContain('read_expire must be from');
    expect(await readExpire.getAttribute('aria-invalid')).toBe('true');
    await lab.shot(page, 'lab-settings-invalid.png', true);
    await readExpire.fill('250');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect.poll(() => query(page)).toContain('t.read_expire=250');

    await form.getByLabel('scheduler', { exact: true }).selectOption('noop');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect.poll(() => lessonInfo(page), { timeout: 30_000 }).toContain('noop');
    const q = await query(page);
    expect(q).toContain('sched=noop');
    expect(q).not.toContain('read_expire'); // noop has no tunables; deadline's went with it
    await lab.shot(page, 'lab-settings.png', true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('mq-deadline runs on kernel 6.18 unless told otherwise; the kernel era follows the scheduler', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=merging.json');
    await page.getByRole('button', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Settings' });
    expect(await form.getByLabel('kernel era').inputValue()).toBe('2.6.32');
    await form.getByLabel('scheduler', { exact: true }).selectOption('mq-deadline');
    expect(await form.getByLabel('kernel era').inputValue()).toBe('6.18');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect.poll(() => lessonInfo(page), { timeout: 30_000 }).toContain('mq-deadline');
    expect(await query(page)).not.toContain('kernel='); // the default, so not in the link
    // and 2.6.32 can still be chosen for it, which the link then says
    await form.getByLabel('kernel era').selectOption('2.6.32');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect.poll(() => query(page)).toContain('kernel=2.6.32');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('picks a workload generator’s variant (two kernel builds → four) from the settings', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=kernel-builds.json');
    await page.getByRole('button', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Settings' });
    const builds = form.getByLabel('kbuild builds');
    expect(await builds.inputValue()).toBe('2');
    await builds.selectOption('4');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect.poll(() => query(page)).toContain('w.kbuild.builds=4');
    await expect
      .poll(() => page.getByTestId('changed-note').textContent(), { timeout: 30_000 })
      .toContain('kbuild builds 4');
    // the run on screen has four builds: the breakdown chart has a bar for each
    const charts = page.getByRole('region', { name: 'Charts' });
    await charts.getByRole('tab', { name: 'Breakdown' }).click();
    await expect
      .poll(() => charts.getByText(/^make-?3$/).count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await lab.shot(page, 'lab-settings-workload.png', true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('reproduces a shared link exactly, including disk, depth, drive scheduler and time', async () => {
    const first = await lab.openLab('?v=1&lesson=sptf-vs-fcfs.json');
    await first.page.getByRole('button', { name: 'Settings' }).click();
    const form = first.page.getByRole('form', { name: 'Settings' });
    await form.getByLabel('queue depth').fill('8');
    await form.getByLabel('drive scheduler').selectOption('sptf');
    await form.getByLabel('HZ').selectOption('1000');
    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect
      .poll(() => lessonInfo(first.page), { timeout: 30_000 })
      .toContain('drive scheduler sptf');
    await first.page.getByRole('spinbutton', { name: 'Seed' }).fill('77');
    await first.page.getByRole('button', { name: 'Run again with this seed' }).click();
    await expect.poll(() => lessonInfo(first.page), { timeout: 30_000 }).toContain('seed 77');
    await first.page.getByRole('button', { name: 'Pause' }).click();
    await first.page.getByRole('button', { name: 'Step to the next decision' }).click();
    await first.page.getByRole('button', { name: 'Step to the next decision' }).click();
    const clock = await first.page.getByTestId('clock').textContent();
    await first.page.getByRole('button', { name: 'Share' }).click();
    await first.page.getByLabel('start paused at the current time').check();
    const link = await first.page.getByTestId('share-link').inputValue();
    expect(link).toMatch(/[?&]v=1&/);
    expect(link).toContain('qd=8');
    expect(link).toContain('dsched=sptf');
    expect(link).toContain('hz=1000');
    expect(link).toContain('seed=77');
    expect(link).toMatch(/[?&]at=\d+/);
    const info = await lessonInfo(first.page);
    expect(first.problems).toEqual([]);
    await first.page.context().close();

    const second = await lab.openPage();
    await second.page.goto(link);
    await second.page.getByTestId('platter').waitFor({ timeout: 30_000 });
    await expect.poll(() => lessonInfo(second.page), { timeout: 30_000 }).toBe(info);
    await expect.poll(() => second.page.getByTestId('clock').textContent()).toBe(clock);
    await second.page.getByRole('button', { name: 'Play' }).waitFor();
    await lab.shot(second.page, 'lab-shared-link.png');
    expect(second.problems).toEqual([]);
    await second.page.context().close();
  });

  it('reads a damaged or hostile link as plain text and falls back to defaults', async () => {
    const hostile =
      '?v=1&lesson=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E.json&sched=%3Cscript%3Ealert(1)%3C%2Fscript%3E' +
      '&t.read_expire=1e999&qd=-4&_hide=everything,seed&theme=%22%3E%3Cb%3Ebold&nonsense=%F0%9F%92%A5' +
      '&disk=no-such-disk&cmp=9';
    const { page, problems } = await lab.openLab(hostile);
    const box = page.getByRole('status', { name: 'Problems with this link' });
    await box.waitFor();
    const text = (await box.textContent()) ?? '';
    expect(text).toContain('is not a lesson file name');
    expect(text).toContain('is not a control that can be hidden');
    expect(text).toContain('there is no disk preset');
    expect(text).toContain('is not a setting this page knows');
    // Nothing from the URL became markup.
    expect(await page.locator('img[src="x"], script:has-text("alert")').count()).toBe(0);
    expect(await box.locator('b').allTextContents()).not.toContain('bold');
    // The default lesson runs; the one valid piece (_hide=seed) is honoured.
    await expect
      .poll(() => page.getByRole('region', { name: 'Lesson' }).locator('h2').textContent())
      .toContain('Seek, rotation, transfer');
    expect(await page.getByRole('spinbutton', { name: 'Seed' }).count()).toBe(0);
    await lab.shot(page, 'lab-hostile-link.png', true);
    await box.getByRole('button', { name: 'Dismiss' }).click();
    await box.waitFor({ state: 'detached' });

    // A link from a future version is not guessed at.
    await page.goto(`${lab.url}?v=9&sched=cfq`);
    await page
      .getByRole('status', { name: 'Problems with this link' })
      .getByText('this page reads version 1')
      .waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('compares schedulers side by side on one clock with a summary table', async () => {
    const { page, problems } = await lab.openLab(
      '?v=1&lesson=deadline-promise.json&cmp=2&c1.sched=noop&c2.sched=deadline',
    );
    const table = page.getByTestId('compare-table');
    await table.waitFor({ timeout: 60_000 });
    const head = (await table.locator('thead').textContent()) ?? '';
    expect(head).toContain('noop');
    expect(head).toContain('deadline');
    const body = (await table.locator('tbody').textContent()) ?? '';
    expect(body).toContain('reader: mean / p95 / max');
    expect(body).toContain('merges');
    // One clock: both platters turn together, and pause together.
    const platters = page.getByTestId('platter');
    expect(await platters.count()).toBe(2);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Step to the next decision' }).click();
    const a = await platters.nth(0).getAttribute('transform');
    const b = await platters.nth(1).getAttribute('transform');
    expect(a).toBe(b); // same disk, same instant: the same angle
    await lab.shot(page, 'lab-compare.png', true);

    // A third column from the button, under another setting.
    await page.getByRole('button', { name: 'Add a column' }).click();
    await expect.poll(() => page.getByTestId('platter').count(), { timeout: 60_000 }).toBe(3);
    expect(await query(page)).toContain('cmp=3');
    await page.getByRole('button', { name: 'Remove column C' }).click();
    await expect.poll(() => query(page)).toContain('cmp=2');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByTestId('compare-table').waitFor({ state: 'detached' });
    expect(await query(page)).not.toContain('cmp=');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('presenter mode shows the disk, queues, decisions and controls in large type, the lesson a click away; embed the disk and controls', async () => {
    // (presenter.test.ts checks the layout on a projector's screen)
    const present = await lab.openLab('?v=1&lesson=seek-rotate-transfer.json&present=1');
    const p = present.page;
    await p.getByRole('region', { name: 'Queues' }).waitFor();
    await p.getByRole('region', { name: 'Decision log' }).waitFor();
    await p.getByRole('region', { name: 'Playback' }).waitFor();
    expect(await p.getByRole('combobox', { name: 'Lesson' }).count()).toBe(0);
    await p.getByRole('button', { name: 'Lesson text' }).click();
    const size = await p.evaluate(
      "parseFloat(getComputedStyle(document.querySelector('.lesson-text')).fontSize)",
    );
    expect(size).toBeGreaterThan(20);
    await lab.shot(p, 'lab-present.png');
    expect(present.problems).toEqual([]);
    await p.context().close();

    const embed = await lab.openLab('?v=1&embed=1');
    const e = embed.page;
    await e.getByRole('region', { name: 'Playback' }).waitFor();
    expect(await e.getByRole('region', { name: 'Queues' }).isVisible()).toBe(false);
    expect(await e.getByRole('region', { name: 'Lesson' }).isVisible()).toBe(false);
    expect(await e.locator('.topbar').count()).toBe(0);
    await e.getByRole('link', { name: 'Open in Spindle' }).waitFor();
    await lab.shot(e, 'lab-embed.png');
    expect(embed.problems).toEqual([]);
    await e.context().close();
  });

  it('switches between light and dark themes, starting from the system preference', async () => {
    const { page, problems } = await lab.openPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(lab.url);
    await page.getByTestId('platter').waitFor({ timeout: 30_000 });
    const themeAttr = () => page.evaluate('document.documentElement.dataset.theme');
    expect(await themeAttr()).toBe('dark');
    await lab.shot(page, 'lab-dark.png');
    await page.getByRole('button', { name: 'Dark theme' }).click();
    expect(await themeAttr()).toBe('light');
    await expect.poll(() => query(page)).toContain('theme=light');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('is operable by keyboard alone: settings, a tunable, share and compare', async () => {
    const { page, problems } = await lab.openLab(
      '?v=1&lesson=seek-rotate-transfer.json&sched=deadline',
    );
    await expect.poll(() => lessonInfo(page), { timeout: 30_000 }).toContain('deadline');
    const focused = () =>
      page.evaluate(
        "(() => { const a = document.activeElement; return (a?.getAttribute('aria-label') || a?.labels?.[0]?.textContent || a?.textContent || '').trim(); })()",
      ) as Promise<string>;
    const tabTo = async (name: string) => {
      for (let i = 0; i < 200; i++) {
        await page.keyboard.press('Tab');
        if ((await focused()) === name) return;
      }
      throw new Error(`Tab never reached ${name}`);
    };
    await tabTo('Settings');
    await page.keyboard.press('Enter');
    await page.getByRole('form', { name: 'Settings' }).waitFor();
    await tabTo('read_expire');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('300');
    await page.keyboard.press('Enter'); // submits the form
    await expect.poll(() => query(page)).toContain('t.read_expire=300');
    await tabTo('Share');
    await page.keyboard.press('Enter');
    await page.getByTestId('share-link').waitFor();
    await tabTo('Compare');
    await page.keyboard.press('Enter');
    await page.getByTestId('compare-table').waitFor({ timeout: 60_000 });
    // The columns too: a third by keyboard, then its settings.
    await tabTo('Add a column');
    await page.keyboard.press('Enter');
    await expect.poll(() => query(page)).toContain('cmp=3');
    await tabTo('settings of column C');
    await page.keyboard.press('Enter');
    await page.getByRole('form', { name: 'Column C settings' }).waitFor();
    await lab.shot(page, 'lab-keyboard-compare.png');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('quiz mode stops before each decision with a choice, reveals the rule and keeps score', async () => {
    const { page, problems } = await lab.openLab('?v=1&lesson=ostep-fifo-vs-satf.json&quiz=1');
    const quiz = page.getByRole('region', { name: 'Quiz' });
    await quiz.waitFor({ timeout: 30_000 });
    // A fixed request list: first, the total time (disk.py's -c question); the lesson text,
    // which gives the answer, is folded away.
    expect(await page.locator('.lesson-fold').count()).toBe(1);
    await quiz.getByLabel('How long will the whole request list take').fill('800');
    await quiz.getByRole('button', { name: 'Answer' }).click();
    // the page says the answer comes at the end: it is not scored yet
    await quiz.getByRole('button', { name: 'Reveal now' }).waitFor();
    expect(await quiz.getByTestId('quiz-score').textContent()).toMatch(/0 of 0 right/);
    // The first question is the drive's choice at t = 0 among sectors 7, 30 and 8: there is
    // no instant before it, so the views that already show it are veiled until the answer.
    await quiz.getByText('which request does').waitFor({ timeout: 30_000 });
    expect(await quiz.getByText('which request does').textContent()).toMatch(/^At 0 ns, /);
    await quiz.getByTestId('quiz-veil').waitFor();
    expect(await diskVisibility(page)).toBe('hidden');
    const sectors = await quiz.getByRole('button', { name: /^Request / }).allTextContents();
    expect(sectors.join(' ')).toMatch(/sector 7\b.*sector 30\b.*sector 8\b/);
    await lab.shot(page, 'lab-quiz-t0.png');
    await quiz.getByRole('button', { name: /sector 7,/ }).click();
    await quiz.getByText('Rule').waitFor();
    expect(await diskVisibility(page)).toBe('visible');
    await expect.poll(() => quiz.getByTestId('quiz-score').textContent()).toMatch(/of 1 right/);
    await quiz.getByRole('button', { name: 'Continue' }).click();
    // the next question is later: stopped before it, nothing veiled
    await quiz.getByText('which request does').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Play' }).waitFor(); // paused for the question
    expect(await quiz.getByTestId('quiz-veil').count()).toBe(0);
    const clock = await page.getByTestId('clock').textContent();
    await page.waitForTimeout(300);
    expect(await page.getByTestId('clock').textContent()).toBe(clock);
    // The decision is not in the log yet: the outcome stays hidden until the answer.
    const question = (await quiz.getByText('which request does').textContent()) ?? '';
    const when = /At (.+?), which/.exec(question)?.[1] ?? '?';
    expect(await page.getByTestId('decision-list').textContent()).not.toContain(when);
    await lab.shot(page, 'lab-quiz-question.png');
    // Keyboard: focus is on the first candidate; Enter answers.
    expect(await page.evaluate("document.activeElement?.getAttribute('aria-label') ?? ''")).toMatch(
      /^Request \d+/,
    );
    await page.keyboard.press('Enter');
    await quiz.getByText('Rule').waitFor();
    await expect.poll(() => quiz.getByTestId('quiz-score').textContent()).toMatch(/of 2 right/);
    await lab.shot(page, 'lab-quiz-reveal.png');
    // Enter on Continue (focused) plays on to the end, where the total time is revealed and
    // scored: disk.py -a 7,30,8 under FCFS takes 795 ms, so 800 is within 10%.
    await page.keyboard.press('Enter');
    await quiz.getByText('No more decisions to guess').waitFor({ timeout: 30_000 });
    await quiz.getByText('the run took 795.0 ms').waitFor({ timeout: 30_000 });
    await expect.poll(() => quiz.getByTestId('quiz-score').textContent()).toMatch(/of 3 right/);
    expect(await page.getByTestId('clock').textContent()).not.toBe(clock);
    expect(await query(page)).toContain('quiz=1');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('keeps the settings across a reload (IndexedDB) when the address has none', async () => {
    const { page, problems } = await lab.openLab(
      '?v=1&lesson=seek-rotate-transfer.json&sched=deadline&qd=2',
    );
    await expect.poll(() => lessonInfo(page), { timeout: 30_000 }).toContain('deadline');
    await page.waitForTimeout(500); // the write to IndexedDB is asynchronous
    await page.goto(lab.url); // no query: the stored configuration comes back
    await page.getByTestId('platter').waitFor({ timeout: 30_000 });
    await expect.poll(() => lessonInfo(page), { timeout: 30_000 }).toContain('queue depth 2');
    expect(await query(page)).toBe('?v=1&lesson=seek-rotate-transfer.json&sched=deadline&qd=2');
    // A teacher's view (hidden controls) is not stored as the user's own settings.
    await page.goto(`${lab.url}?v=1&lesson=ostep-fifo-vs-satf.json&_hide=seed`);
    await page
      .getByTestId('platter')
      .waitFor({ timeout: 30_000 })
      .catch(() => undefined);
    await page.waitForTimeout(500);
    await page.goto(lab.url);
    await expect
      .poll(() => query(page), { timeout: 30_000 })
      .toContain('lesson=seek-rotate-transfer.json&sched=deadline&qd=2');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('hides the controls a teacher lists in _hide, and says what the run changed', async () => {
    const { page, problems } = await lab.openLab(
      '?v=1&lesson=deadline-promise.json&t.read_expire=100&_hide=lesson,settings,compare,speed,decisions,summary',
    );
    await expect
      .poll(() => page.getByTestId('changed-note').textContent(), { timeout: 30_000 })
      .toContain('read_expire = 100');
    expect(await page.getByRole('combobox', { name: 'Lesson' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Settings' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Compare' }).count()).toBe(0);
    expect(await page.getByRole('slider', { name: 'Speed' }).isVisible()).toBe(false);
    expect(await page.getByRole('region', { name: 'Decision log' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Pause' }).isVisible()).toBe(true);
    await lab.shot(page, 'lab-hidden-controls.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
