// The agreement figures docs/VALIDATION.md records ("Trace replay"): the four Linux 6.18
// traces replayed trace-timed (each request at its traced arrival, served in its traced
// D2C) under the traced scheduler and under CFQ and deadline, with the options
// `spindle replay --mode trace-timed` takes from each trace's meta.json. The runs are
// deterministic: counts must be equal, fractions within half a unit of the last recorded
// place (chose 0.0005, concordance 0.0000005).
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import { metaBeside } from '../../cli/replay';
import { replayTrace, type ReplayReport } from '../../src/engine/trace/replay';
import { readTraceText, type TraceReading } from '../../src/engine/trace/replay-source';
import { dataPath, dataText } from '../helpers/data';

type Figures = [
  kernelChoices: number | null,
  choices: number,
  chose: number | null,
  fifoChose: number | null,
  concordance: number,
  fifoConcordance: number,
];

/** trace → scheduler (@preset: on that disk, not the fitted device) → figures, as recorded
 * in docs/VALIDATION.md */
const RECORDED: Record<string, Record<string, Figures>> = {
  bfq_randrw7030_jobs4: {
    bfq: [158, 0, null, null, 0.999969, 0.999969],
    cfq: [158, 1651, 0.114, 0.999, 0.993072, 0.999969],
    deadline: [158, 0, null, null, 0.999969, 0.999969],
    anticipatory: [158, 904, 0.256, 0.988, 0.999414, 0.999969],
  },
  kyber_seqread_1m_split: {
    kyber: [5, 0, null, null, 1, 1],
    cfq: [5, 3055, 0.387, 1, 0.96109, 1],
    deadline: [5, 0, null, null, 1, 1],
    bfq: [5, 2648, 0.573, 1, 0.988886, 1],
    anticipatory: [5, 3030, 0.492, 1, 0.984095, 1],
    // the preset takes 32 of the 64 the kernel had in flight: requests wait for tags
    'kyber@sata-7200-500g': [5, 3038, 0.573, 1, 0.982372, 1],
  },
  'mq-deadline_ext4_smallfiles_fsync': {
    // the data of each preflush write goes to the head of the dispatch list, as the kernel's
    // did (blk-flush.ts): the order is the kernel's, not arrival's
    'mq-deadline': [8, 0, null, null, 0.999999, 0.999908],
    cfq: [8, 3851, 0.327, 0.999, 0.984022, 0.999908],
    deadline: [8, 0, null, null, 0.999908, 0.999908],
    anticipatory: [8, 3519, 0.512, 0.998, 0.998255, 0.999908],
  },
  none_randread_4k: {
    none: [null, 0, null, null, 1, 1],
    cfq: [null, 8175, 0.03, 1, 0.856516, 1],
    deadline: [null, 0, null, null, 1, 1],
    bfq: [null, 1168, 0.146, 1, 0.999864, 1],
    anticipatory: [null, 487, 0.246, 1, 0.999979, 1],
  },
};

const readings = new Map<string, TraceReading>();
function replay(trace: string, run: string): ReplayReport {
  const [scheduler, disk] = run.split('@');
  let reading = readings.get(trace);
  if (reading === undefined)
    readings.set(trace, (reading = readTraceText(dataText('linux-6.18', trace, 'trace.txt.gz'))));
  const { meta } = metaBeside(dataPath('linux-6.18', trace, 'trace.txt.gz'));
  return replayTrace(reading, {
    mode: 'trace-timed',
    scheduler,
    ...(disk !== undefined ? { disk } : {}),
    ...(meta ? { meta } : {}),
  });
}

const near = (got: number | null, want: number | null, halfUnit: number): void => {
  if (want === null) expect(got).toBeNull();
  else expect(Math.abs(got! - want)).toBeLessThanOrEqual(halfUnit);
};

const CASES = Object.entries(RECORDED).flatMap(([trace, bySched]) =>
  Object.entries(bySched).map(([scheduler, f]) => ({ trace, scheduler, f })),
);

describe('agreement figures, trace-timed (docs/VALIDATION.md)', () => {
  it.each(CASES)(
    '$trace under $scheduler: the recorded figures',
    ({ trace, scheduler, f }) => {
      const r = replay(trace, scheduler);
      const a = r.agreement;
      expect(r.schedulerMapping.simulated).toBe(scheduler.split('@')[0]);
      expect(a.unmatched).toEqual({ kernel: 0, simulated: 0 }); // no merging in trace-timed
      expect(a.kernelChoices).toBe(f[0]);
      expect(a.choices).toBe(f[1]);
      near(a.chose, f[2], 0.0005);
      near(a.fifo.chose, f[3], 0.0005);
      near(a.concordance, f[4], 5e-7);
      near(a.fifo.concordance, f[5], 5e-7);
    },
    60_000,
  );

  it('the kernel’s own schedulers had almost no choices: at most 158 of 2,048 dispatches', () => {
    // from the trace alone (I, not yet D, at each of the kernel's dispatches)
    const kernel = Object.keys(RECORDED).map((trace) => {
      replay(trace, Object.keys(RECORDED[trace]!)[0]!); // reads the trace
      const dev = [...readings.get(trace)!.devices.values()].find((d) => d.qs.length > 0)!;
      const dispatched = dev.requests.filter((r) => r.dispatchedNs >= 0).length;
      return [dev.kernelHeld.inserted > 0 ? dev.kernelHeld.choices : null, dispatched];
    });
    // blk-mq without a scheduler traces no I: none counted
    expect(kernel).toEqual([
      [158, 2048],
      [5, 3072],
      [8, 3963],
      [null, 8192],
    ]);
  }, 60_000);

  it('under the traced scheduler (bfq, kyber, mq-deadline, none) the replay never has a choice; it keeps arrival order but for the flush machinery’s head insertions', () => {
    for (const [trace, scheduler] of [
      ['bfq_randrw7030_jobs4', 'bfq'],
      ['kyber_seqread_1m_split', 'kyber'],
      ['mq-deadline_ext4_smallfiles_fsync', 'mq-deadline'],
      ['none_randread_4k', 'none'],
    ] as const) {
      const a = replay(trace, scheduler).agreement;
      expect(a.choices).toBe(0);
      // the fsync trace's preflush writes: their data inserted at the head, as the kernel's
      if (trace === 'mq-deadline_ext4_smallfiles_fsync')
        expect(a.concordance!).toBeGreaterThan(a.fifo.concordance!);
      else expect(a.concordance).toBe(a.fifo.concordance);
    }
  }, 60_000);
});
