// End-to-end (issue 17 item 4): a DiskSim disk opened on the page — hp_c2247a.parv with the
// files it sources, picked together in Settings — runs the lab; the run summary names it and
// its figures equal `spindle run --disk-file` on the same lesson; a reload keeps it
// (IndexedDB). A .zip and a drop open disks too; a missing file is an error naming the .parv's
// line and the file; a link to a disk this browser lacks says to open it again and keeps the
// rest of the link. axe finds nothing serious in the new controls. Screenshots:
// test-results/e2e/disk-files-*.png.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/engine/summary';
import { plainFolder } from '../helpers/data';
import { makeZip } from '../helpers/zip';
import { seriousViolations } from './axe';
import { haveChromium, requireChromium, shotsDir, useLab } from './harness';

requireChromium();

const LESSON = 'c2247a-random-read.json';
const C2247A = ['hp_c2247a.parv', 'hp_c2247a.diskspecs', 'hp_c2247a_validate.model'];
const RZ26 = [
  'dec_rz26.parv',
  'dec_rz26.diskspecs',
  'dec_rz26_validate.model',
  'dec_rz26_validate.seek',
];
const dir = () => plainFolder('disksim-validation');
const query = (page: Page) => page.evaluate('window.location.search') as Promise<string>;

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  const form = page.getByRole('form', { name: 'Settings' });
  await form.waitFor();
  return form;
}

/** The run summary's rows, label → value as shown. */
async function summaryRows(page: Page): Promise<Record<string, string>> {
  const box = page.locator('details.summary-box');
  if ((await box.getAttribute('open')) === null) await box.locator('summary').click();
  const rows = (await page.evaluate(`[...document.querySelectorAll('details.summary-box tr')]
    .map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? ''])`)) as Array<
    [string, string]
  >;
  return Object.fromEntries(rows);
}

