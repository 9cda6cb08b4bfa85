// The replayed drive's queue depth (replay-depth.ts): the device-wide most requests in flight
// at once, D to C (replay-source.ts's mostInFlight), up to the drive's limit — a preset's
// maxQueueDepth, else Spindle's own (MAX_QUEUE_DEPTH, 256) — and the source says so.
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import { MAX_QUEUE_DEPTH } from '../../src/engine/disk/params';
import { loadScenario } from '../../src/engine/scenario/load';
import { chooseQueueDepth } from '../../src/engine/trace/replay-depth';
import { readTraceText } from '../../src/engine/trace/replay-source';
import { replayTrace } from '../../src/engine/trace/replay';
import { dataText } from '../helpers/data';
import { proc, scenario } from '../helpers/scenario';
import { tracedRun } from '../helpers/traced-run';

let seq = 0;
/** blkparse lines on `cpu`: [ms, cpu, action, rwbs, sector] */
function trace(events: Array<[number, number, string, string, number]>): string {
  seq = 0;
  return events
    .map(
      ([ms, cpu, a, rwbs, sector]) =>
        `  8,0    ${cpu} ${String(++seq).padStart(8)} ${(ms / 1000).toFixed(9).padStart(15)}   100  ${a} ${rwbs.padStart(3)} ${sector} + 8 ${a === 'C' || a === 'R' ? '[0]' : '[fio]'}`,
    )
    .join('\n');
}

/** Qs at 0 on CPU 0; D and C spread over CPUs 0 and 1: at most three requests between D
 * and C at once (2.0–2.5 ms); a requeued request (R) is out of the device until its next D */
const OVERLAP = trace([
  [0, 0, 'Q', 'R', 1000],
  [0, 0, 'Q', 'R', 2000],
  [0, 0, 'Q', 'R', 3000],
  [0, 0, 'Q', 'R', 4000],
  [0, 0, 'Q', 'W', 5000],
  [1, 0, 'D', 'R', 1000],
  [1.5, 1, 'D', 'R', 2000],
  [2, 0, 'D', 'W', 5000],
  [2.5, 1, 'C', 'R', 1000],
  [3, 0, 'D', 'R', 3000],
  [3.1, 0, 'R', 'R', 3000],
  [3.2, 1, 'D', 'R', 4000],
  [3.3, 1, 'C', 'W', 5000],
  [3.4, 0, 'D', 'R', 3000],
  [4, 1, 'C', 'R', 2000],
  [4.1, 0, 'C', 'R', 3000],
  [4.2, 1, 'C', 'R', 4000],
  [4.3, 1, 'C', 'R', 9000], // a C of nothing traced: ignored
]);

describe('the most requests in flight on the device (D to C)', () => {
  it('counts every direction and CPU together; a requeue leaves; a stray C is ignored', () => {
    const dev = readTraceText(OVERLAP).devices.get('8,0')!;
    expect(dev.mostInFlight).toBe(3);
  });

  it('a trace without any C knows nothing of it (0): blkparse’s depth is used', () => {
    const noC = trace([
      [0, 0, 'Q', 'R', 1000],
      [0, 0, 'Q', 'R', 2000],
      [1, 0, 'D', 'R', 1000],
      [2, 0, 'D', 'R', 2000],
    ]);
    const reading = readTraceText(noC);
    const dev = reading.devices.get('8,0')!;
    expect(dev.mostInFlight).toBe(0);
    const d = chooseQueueDepth(undefined, reading, dev, { depth: 32, name: 'ssd' });
    expect(d.value).toBe(2);
    expect(d.source).toBe(
      "blkparse's depth, 2: the trace has no completions, so this counts every dispatch never completed, not how many the device held at once (an upper bound)",
    );
  });
});

describe('chooseQueueDepth', () => {
  const reading = readTraceText(OVERLAP);
  const dev = reading.devices.get('8,0')!;
  const many = { ...dev, mostInFlight: 96 };

  it('the traced figure when the drive takes it', () => {
    expect(chooseQueueDepth(undefined, reading, dev, { depth: 32, name: 'ssd' })).toEqual({
      value: 3,
      source: "the trace's most requests in flight on the device at once (D to C): 3",
    });
  });

  it("capped at the drive's deepest queue, and at Spindle's 256 when the drive has none", () => {
    expect(chooseQueueDepth(undefined, reading, many, { depth: 32, name: 'ssd' })).toEqual({
      value: 32,
      source:
        "the trace's most requests in flight on the device at once (D to C): 96, capped at 32 (ssd's deepest queue)",
    });
    expect(chooseQueueDepth(undefined, reading, many, { depth: null, name: 'x' }).value).toBe(96);
    const huge = { ...dev, mostInFlight: 1000 };
    expect(chooseQueueDepth(undefined, reading, huge, { depth: null, name: 'x' })).toMatchObject({
      value: MAX_QUEUE_DEPTH,
      source: expect.stringMatching(/: 1000, capped at 256 \(the most Spindle models\)$/),
    });
  });

  it('--queue-depth wins', () => {
    expect(chooseQueueDepth(7, reading, many, { depth: 32, name: 'ssd' })).toEqual({
      value: 7,
      source: '--queue-depth',
    });
  });
});

describe('real traces: the replay’s queue depth', () => {
  // the kyber trace had 64 requests in flight at once; the ssd preset takes 32
  it('kyber_seqread_1m_split: 64 in flight, capped at the ssd preset’s 32', () => {
    const reading = readTraceText(dataText('linux-6.18', 'kyber_seqread_1m_split', 'trace.txt.gz'));
    expect(reading.devices.get('7,0')!.mostInFlight).toBe(64);
    const r = replayTrace(reading, {
      mode: 'trace-timed',
      disk: 'ssd',
      meta: { scheduler: 'kyber', rotational: 0 },
    });
    expect(r.queueDepth).toEqual({
      value: 32,
      source:
        "the trace's most requests in flight on the device at once (D to C): 64, capped at 32 (ssd's deepest queue)",
    });
  });
});

describe('the engine takes queue depths up to 256', () => {
  const load = (disk: Record<string, unknown>) =>
    loadScenario(
      {
        name: 'deep',
        disk: { preset: 'ssd', ...disk },
        workload: { processes: [{ name: 'p', outstanding: 256 }] },
        stop: { requests: 10 },
      },
      'deep.json',
    );

  it('a scenario may set disk.queueDepth and maxQueueDepth to 256, not 257', () => {
    expect(load({ maxQueueDepth: 256, queueDepth: 256 }).disk.queueDepth).toBe(256);
    expect(() => load({ maxQueueDepth: 256, queueDepth: 257 })).toThrow(
      /disk\.queueDepth: must be an integer from 1 to 256 \(got 257\)/,
    );
    expect(() => load({ maxQueueDepth: 257, queueDepth: 1 })).toThrow(/disk\.maxQueueDepth/);
    // a preset's own limit still holds
    expect(() => load({ queueDepth: 64 })).toThrow(/from 1 to 32, the drive's maxQueueDepth/);
  });

  it('a drive of 256 tags holds 256 commands at once', () => {
    const { trace: events } = tracedRun(
      scenario({
        preset: 'ssd',
        overrides: { maxQueueDepth: 256 },
        queueDepth: 256,
        iosched: 'none',
        kernel: '6.18',
        stopRequests: 600,
        processes: [proc({ name: 'p', outstanding: 300 })],
      }),
    );
    const firstC = events.findIndex((e) => e.action === 'C');
    const dBefore = events.slice(0, firstC).filter((e) => e.action === 'D').length;
    expect(dBefore).toBe(256);
  });
});
