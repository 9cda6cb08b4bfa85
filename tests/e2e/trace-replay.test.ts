// End-to-end: replay of an uploaded trace in the built page (issue 5 item 8, issue 4 items
// 4–5, issue 15 item 7): the fitted device under two schedulers and two kernels, every figure
// the page shows equal to the real CLI's (`spindle replay … --json`) for the same options;
// under deadline on a preset; a long replay cancelled. Any console error fails a test;
// screenshots go to test-results/e2e/trace-*.png.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import buildCli from '../../scripts/build-cli.global-setup';
import { count, grouped, ms, pct } from '../../src/components/trace/format';
import type { ReplayReport, UnitFigures } from '../../src/engine/trace/replay';
import { spindle, spindleJson } from '../cli/run-cli';
import { dataPath, plainCopy } from '../helpers/data';
import { seriousViolations } from './axe';
import { haveChromium, requireChromium, useLab } from './harness';
import { generated, unitsTable, upload, waitForTrace } from './trace-helpers';

requireChromium();

const tmp = mkdtempSync(join(tmpdir(), 'spindle-trace-replay-e2e-'));

/** a units-table row: each column's figure as the page formats it ("none" where null) */
const ROWS: Array<[string, (u: UnitFigures) => string]> = [
  ['Completed', (u) => count(u.count)],
  ['Per second', (u) => grouped(u.iops, 1)],
  ['MB/s', (u) => grouped(u.mbps, 3)],
  ...(['q2c', 'd2c'] as const).flatMap((k): Array<[string, (u: UnitFigures) => string]> => {
    const l = (u: UnitFigures) => (k === 'q2c' ? u.q2cMs : u.d2cMs);
    const name = k === 'q2c' ? 'Queued to completed (Q2C)' : 'At the device (D2C)';
    const f = (pick: 'mean' | 'p50' | 'p95' | 'p99' | 'max') => (u: UnitFigures) => {
      const x = l(u);
      return x === null ? 'none' : ms(x[pick]);
    };
    return [
      [`${name}, mean ms`, f('mean')],
      ...(['p50', 'p95', 'p99', 'max'] as const).map((p): [string, (u: UnitFigures) => string] => [
        `${k.toUpperCase()} ${p}`,
        f(p),
      ]),
    ];
  }),
];

/** what the page should show of a CLI report: its units table, fit, agreement, cautions */
function expected(r: ReplayReport) {
  const share = (x: number | null, none: string) => (x === null ? none : pct(x));
  const fine = (x: number | null) => (x === null ? 'none' : `${(x * 100).toFixed(4)}%`);
  const cols = [
    r.measured.perBio,
    r.simulated.perBio,
    r.measured.perRequest,
    r.simulated.perRequest,
  ];
  return {
    units: Object.fromEntries(
      ROWS.map(([name, f]) => [name, cols.map((u) => (u === null ? 'none' : f(u)))]),
    ),
    fit: r.fit && [
      count(r.fit.parallelism),
      pct(r.fit.heldBack.medianRelErr),
      pct(r.fit.heldBack.p95RelErr),
    ],
    agreement: [
      share(r.agreement.chose, 'none (no choices)'),
      share(r.agreement.fifo.chose, 'none (no choices)'),
      fine(r.agreement.concordance),
      fine(r.agreement.fifo.concordance),
      count(r.agreement.choices),
      r.agreement.kernelChoices === null ? null : count(r.agreement.kernelChoices),
    ],
    caution: r.caution,
  };
}

/** the same, read from the page's replay result */
async function shown(page: Page) {
  const ag = page.getByRole('table', { name: 'Agreement with the kernel' });
  const counts = (await page.getByTestId('agreement-counts').textContent()) ?? '';
  const fit = page.getByTestId('replay-device');
  const hasFit = (await fit.getByTestId('fit-parallelism').count()) > 0;
  const caution = page.getByTestId('replay-caution');
  return {
    units: await unitsTable(page),
    fit: hasFit
      ? await Promise.all(
          ['fit-parallelism', 'fit-median-error', 'fit-p95-error'].map(
            async (id) => (await fit.getByTestId(id).textContent()) ?? '',
          ),
        )
      : null,
    agreement: [
      ...(await ag
        .getByRole('row', { name: /^chose/ })
        .locator('td')
        .allTextContents()),
      ...(await ag
        .getByRole('row', { name: /^concordance/ })
        .locator('td')
        .allTextContents()),
      /^([\d,]+) dispatches/.exec(counts)?.[1],
      /the kernel’s scheduler had ([\d,]+) in the trace/.exec(counts)?.[1] ?? null,
    ],
    caution: (await caution.count()) > 0 ? await caution.locator('li').allTextContents() : [],
  };
}

