// Closed-mode replay on the four Linux 6.18 traces (tests/data/linux-6.18), each under the
// scheduler it was traced under, on the device fitted to it, with the options `spindle
// replay --mode closed` takes from its meta.json: the simulated mean Q2C per bio (btt's unit)
// against the measured one. Issue 15's bound is 25 %; docs/VALIDATION.md ("Trace replay",
// "Closed mode") records each figure, and a trace that misses is an `it.fails` with its
// figures, never a loosened bound. The per-request mean is printed beside it, not held.
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import { metaBeside } from '../../cli/replay';
import { replayTrace, type ReplayReport } from '../../src/engine/trace/replay';
import { readTraceText } from '../../src/engine/trace/replay-source';
import { dataPath, dataText } from '../helpers/data';

const BOUND = 0.25;

function closedReplay(trace: string): ReplayReport {
  const reading = readTraceText(dataText('linux-6.18', trace, 'trace.txt.gz'));
  const { meta } = metaBeside(dataPath('linux-6.18', trace, 'trace.txt.gz'));
  return replayTrace(reading, { mode: 'closed', ...(meta ? { meta } : {}) });
}

/** Simulated against measured mean Q2C per bio, as a relative error. */
function q2cError(r: ReplayReport): { simulated: number; measured: number; error: number } {
  // the traced scheduler, on the fitted device
  expect(r.schedulerMapping.simulated).toBe(r.schedulerMapping.traced);
  expect(r.disk).toMatchObject({ preset: 'traced' });
  const simulated = r.simulated.perBio!.q2cMs!.mean;
  const measured = r.measured.perBio!.q2cMs!.mean;
  return { simulated, measured, error: Math.abs(simulated - measured) / measured };
}

describe('closed mode under the traced scheduler on the fitted device: mean Q2C within 25 %', () => {
  it('none_randread_4k (none): mean Q2C per bio within 25 % of the measured', () => {
    const e = q2cError(closedReplay('none_randread_4k'));
    expect(e.error).toBeLessThan(BOUND);
  }, 60_000);

  it('kyber_seqread_1m_split (kyber): mean Q2C per bio within 25 % of the measured', () => {
    const e = q2cError(closedReplay('kyber_seqread_1m_split'));
    expect(e.error).toBeLessThan(BOUND);
  }, 60_000);

  // 0.1515 ms simulated against 0.3459 measured (56 %), with the kernel's 3,963 requests
  // (its plug merges: replay-plugs.ts) and its flush sequences (blk-flush.ts; 2,570 flush
  // commands against 2,576): the final sync's 7 plain metadata writes (116 bios) took 19.3 ms
  // each on the loop device (57 % of the measured sum; 0.47 ms each replayed); the 1,276
  // preflush+FUA bios 0.421 against 0.466, the other 10,512 0.115 against 0.113
  // (docs/VALIDATION.md)
  it.fails(
    'mq-deadline_ext4_smallfiles_fsync (mq-deadline): mean Q2C per bio within 25 % of the measured',
    () => {
      const e = q2cError(closedReplay('mq-deadline_ext4_smallfiles_fsync'));
      expect(e.error).toBeLessThan(BOUND);
    },
    60_000,
  );

  // 0.0302 ms simulated against 0.0544 measured (45 %): the kernel spent 20.7 µs per request
  // between Q and D with the device idle (host time; I2D alone 15.0 µs), which Spindle's
  // schedulers do not take; the fitted D2C is 30.2 µs against 33.7 (docs/VALIDATION.md)
  it.fails(
    'bfq_randrw7030_jobs4 (bfq): mean Q2C per bio within 25 % of the measured',
    () => {
      const e = q2cError(closedReplay('bfq_randrw7030_jobs4'));
      expect(e.error).toBeLessThan(BOUND);
    },
    60_000,
  );
});
