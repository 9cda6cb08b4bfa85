// End-to-end: replay of an uploaded trace in the built page (issue 5 item 8, issue 4 items
// 4–5): under deadline with measured vs simulated side by side, and a long replay cancelled.
// Any console error fails a test; screenshots go to test-results/e2e/trace-*.png.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataPath, plainCopy } from '../helpers/data';
import { haveChromium, requireChromium, useLab } from './harness';
import { generated, unitsTable, upload, waitForTrace } from './trace-helpers';

requireChromium();

const tmp = mkdtempSync(join(tmpdir(), 'spindle-trace-replay-e2e-'));

describe.skipIf(!haveChromium)('trace replay in the built page', () => {
  const lab = useLab();
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('replays a trace under deadline: measured and simulated side by side', async () => {
    const { page, problems } = await lab.openLab();
    await upload(page, plainCopy('linux-6.18', 'none_randread_4k', 'trace.txt.gz'));
    await waitForTrace(page, 'trace.txt');
    const replay = page.getByRole('region', { name: 'Replay' });
    await replay.getByRole('combobox', { name: 'Scheduler' }).selectOption('deadline');
    await replay.getByRole('combobox', { name: 'Disk' }).selectOption('sata-7200-500g');
    await replay.getByRole('combobox', { name: 'Mode' }).selectOption('trace-timed');
    await replay.getByRole('button', { name: 'Replay' }).click();
    const result = page.getByTestId('replay-result');
    await result.waitFor({ timeout: 60_000 });
    const units = await unitsTable(page);
    // measured per bio: btt's 8,192 Q2C values, mean 0.197 ms; each bio is a request here
    expect(units['Completed']).toEqual(['8,192', '8,192', '8,192', '8,192']);
    expect(units['Queued to completed (Q2C), mean ms']![0]).toMatch(/^0\.197\d$/);
    expect(units['Q2C p95']).toHaveLength(4);
    expect(await result.textContent()).toContain('under deadline on sata-7200-500g');
    expect(await page.getByTestId('dispatch-agreement').textContent()).toMatch(
      /^Dispatch agreement: \d+\.\d% — [\d,]+ of [\d,]+ simulated dispatches/,
    );
    await result.scrollIntoViewIfNeeded();
    await lab.shot(page, 'trace-replay.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('replays a 2 TB disk’s trace on the 500 GB disk, saying how its addresses were packed', async () => {
    const { page, problems } = await lab.openLab();
    await upload(page, dataPath('public', 'modern-fio-sde.txt'));
    await waitForTrace(page, 'modern-fio-sde.txt');
    const replay = page.getByRole('region', { name: 'Replay' });
    await replay.getByRole('combobox', { name: 'Scheduler' }).selectOption('deadline');
    await replay.getByRole('combobox', { name: 'Disk' }).selectOption('sata-7200-500g');
    await replay.getByRole('button', { name: 'Replay' }).click();
    await page.getByTestId('replay-result').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('replay-addresses').textContent()).toMatch(
      /the trace addresses 1862\.1 GiB, the disk holds 465\.8 GiB: the 2 regions of 1024 MiB/,
    );
    await page.getByTestId('replay-result').scrollIntoViewIfNeeded();
    await lab.shot(page, 'trace-replay-packed.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('cancels a long replay and can replay again', async () => {
    const { page, problems } = await lab.openLab();
    // 140,000 random 4 KiB reads issued within 0.7 s: minutes of simulated disk time
    const many = join(tmp, 'many.txt');
    writeFileSync(many, generated(30e6));
    await upload(page, many);
    await waitForTrace(page, 'many.txt');
    const replay = page.getByRole('region', { name: 'Replay' });
    await replay.getByRole('button', { name: 'Replay' }).click();
    await replay.getByRole('button', { name: 'Replaying…' }).waitFor();
    await replay.getByRole('button', { name: 'Cancel replay' }).click();
    await expect.poll(() => replay.textContent()).toContain('Replay cancelled.');
    // the worker was restarted and reads the trace again; then Replay is offered again
    await expect
      .poll(() => replay.getByRole('button', { name: 'Replay' }).isEnabled(), { timeout: 60_000 })
      .toBe(true);
    expect(await replay.textContent()).not.toContain('Reading the trace again');
    expect(await page.getByTestId('queued-reads').textContent()).toMatch(/^[\d,]+ \(/);
    await lab.shot(page, 'trace-replay-cancelled.png');

    // a file opened during a replay stops it; a bad one leaves the trace shown, and the next
    // replay reads that trace into the restarted worker first
    await replay.getByRole('button', { name: 'Replay' }).click();
    await replay.getByRole('button', { name: 'Replaying…' }).waitFor();
    const bad = join(tmp, 'empty.txt');
    writeFileSync(bad, '');
    await upload(page, bad);
    await expect.poll(() => page.getByTestId('trace-notice').textContent()).toContain('empty');
    expect(await replay.getByRole('button', { name: 'Replaying…' }).count()).toBe(0);
    await replay.getByRole('button', { name: 'Replay' }).click();
    await replay.getByRole('button', { name: 'Replaying…' }).waitFor({ timeout: 60_000 });
    await replay.getByRole('button', { name: 'Cancel replay' }).click();
    await expect.poll(() => replay.textContent()).toContain('Replay cancelled.');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);
});
