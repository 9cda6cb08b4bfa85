// End-to-end (issue 20): hostile traces in the built page. A file of long lines and many
// device numbers — which once held the trace worker for minutes inside one chunk, where
// Cancel could not reach it — is cancelled within 1 s of pressing Cancel, and the page goes
// on: another trace is read and the lab's controls answer. 10,000 one-line devices (once
// "the trace reader stopped (Unserializable return value)") are read, the first 64 in
// detail and the rest said to be counted in the totals only.
// Any console error fails a test; screenshots go to test-results/e2e/trace-hostile-*.png.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataPath } from '../helpers/data';
import { haveChromium, requireChromium, useLab } from './harness';
import { closeTrace, upload, waitForTrace } from './trace-helpers';

requireChromium();

const tmp = mkdtempSync(join(tmpdir(), 'spindle-trace-hostile-e2e-'));

/** one Q on each of `n` device numbers */
function devices(n: number, from = 0): string[] {
  const out: string[] = [];
  for (let k = from; k < from + n; k++)
    out.push(
      `  ${1000 + (k >> 8)},${k & 255}  0  ${k + 1}  0.${String(k % 1e9).padStart(9, '0')}  1  Q  R 0 + 8 [dd]`,
    );
  return out;
}

/** about `mb` MB: 1 MB blocks of the inputs — 16 lines of 65,000 letters then ":"
 * (a backtracking pattern's worst case), "Aa " lines, and 20,000 one-line devices */
function hostile(mb: number): string {
  const block = [
    ...Array.from({ length: 8 }, () => 'P'.repeat(65_000) + ':'),
    ...Array.from({ length: 8 }, () => 'Aa '.repeat(21_000) + ':'),
  ].join('\n');
  const parts: string[] = [];
  for (let k = 0; k < mb; k++)
    parts.push(k % 2 === 0 ? block : devices(20_000, k * 20_000).join('\n'));
  return parts.join('\n') + '\n';
}

describe.skipIf(!haveChromium)('hostile traces in the built page', () => {
  const lab = useLab();
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('a hostile trace is cancelled within 1 s of pressing Cancel, and the page stays usable', async () => {
    const file = join(tmp, 'hostile.txt');
    writeFileSync(file, hostile(160));
    const { page, problems } = await lab.openLab();
    await upload(page, dataPath('public', 'modern-fio-sde.txt'));
    await waitForTrace(page, 'modern-fio-sde.txt');

    await upload(page, file);
    const bar = page.locator('.trace-reading progress');
    await bar.waitFor();
    await expect
      .poll(async () => Number(await bar.getAttribute('value')), { timeout: 30_000 })
      .toBeGreaterThan(0);
    const cancel = page.locator('.trace-reading button');
    await cancel.waitFor();
    // timed in the page: from the click's event to the progress bar's removal (what a person
    // sees; Playwright's own round trips on a loaded machine are not the page's)
    await page.evaluate(`(() => {
      const c = (window.__cancel = { clicked: 0, gone: 0 });
      document.addEventListener('click', (e) => {
        if (e.target instanceof Element && e.target.closest('.trace-reading button'))
          c.clicked = performance.now();
      }, true);
      new MutationObserver(() => {
        if (c.clicked > 0 && c.gone === 0 && !document.querySelector('.trace-reading progress'))
          c.gone = performance.now();
      }).observe(document.body, { childList: true, subtree: true });
    })()`);
    await cancel.click();
    await bar.waitFor({ state: 'detached', timeout: 10_000 });
    const c = (await page.evaluate('window.__cancel')) as { clicked: number; gone: number };
    expect(c.clicked).toBeGreaterThan(0);
    expect(c.gone - c.clicked).toBeLessThan(1_000);
    const notice = page.getByTestId('trace-notice');
    expect(await notice.textContent()).toMatch(
      /Reading hostile\.txt was (cancelled|stopped).*Still showing modern-fio-sde\.txt/,
    );
    await lab.shot(page, 'trace-hostile-cancelled.png');

    // the page goes on: another trace is read and shown, then the lab's controls answer
    await upload(page, dataPath('public', 'remap-lines.txt'));
    await waitForTrace(page, 'remap-lines.txt');
    // polled: the heading can be the new trace's a render before its counts are
    await expect.poll(() => page.getByTestId('trace-events').textContent()).toBe('5 in 5 lines');
    await closeTrace(page);
    await page.getByRole('button', { name: 'Reset to the start' }).click();
    const clock = page.getByTestId('clock');
    const start = await clock.textContent();
    await page.getByRole('button', { name: 'Step to the next event' }).click();
    await expect.poll(() => clock.textContent()).not.toBe(start);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('10,000 one-line devices: read, 64 in detail, the rest said to be counted only', async () => {
    const file = join(tmp, 'devices.txt');
    writeFileSync(file, devices(10_000).join('\n') + '\n');
    const { page, problems } = await lab.openLab();
    await upload(page, file);
    await waitForTrace(page, 'devices.txt');
    expect(await page.getByTestId('trace-events').textContent()).toBe('10,000 in 10,000 lines');
    expect(await page.getByTestId('queued-reads').textContent()).toBe('10,000 (40,000 KiB)');
    expect(await page.getByTestId('other-devices').textContent()).toContain(
      '9,936 more device numbers (9,936 events) are counted in the totals only',
    );
    const options = page
      .getByRole('combobox', { name: 'Device', exact: true })
      .first()
      .locator('option');
    expect(await options.count()).toBe(65);
    await lab.shot(page, 'trace-hostile-devices.png');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);
});
