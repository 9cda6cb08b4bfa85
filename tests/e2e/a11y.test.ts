// End-to-end: axe-core finds no serious or critical accessibility violation in any view of
// the page (issue 16 item 8) — the lab, settings, compare, quiz, presenter, embed and trace
// views, in the light and the dark theme. A failure lists each element and what axe says is
// wrong with it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe';
import { haveChromium, requireChromium, useLab } from './harness';
import { FTRACE, upload, waitForTrace } from './trace-helpers';

requireChromium();

describe.skipIf(!haveChromium)('accessibility (axe-core) in every view', () => {
  const lab = useLab();

  /** open the page at `suffix`, paused so axe sees a steady page */
  async function open(suffix: string, viewport?: { width: number; height: number }) {
    const opened = await lab.openPage(viewport);
    await opened.page.goto(lab.url + suffix);
    await opened.page.getByTestId('platter').first().waitFor({ timeout: 30_000 });
    return opened;
  }

  async function check(page: Page, problems: string[], shot: string) {
    const pause = page.getByRole('button', { name: 'Pause' });
    if (await pause.isVisible()) await pause.click();
    await lab.shot(page, `a11y-${shot}.png`);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  }

  for (const theme of ['light', 'dark']) {
    it(`the lab (${theme})`, async () => {
      const { page, problems } = await open(`?theme=${theme}`);
      await check(page, problems, `lab-${theme}`);
    });
  }

  it('the settings panel', async () => {
    const { page, problems } = await open('');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.locator('#settings-panel').waitFor();
    await check(page, problems, 'settings');
  });

  it('compare mode', async () => {
    const { page, problems } = await open('');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByTestId('platter').nth(1).waitFor({ timeout: 30_000 });
    await check(page, problems, 'compare');
  });

  it('quiz mode', async () => {
    const { page, problems } = await open('?quiz=1&lesson=ostep-fifo-vs-satf.json');
    await check(page, problems, 'quiz');
  });

  for (const theme of ['light', 'dark']) {
    it(`presenter mode (${theme})`, async () => {
      const { page, problems } = await open(`?present=1&theme=${theme}`, {
        width: 1280,
        height: 720,
      });
      await check(page, problems, `presenter-${theme}`);
    });
  }

  it('embed mode', async () => {
    const { page, problems } = await open('?embed=1');
    await check(page, problems, 'embed');
  });

  it('the trace view', async () => {
    const { page, problems } = await open('');
    const file = join(mkdtempSync(join(tmpdir(), 'spindle-a11y-')), 'ftrace.txt');
    writeFileSync(file, FTRACE);
    await upload(page, file);
    await waitForTrace(page, 'ftrace.txt');
    await lab.shot(page, 'a11y-trace.png');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
