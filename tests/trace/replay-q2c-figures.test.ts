// The mean Q2C figures docs/VALIDATION.md records ("Trace replay", "Mean Q2C"): the four
// Linux 6.18 traces replayed closed and trace-timed under the traced scheduler on the device
// fitted to each trace, with the options `spindle replay` takes from each trace's meta.json.
// The 25 % bound on the closed-mode figure is replay-closed-validation.test.ts's. The runs are deterministic: counts equal, figures within half a unit of
// the last recorded place (0.00005 ms).
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import { metaBeside } from '../../cli/replay';
import { replayTrace, type ReplayMode, type ReplayReport } from '../../src/engine/trace/replay';
import { readTraceText, type TraceReading } from '../../src/engine/trace/replay-source';
import { dataPath, dataText } from '../helpers/data';

/** measured and simulated mean Q2C (ms) per bio and per request, and the requests made */
type Figures = {
  bio: [measured: number, simulated: number];
  request: [measured: number, simulated: number];
  requests: [kernel: number, simulated: number];
};

const RECORDED: Record<string, Partial<Record<ReplayMode, Figures>>> = {
  bfq_randrw7030_jobs4: {
    closed: { bio: [0.0544, 0.0302], request: [0.0544, 0.0302], requests: [2048, 2048] },
    'trace-timed': { bio: [0.0544, 0.0337], request: [0.0544, 0.0337], requests: [2048, 2048] },
  },
  kyber_seqread_1m_split: {
    closed: { bio: [5.0983, 4.4612], request: [4.9638, 2.7687], requests: [3072, 3072] },
    // trace-timed replays the kernel's requests: its "bios" are those 3,072
    'trace-timed': { bio: [5.0983, 4.9465], request: [4.9638, 4.9465], requests: [3072, 3072] },
  },
  'mq-deadline_ext4_smallfiles_fsync': {
    closed: { bio: [0.3459, 0.1515], request: [0.2835, 0.2198], requests: [3963, 3963] },
    'trace-timed': { bio: [0.3459, 0.2639], request: [0.2835, 0.2639], requests: [3963, 3963] },
  },
  none_randread_4k: {
    closed: { bio: [0.1971, 0.1627], request: [0.1971, 0.1627], requests: [8192, 8192] },
    'trace-timed': { bio: [0.1971, 0.1956], request: [0.1971, 0.1956], requests: [8192, 8192] },
  },
};

const readings = new Map<string, TraceReading>();
const reports = new Map<string, ReplayReport>();
function replay(trace: string, mode: ReplayMode): ReplayReport {
  const key = `${trace} ${mode}`;
  const done = reports.get(key);
  if (done) return done;
  let reading = readings.get(trace);
  if (reading === undefined)
    readings.set(trace, (reading = readTraceText(dataText('linux-6.18', trace, 'trace.txt.gz'))));
  const r = replayTrace(reading, {
    mode,
    ...metaBeside(dataPath('linux-6.18', trace, 'trace.txt.gz')),
  });
  reports.set(key, r);
  return r;
}

const mean = (u: { q2cMs: { mean: number } | null } | null): number => u!.q2cMs!.mean;
const near = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThanOrEqual(5e-5);

const CASES = Object.entries(RECORDED).flatMap(([trace, byMode]) =>
  Object.entries(byMode).map(([mode, f]) => ({ trace, mode: mode as ReplayMode, f: f })),
);

describe('mean Q2C, replayed under the traced scheduler on the fitted device (docs/VALIDATION.md)', () => {
  it.each(CASES)(
    '$trace, $mode: the recorded figures',
    ({ trace, mode, f }) => {
      const r = replay(trace, mode);
      expect(r.disk.preset).toBe('traced');
      expect(r.schedulerMapping.simulated).toBe(r.schedulerMapping.traced);
      near(mean(r.measured.perBio), f.bio[0]);
      near(mean(r.simulated.perBio), f.bio[1]);
      near(mean(r.measured.perRequest), f.request[0]);
      near(mean(r.simulated.perRequest), f.request[1]);
      expect([r.measured.perRequest.count, r.simulated.perRequest.count]).toEqual(f.requests);
    },
    60_000,
  );

  it('the small-files fsync trace, closed: the kernel’s 3,963 requests, its 7,941 merges all made in plugs', () => {
    // every M of the trace came while its process's plug was open (P … U): the Qs of one
    // plug replayed as one submission merge as the kernel's did (before: 11,244 requests)
    const r = replay('mq-deadline_ext4_smallfiles_fsync', 'closed');
    expect(r.requests.inPlug).toBe(7947);
    expect(r.simulated.perRequest.count).toBe(3963);
    expect(r.measured.perBio!.count - r.measured.perRequest.count).toBe(7941);
  }, 60_000);

  it('the small-files fsync trace: its preflush+FUA writes go through the flush machinery, its flush commands served by their own fitted term', () => {
    const closed = replay('mq-deadline_ext4_smallfiles_fsync', 'closed');
    // meta.json: write_cache "write back", fua 0 — each FWFSM write needs a flush before
    // its data and one after; 30 empty flushes (fsync's Q FWS) one before
    expect(closed.flushes).toMatchObject({ writeCache: true, fua: false, flaggedQs: 1306 });
    expect(closed.flushes.source).toBe('write cache from meta.json; FUA from meta.json');
    expect(closed.fit!.flush!.samples).toBe(2576);
    near(closed.fit!.flush!.baseMs, 0.3343);
    // closed: the kernel's 2,576 flush commands, the replay's 2,570 (a few more coalesced)
    expect(closed.flushes.commands).toEqual({ measured: 2576, simulated: 2570 });
    // trace-timed serves the kernel's flushes in their traced D2C, in order: the same count
    const timed = replay('mq-deadline_ext4_smallfiles_fsync', 'trace-timed');
    expect(timed.flushes.commands).toEqual({ measured: 2576, simulated: 2576 });
  }, 60_000);
});