describe.skipIf(!haveChromium)('trace replay in the built page', () => {
  const lab = useLab();
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  // the real CLI, built from this tree (the unit project's setup builds it; e2e alone not)
  beforeAll(() => buildCli(), 180_000);

  it('replays with the fitted device under two schedulers and two kernels: the CLI’s figures', async () => {
    const trace = plainCopy('linux-6.18', 'none_randread_4k', 'trace.txt.gz');
    const { page, problems } = await lab.openLab();
    await upload(page, trace);
    await waitForTrace(page, 'trace.txt');
    const replay = page.getByRole('region', { name: 'Replay' });
    expect(await replay.getByRole('combobox', { name: 'Simulated device' }).inputValue()).toBe(
      'traced',
    );
    expect(await replay.textContent()).not.toContain('--kernel');
    const result = page.getByTestId('replay-result');
    const runs = [
      ['mq-deadline', '6.18'],
      ['mq-deadline', '2.6.32'],
      ['deadline', '6.18'],
      ['deadline', '2.6.32'],
    ] as const;
    for (const [scheduler, kernel] of runs) {
      await replay.getByRole('combobox', { name: 'Scheduler' }).selectOption(scheduler);
      await replay.getByRole('combobox', { name: 'Kernel' }).selectOption(kernel);
      await replay.getByRole('combobox', { name: 'Mode' }).selectOption('closed');
      const cli = spindleJson<ReplayReport>([
        'replay',
        trace,
        '--scheduler',
        scheduler,
        '--kernel',
        kernel,
        '--disk',
        'traced',
        '--mode',
        'closed',
        '--json',
      ]);
      await replay.getByRole('button', { name: 'Replay' }).click();
      await expect
        .poll(() => result.textContent(), { timeout: 60_000 })
        .toMatch(
          new RegExp(`under ${scheduler} on traced, kernel ${kernel.replace(/\./g, '\\.')},`),
        );
      const r = await cli;
      expect(r.disk.preset).toBe('traced');
      expect(r.fit).not.toBeNull();
      expect(r.kernel.value).toBe(kernel);
      expect(await shown(page)).toEqual(expected(r));
      // a caution is an alert, seen without looking for it
      if (r.caution.length > 0)
        expect(await page.getByRole('alert').first().textContent()).toContain(r.caution[0]);
      // no CLI option in the page's text: each choice is a menu
      expect(await result.textContent()).not.toMatch(/--[a-z]/);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('replay-units').scrollIntoViewIfNeeded();
    await lab.shot(page, 'trace-replay-fitted.png');
    await page.getByTestId('replay-agreement').scrollIntoViewIfNeeded();
    await lab.shot(page, 'trace-replay-agreement.png');

    // a preset far from the traced device: the caution is shown, as the CLI prints it
    await replay.getByRole('combobox', { name: 'Simulated device' }).selectOption('sata-7200-500g');
    await replay.getByRole('button', { name: 'Replay' }).click();
    const alert = page.getByTestId('replay-caution');
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.getAttribute('role')).toBe('alert');
    const preset = await spindleJson<ReplayReport>([
      'replay',
      trace,
      '--scheduler',
      'deadline',
      '--kernel',
      '2.6.32',
      '--disk',
      'sata-7200-500g',
      '--mode',
      'closed',
      '--json',
    ]);
    expect(preset.caution[0]).toMatch(/differs from the traced one .* by more than 2×/);
    expect(await shown(page)).toEqual(expected(preset));
    expect(await page.getByTestId('replay-device').textContent()).toContain(
      'The preset sata-7200-500g',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await replay.scrollIntoViewIfNeeded();
    await lab.shot(page, 'trace-replay-caution.png');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 240_000);

  it('takes the device facts from a meta.json added beside the upload, as the CLI takes them from the file beside the trace', async () => {
    // max_sectors_kb = 128 in this trace's meta.json: each 1 MiB bio splits in eight, as the
    // kernel split it; without the file the replay splits at Spindle's default, 512 KiB
    const name = 'kyber_seqread_1m_split';
    const bare = plainCopy('linux-6.18', name, 'trace.txt.gz'); // a folder without meta.json
    const beside = dataPath('linux-6.18', name, 'trace.txt.gz'); // the corpus's, meta.json beside
    const { page, problems } = await lab.openLab();
    await upload(page, bare);
    await waitForTrace(page, 'trace.txt');
    const replay = page.getByRole('region', { name: 'Replay' });
    const facts = page.getByTestId('replay-meta');
    expect(await facts.textContent()).toContain('No meta.json added');
    expect(await facts.textContent()).toContain('Spindle’s default, 512 KiB');
    await replay
      .getByLabel('The trace’s meta.json (optional)')
      .setInputFiles(dataPath('linux-6.18', name, 'meta.json'));
    await expect.poll(() => facts.textContent()).toContain('From meta.json:');
    // the traced scheduler it names becomes the menu's choice (nearest: kyber itself)
    expect(await replay.getByRole('combobox', { name: 'Scheduler' }).inputValue()).toBe('kyber');
    expect(await facts.locator('li').allTextContents()).toEqual([
      expect.stringMatching(/^scheduler \(.*\): kyber$/),
      expect.stringMatching(/^device\.rotational \(.*\): 1$/),
      expect.stringMatching(/^device\.max_sectors_kb \(.*\): 128$/),
      expect.stringMatching(/^device\.nr_requests \(.*\): 256$/),
      expect.stringMatching(/^device\.write_cache \(.*\): write back$/),
      expect.stringMatching(/^device\.fua \(.*\): 0$/),
    ]);
    await replay.getByRole('combobox', { name: 'Mode' }).selectOption('closed');
    const result = page.getByTestId('replay-result');
    const options = ['--scheduler', 'kyber', '--kernel', '6.18', '--mode', 'closed', '--json'];
    const cases = [
      { cli: beside, requests: 3072 }, // with the file: the kernel's 3,072 pieces
      { cli: bare, requests: 768 }, // without: two pieces a bio
    ];
    for (const [k, c] of cases.entries()) {
      if (k === 1) {
        await replay.getByRole('button', { name: 'Forget meta.json' }).click();
        await expect.poll(() => facts.textContent()).toContain('No meta.json added');
      }
      const cli = spindleJson<ReplayReport>(['replay', c.cli, ...options]);
      await replay.getByRole('button', { name: 'Replay' }).click();
      await expect
        .poll(() => result.textContent(), { timeout: 60_000 })
        .toContain(k === 0 ? 'meta.json: the traced kyber' : 'the trace does not give it');
      const r = await cli;
      expect(r.simulated.perRequest.count).toBe(c.requests);
      expect(await shown(page)).toEqual(expected(r));
    }
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 240_000);

  it('replays on a DiskSim disk opened in Settings, as spindle replay --disk-file does', async () => {
    // the Atlas 10K: zones with a cylinder between them and sector sparing
    const files = ['atlas10k.parv', 'atlas10k.diskspecs', 'atlas10k.model', 'atlas10k.seek'];
    const trace = plainCopy('linux-6.18', 'none_randread_4k', 'trace.txt.gz');
    const { page, problems } = await lab.openLab();
    await page.getByRole('button', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Settings' });
    await form
      .getByLabel('DiskSim disk files')
      .setInputFiles(files.map((f) => dataPath('disksim-validation', f)));
    await expect
      .poll(() => form.getByRole('status').first().textContent(), { timeout: 30_000 })
      .toBe('Opened file:atlas10k.parv.');
    await upload(page, trace);
    await waitForTrace(page, 'trace.txt');
    const replay = page.getByRole('region', { name: 'Replay' });
    await replay
      .getByRole('combobox', { name: 'Simulated device' })
      .selectOption('file:atlas10k.parv');
    await replay.getByRole('combobox', { name: 'Scheduler' }).selectOption('none');
    await replay.getByRole('combobox', { name: 'Kernel' }).selectOption('6.18');
    await replay.getByRole('combobox', { name: 'Mode' }).selectOption('closed');
    // (its note on stderr counts the parameters Spindle does not apply)
    const cli = spindle([
      'replay',
      trace,
      '--scheduler',
      'none',
      '--kernel',
      '6.18',
      '--disk-file',
      dataPath('disksim-validation', 'atlas10k.parv'),
      '--mode',
      'closed',
      '--json',
    ]);
    await replay.getByRole('button', { name: 'Replay' }).click();
    await expect
      .poll(() => page.getByTestId('replay-result').textContent(), { timeout: 60_000 })
      .toContain('under none on file:atlas10k.parv');
    const done = await cli;
    expect(done.code).toBe(0);
    const r = JSON.parse(done.stdout) as ReplayReport;
    expect(r.disk.preset).toBe('file:atlas10k.parv');
    expect(await shown(page)).toEqual(expected(r));
    expect(problems).toEqual([]);
    await page.context().close();
  }, 240_000);

  it('replays the fsync trace through the flush machinery, its flushes as the CLI counts them', async () => {
    // jbd2's preflush+FUA commit records and python3's fsync flushes: with meta.json (write
    // cache, no FUA) each goes through kernel 6.18's flush machinery, as the CLI's replay
    const name = 'mq-deadline_ext4_smallfiles_fsync';
    const trace = plainCopy('linux-6.18', name, 'trace.txt.gz');
    const { page, problems } = await lab.openLab();
    await upload(page, trace);
    await waitForTrace(page, 'trace.txt');
    const replay = page.getByRole('region', { name: 'Replay' });
    await replay
      .getByLabel('The trace’s meta.json (optional)')
      .setInputFiles(dataPath('linux-6.18', name, 'meta.json'));
    await expect
      .poll(() => page.getByTestId('replay-meta').textContent())
      .toContain('From meta.json:');
    await replay.getByRole('combobox', { name: 'Mode' }).selectOption('closed');
    const cli = spindleJson<ReplayReport>([
      'replay',
      dataPath('linux-6.18', name, 'trace.txt.gz'),
      '--mode',
      'closed',
      '--json',
    ]);
    await replay.getByRole('button', { name: 'Replay' }).click();
    const flushes = page.getByTestId('replay-flushes');
    await flushes.waitFor({ timeout: 120_000 });
    const r = await cli;
    const text = (await flushes.textContent())!.replace(/\s+/g, ' ');
    expect(r.flushes.commands.measured).toBe(2576);
    expect(text).toContain(`${count(r.flushes.flaggedQs)} Qs with preflush or FUA`);
    expect(text).toContain(
      'write cache yes, FUA no (write cache from meta.json; FUA from meta.json)',
    );
    expect(text).toContain(
      `flush commands measured ${count(r.flushes.commands.measured)}, simulated ${count(r.flushes.commands.simulated)}`,
    );
    expect(problems).toEqual([]);
    await page.context().close();
  }, 240_000);

  it('replays a trace under deadline: measured and simulated side by side', async () => {
    const { page, problems } = await lab.openLab();
    await upload(page, plainCopy('linux-6.18', 'none_randread_4k', 'trace.txt.gz'));
    await waitForTrace(page, 'trace.txt');
    const replay = page.getByRole('region', { name: 'Replay' });
    await replay.getByRole('combobox', { name: 'Scheduler' }).selectOption('deadline');
    await replay.getByRole('combobox', { name: 'Simulated device' }).selectOption('sata-7200-500g');
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
    // a preset: no fit, said so; with each request served in its traced D2C, the device's
    // figures are the trace's
    expect(await page.getByTestId('replay-device').textContent()).toContain(
      'The preset sata-7200-500g',
    );
    expect(units['At the device (D2C), mean ms']![2]).toBe(
      units['At the device (D2C), mean ms']![3],
    );
    expect(await page.getByTestId('agreement-counts').textContent()).toMatch(
      /^[\d,]+ dispatches where the scheduler had two or more requests to choose from/,
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
    await replay.getByRole('combobox', { name: 'Simulated device' }).selectOption('sata-7200-500g');
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
