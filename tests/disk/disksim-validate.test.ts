// `spindle disksim-validate` on DiskSim 4.0's five development drives, run as a user runs
// it: DiskSim's validate mode (each request issued the trace's gap after the previous
// completion, one at a time, no host block layer) on the disk read from the .parv.
// Criteria (issue 17): simulated mean within 2% of the real drive's, demerit (DiskSim's
// rms) within 2× DiskSim's own on that drive. Figures and the drives that do not meet them
// yet are in docs/VALIDATION.md; those are it.fails here (the test turns red once they do,
// so the row must be updated).
import { describe, expect, it } from 'vitest';
import { spindle, spindleJson } from '../cli/run-cli';
import { dataPath } from '../helpers/data';
import { DEV_DRIVES, VALIDATION_DIR } from '../helpers/disksim';

interface Out {
  disk: string;
  requests: number;
  simulated: { mean: number; p50: number; p95: number; p99: number };
  measured: { mean: number; p50: number; p95: number; p99: number };
  demerit: number;
  demeritPercent: number;
  bufferHits: number;
  unapplied: Array<{ param: string; value: string; file: string; line: number; why: string }>;
}

const runs = new Map<string, Promise<Out>>();
/** `spindle disksim-validate X.parv X.trace.gz --json` on a development drive (run once). */
function validate(stem: string): Promise<Out> {
  if (!runs.has(stem)) {
    runs.set(
      stem,
      spindleJson<Out>([
        'disksim-validate',
        `${VALIDATION_DIR()}/${stem}.parv`,
        dataPath('disksim-validation', `${stem}.trace.gz`), // gunzipped by the CLI
        '--json',
      ]),
    );
  }
  return runs.get(stem)!;
}

/** Issue 17's criteria: mean within 2% of the measured, demerit within 2× DiskSim's. */
async function meetsCriteria(stem: string): Promise<void> {
  const drive = DEV_DRIVES.find((d) => d.stem === stem)!;
  const out = await validate(stem);
  expect(Math.abs(out.simulated.mean - out.measured.mean) / out.measured.mean).toBeLessThan(0.02);
  expect(out.demerit).toBeLessThan(2 * drive.disksimRms);
}

describe.each(DEV_DRIVES)('spindle disksim-validate $stem', (drive) => {
  it("replays every line and reports the real drive's mean as DiskSim measures it", async () => {
    const out = await validate(drive.stem);
    expect(out.measured.mean).toBeCloseTo(drive.measuredMeanMs, 3);
    expect(out.requests).toBeGreaterThan(7000);
    expect(out.demeritPercent).toBeCloseTo((100 * out.demerit) / out.measured.mean, 9);
    for (const u of out.unapplied) expect(u.file).toMatch(/\.(parv|diskspecs|model)$/);
  });
});

// Figures and why each falls short: docs/VALIDATION.md.
describe("issue 17's criteria on each development drive", () => {
  it('atlas10k: mean within 2%, demerit within 2× DiskSim', () => meetsCriteria('atlas10k'));

  it('hp_c2490a: mean within 2%, demerit within 2× DiskSim', () => meetsCriteria('hp_c2490a'));

  it('cheetah9LP: mean within 2%, demerit within 2× DiskSim', () => meetsCriteria('cheetah9LP'));

  it('hp_c2247a: mean within 2%, demerit within 2× DiskSim', () => meetsCriteria('hp_c2247a'));

  it('dec_rz26: mean within 2%, demerit within 2× DiskSim', () => meetsCriteria('dec_rz26'));
});

// DiskSim 4.0's own run on the same files (`disksim X.parv X.outv validate X.trace 0`): its
// "Disk Buffer hit ratio" count (whole, partial and ongoing read-ahead hits) and its mean.
describe('side by side with DiskSim on the same trace', () => {
  it('dec_rz26: the buffer hits DiskSim counts (1,348: 967 whole, 28 on the read-ahead, 353 partial)', async () => {
    expect((await validate('dec_rz26')).bufferHits).toBe(1348);
  });

  it("dec_rz26: DiskSim's mean (15.691 ms) to 0.005 ms", async () => {
    expect((await validate('dec_rz26')).simulated.mean).toBeCloseTo(15.691, 2);
  });

  it('hp_c2247a: the buffer hits DiskSim counts (1,561)', async () => {
    expect((await validate('hp_c2247a')).bufferHits).toBe(1561);
  });
});

it("hp_c2247a: with the drive's extra write disconnect, DiskSim's own mean to 0.1%", async () => {
  // DiskSim 4.0 on the same trace: 15.315 ms; before the extra disconnect was modelled
  // Spindle's writes came 0.27 ms under DiskSim's and the mean 0.7% under (docs/DISKSIM.md)
  const drive = DEV_DRIVES.find((d) => d.stem === 'hp_c2247a')!;
  const out = await validate('hp_c2247a');
  expect(Math.abs(out.simulated.mean / drive.disksimMeanMs - 1)).toBeLessThan(0.001);
  expect(out.demerit).toBeLessThan(1.1 * drive.disksimRms);
});

describe('disksim-validate errors', () => {
  it('a bad trace line is named with its file and line', async () => {
    const r = await spindle([
      'disksim-validate',
      `${VALIDATION_DIR()}/hp_c2247a.parv`,
      'package.json',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^spindle: package\.json:1: /);
  });

  it('needs both files', async () => {
    const r = await spindle(['disksim-validate', `${VALIDATION_DIR()}/hp_c2247a.parv`]);
    expect(r.code).toBe(2);
  });
});