describe.skipIf(!haveChromium)('a DiskSim disk opened on the page', () => {
  const lab = useLab();
  // the CLI the figures are compared with, built from this tree (as the unit tests' setup)
  beforeAll(() => build({ mode: 'cli', logLevel: 'warn' }), 120_000);

  it('opens hp_c2247a.parv with its files, runs on it as the CLI does, and keeps it after a reload', async () => {
    const { page, problems } = await lab.openLab(`?v=1&lesson=${LESSON}`);
    const form = await openSettings(page);
    await form.getByLabel('DiskSim disk files').setInputFiles(C2247A.map((n) => join(dir(), n)));
    await expect
      .poll(() => form.getByRole('status').first().textContent(), { timeout: 30_000 })
      .toBe('Opened file:hp_c2247a.parv.');
    // selected in the panel, and what Spindle does not apply listed beside it, with file:line
    expect(await form.getByLabel('disk', { exact: true }).inputValue()).toBe('file:hp_c2247a.parv');
    const info = form.getByTestId('disk-file-info');
    expect(await info.textContent()).toContain(
      'HP_C2247A_validate read from hp_c2247a.parv, hp_c2247a.diskspecs, hp_c2247a_validate.model',
    );
    expect(await info.locator('li').count()).toBe(5);
    expect(await info.locator('li').first().textContent()).toMatch(
      /^hp_c2247a\.diskspecs:78 disksim_disk: Extradisc 2nd disconnect overhead = [\d.]+ — \S/,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await form.screenshot({ path: join(shotsDir, 'disk-files-settings.png') });
    // on a phone the disk's facts go under its fields, nothing wider than the screen
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await form
      .getByTestId('disk-file-info')
      .screenshot({ path: join(shotsDir, 'disk-files-narrow.png') });
    await page.setViewportSize({ width: 1100, height: 900 });

    await form.getByRole('button', { name: 'Run with these settings' }).click();
    await expect
      .poll(() => query(page), { timeout: 30_000 })
      .toBe(`?v=1&lesson=${LESSON}&disk=file%3Ahp_c2247a.parv`);
    const box = page.locator('details.summary-box');
    await expect
      .poll(async () => (await summaryRows(page)) && box.textContent(), { timeout: 30_000 })
      .toContain('disk file:hp_c2247a.parv');

    // the same lesson through the CLI, on the same files
    const cli = JSON.parse(
      execFileSync(
        process.execPath,
        [
          'bin/spindle.mjs',
          'run',
          `public/scenarios/${LESSON}`,
          '--disk-file',
          join(dir(), 'hp_c2247a.parv'),
          '--json',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      ).toString(),
    ) as RunSummary;
    expect(cli.disk).toBe('file:hp_c2247a.parv');
    const rows = await summaryRows(page);
    const ms = (x: number) => `${x.toFixed(2)} ms`;
    expect({
      completed: rows['Requests dispatched (D) / completed (C)'],
      iops: rows['IOPS'],
      q2cMean: rows['Q2C mean'],
      q2cP95: rows['Q2C p95'],
      d2cMean: rows['D2C mean'],
      seek: rows['Seek (mean per request)'],
      rotation: rows['Rotation (mean per request)'],
      transfer: rows['Transfer (mean per request)'],
      hits: rows['Drive cache hits'],
    }).toEqual({
      completed: `${cli.requests.dispatched.toLocaleString('en-US')} / ${cli.requests.completed.toLocaleString('en-US')}`,
      iops: cli.throughput.iops.toFixed(1),
      q2cMean: ms(cli.latencyMs.q2c.mean),
      q2cP95: ms(cli.latencyMs.q2c.p95),
      d2cMean: ms(cli.latencyMs.d2c.mean),
      seek: ms(cli.positioningMs.seek),
      rotation: ms(cli.positioningMs.rotation),
      transfer: ms(cli.positioningMs.transfer),
      hits: cli.requests.cacheHits.toLocaleString('en-US'),
    });
    await lab.shot(page, 'disk-files-run.png', true);

    // a reload: the disk comes back from IndexedDB, and the link still runs on it
    await page.reload();
    await page.getByTestId('platter').waitFor({ timeout: 30_000 });
    await expect.poll(() => query(page)).toBe(`?v=1&lesson=${LESSON}&disk=file%3Ahp_c2247a.parv`);
    await expect
      .poll(async () => (await summaryRows(page))['Q2C mean'], { timeout: 30_000 })
      .toBe(ms(cli.latencyMs.q2c.mean));
    expect(await page.locator('.link-problems').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a link to a disk this browser lacks, a missing file, a .zip, a drop, and forgetting', async () => {
    const { page, problems } = await lab.openLab(
      `?v=1&lesson=${LESSON}&sched=deadline&disk=file%3Ahp_c2247a.parv`,
    );
    // the link's other settings stay; the disk is named with what to do
    await expect
      .poll(() => page.locator('.link-problems').textContent(), { timeout: 30_000 })
      .toContain('open hp_c2247a.parv again');
    await expect.poll(() => query(page)).toBe(`?v=1&lesson=${LESSON}&sched=deadline`);

    const form = await openSettings(page);
    const files = form.getByLabel('DiskSim disk files');
    await files.setInputFiles([
      join(dir(), 'hp_c2247a.parv'),
      join(dir(), 'hp_c2247a_validate.model'),
    ]);
    const alert = form.getByRole('alert');
    await expect
      .poll(() => alert.textContent(), { timeout: 30_000 })
      .toContain('hp_c2247a.parv:107: file "hp_c2247a.diskspecs" not found');
    expect(await seriousViolations(page)).toEqual([]);
    await form.screenshot({ path: join(shotsDir, 'disk-files-missing.png') });

    // a zip of DEC RZ26's files in a folder, as a user zips valid/
    const zip = makeZip(
      RZ26.map((n) => ({ path: `valid/${n}`, data: readFileSync(join(dir(), n)), deflate: true })),
    );
    await files.setInputFiles({
      name: 'rz26.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from(zip),
    });
    await expect
      .poll(() => form.getByRole('status').first().textContent(), { timeout: 30_000 })
      .toBe('Opened file:dec_rz26.parv.');
    expect(await alert.count()).toBe(0);
    expect(await form.getByLabel('disk', { exact: true }).inputValue()).toBe('file:dec_rz26.parv');

    // a drop anywhere on the page: the C2247A's three files (the trace's drop hint shows
    // while they are dragged, and goes when they are dropped)
    const texts = C2247A.map((n) => [n, readFileSync(join(dir(), n), 'utf8')]);
    await page.evaluate(`(() => {
      const dt = new DataTransfer();
      for (const [name, text] of ${JSON.stringify(texts)}) dt.items.add(new File([text], name));
      window.__dt = dt;
      const over = new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true });
      document.body.dispatchEvent(over);
    })()`);
    await page.locator('.drop-hint').first().waitFor();
    await page.evaluate(`document.body.dispatchEvent(
      new DragEvent('drop', { dataTransfer: window.__dt, bubbles: true, cancelable: true }))`);
    await expect.poll(() => page.locator('.drop-hint').count()).toBe(0);
    await expect
      .poll(() => form.getByRole('status').first().textContent(), { timeout: 30_000 })
      .toBe('Opened file:hp_c2247a.parv.');
    // not opened as a trace
    expect(await page.getByRole('heading', { name: /^Trace:/ }).count()).toBe(0);
    const select = form.getByLabel('disk', { exact: true });
    const options = async () => {
      const all = select.locator('option');
      const values: string[] = [];
      for (let k = 0; k < (await all.count()); k++)
        values.push((await all.nth(k).getAttribute('value')) ?? '');
      return values.filter((v) => v.startsWith('file:'));
    };
    expect((await options()).sort()).toEqual(['file:dec_rz26.parv', 'file:hp_c2247a.parv']);

    await form.getByRole('button', { name: 'Forget this disk' }).click();
    await expect.poll(options).toEqual(['file:dec_rz26.parv']);
    expect(await form.getByLabel('disk', { exact: true }).inputValue()).toBe('hp-c2247a');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
