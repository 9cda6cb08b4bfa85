// Replay's units (issue 15 item 4, src/engine/trace/replay-units.ts): per bio and per request,
// counted alike on the measured and the simulated side; null where there are none.
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import { readTraceText } from '../../src/engine/trace/replay-source';
import { replayTrace } from '../../src/engine/trace/replay';
import { latencyOf, UnitCounter } from '../../src/engine/trace/replay-units';

let seq = 0;
const line = (t: number, pid: number, a: string, rwbs: string, rest: string): string =>
  `  8,0    0 ${String(++seq).padStart(8)} ${t.toFixed(9).padStart(15)} ${String(pid).padStart(5)}  ${a} ${rwbs.padStart(3)} ${rest}`;

/** one process writes 4 KiB four times, back to back: the kernel merges the four bios into
 * one 16 KiB request (G, then M, M, M), dispatched at 1 ms and completed at 3 ms */
function mergedTrace(): string {
  seq = 0;
  return [
    line(0.0, 7, 'Q', 'W', '1000 + 8 [dd]'),
    line(0.0, 7, 'G', 'W', '1000 + 8 [dd]'),
    line(0.0001, 7, 'Q', 'W', '1008 + 8 [dd]'),
    line(0.0001, 7, 'M', 'W', '1008 + 8 [dd]'),
    line(0.0002, 7, 'Q', 'W', '1016 + 8 [dd]'),
    line(0.0002, 7, 'M', 'W', '1016 + 8 [dd]'),
    line(0.0003, 7, 'Q', 'W', '1024 + 8 [dd]'),
    line(0.0003, 7, 'M', 'W', '1024 + 8 [dd]'),
    line(0.001, 7, 'D', 'W', '1000 + 32 [dd]'),
    line(0.003, 0, 'C', 'W', '1000 + 32 [0]'),
  ].join('\n');
}

describe('units: per bio and per request', () => {
  it('four bios merged into one request: 4 bios and 1 request, IOPS 4:1, the same MB/s', () => {
    const r = replayTrace(readTraceText(mergedTrace()), { scheduler: 'noop' });
    const bio = r.measured.perBio!;
    const rq = r.measured.perRequest;
    expect(r.measured.spanMs).toBeCloseTo(3, 9); // first Q → last C
    expect(bio.count).toBe(4);
    expect(rq.count).toBe(1);
    expect(bio.iops).toBeCloseTo(4 / 0.003, 6);
    expect(rq.iops).toBeCloseTo(1 / 0.003, 6);
    expect(bio.mbps).toBeCloseTo(rq.mbps, 12);
    expect(rq.mbps).toBeCloseTo((32 * 512) / 1e6 / 0.003, 9);
    // per bio: Q2C 3, 2.9, 2.8, 2.7 ms; each bio's D2C is its request's, 2 ms
    expect(bio.q2cMs).toMatchObject({ n: 4, max: 3 });
    expect(bio.q2cMs!.mean).toBeCloseTo(2.85, 9);
    expect(bio.d2cMs).toMatchObject({ n: 4, mean: 2, max: 2 });
    // per request: its first bio's Q (0) → C (3 ms), D → C 2 ms
    expect(rq.q2cMs).toMatchObject({ n: 1, mean: 3 });
    expect(rq.d2cMs).toMatchObject({ n: 1, mean: 2 });
    // btt counts both its rows per bio: its D2C is the per-bio one
    expect(r.measured.btt.q2c!.n).toBe(4);
    expect(r.measured.btt.d2c).toMatchObject({ n: 4, avg: 0.002 });
  });

  it('the simulated side is counted from its own events: 2.6.32 merges the four too', () => {
    const r = replayTrace(readTraceText(mergedTrace()), { scheduler: 'noop', kernel: '2.6.32' });
    const s = r.simulated;
    expect(r.summary.requests.backMerges).toBe(3);
    expect(s.perBio.count).toBe(4);
    expect(s.perRequest.count).toBe(1);
    expect(s.perBio.count).toBe(r.summary.requests.iosCompleted);
    expect(s.perRequest.count).toBe(r.summary.requests.completed);
    expect(s.perBio.iops).toBeCloseTo(4 * s.perRequest.iops, 9);
    expect(s.perBio.mbps).toBeCloseTo(s.perRequest.mbps, 9);
    expect(s.spanMs).toBe(r.summary.simulatedTimeMs);
    // every bio's D2C is its request's; the request's Q2C is its first bio's, the longest
    expect(s.perBio.d2cMs!.max).toBe(s.perRequest.d2cMs!.max);
    expect(s.perBio.d2cMs!.p50).toBe(s.perRequest.d2cMs!.p50);
    expect(s.perRequest.q2cMs!.max).toBe(s.perBio.q2cMs!.max);
  });

  it('trace-timed: the kernel’s one request is replayed, one bio and one request simulated', () => {
    const r = replayTrace(readTraceText(mergedTrace()), { scheduler: 'noop', mode: 'trace-timed' });
    expect(r.requests.units).toBe('requests');
    expect(r.simulated.perBio.count).toBe(1);
    expect(r.simulated.perRequest.count).toBe(1);
    // served in its traced D2C
    expect(r.simulated.perRequest.d2cMs!.mean).toBeCloseTo(2, 6);
  });

  it('a trace without Qs: no bios, no Q2C and no btt Q2C row — null, not zeros', () => {
    seq = 0;
    const dc = [
      line(0.001, 7, 'D', 'R', '1000 + 8 [dd]'),
      line(0.002, 0, 'C', 'R', '1000 + 8 [0]'),
      line(0.003, 7, 'D', 'R', '5000 + 8 [dd]'),
      line(0.0055, 0, 'C', 'R', '5000 + 8 [0]'),
    ].join('\n');
    const r = replayTrace(readTraceText(dc), { scheduler: 'noop' });
    // btt follows each Q to its C: without Qs it prints neither row
    expect(r.measured.btt).toEqual({ q2c: null, d2c: null });
    expect(r.measured.perBio).toBeNull();
    expect(r.measured.perRequest).toMatchObject({ count: 2, q2cMs: null });
    expect(r.measured.perRequest.d2cMs).toMatchObject({ n: 2, mean: 1.75, max: 2.5 });
  });

  it('a trace whose requests never complete: btt prints no row, every latency is null', () => {
    seq = 0;
    const q = [line(0, 7, 'Q', 'R', '1000 + 8 [dd]'), line(0.001, 7, 'D', 'R', '1000 + 8 [dd]')];
    const r = replayTrace(readTraceText(q.join('\n')), { scheduler: 'noop' });
    expect(r.measured.btt).toEqual({ q2c: null, d2c: null });
    expect(r.measured.perBio).toMatchObject({ count: 0, q2cMs: null, d2cMs: null, iops: 0 });
    expect(r.measured.perRequest).toMatchObject({ count: 0, q2cMs: null, d2cMs: null });
  });
});

describe('UnitCounter', () => {
  const bio = (tNs: number, sector: number, nSectors: number) => ({
    tNs,
    sector,
    nSectors,
    dispatchedNs: -1,
    doneNs: -1,
  });

  it('a split bio is done with its last piece; each piece is a request with the bio’s Q', () => {
    const u = new UnitCounter();
    const b = bio(0, 0, 16);
    u.queued(b);
    u.dispatched(1e6, 0, 8, false);
    u.dispatched(2e6, 8, 8, false);
    u.completed(3e6, 0, 8, false);
    expect(b.doneNs).toBe(-1);
    u.completed(5e6, 8, 8, false);
    expect(b).toMatchObject({ dispatchedNs: 1e6, doneNs: 5e6 });
    const f = u.figures(5);
    expect(f.perBio).toMatchObject({ count: 1, q2cMs: { n: 1, mean: 5 }, d2cMs: { mean: 3 } });
    expect(f.perRequest.count).toBe(2);
    expect(f.perRequest.q2cMs).toMatchObject({ mean: 4, max: 5 }); // 3 and 5 ms
    expect(f.perRequest.d2cMs).toMatchObject({ mean: 2.5, max: 3 }); // 2 and 3 ms
  });

  it('a requeued request counts from the D after its R', () => {
    const u = new UnitCounter();
    u.queued(bio(0, 100, 8));
    u.dispatched(1e6, 100, 8, true);
    u.requeued(100, true);
    u.dispatched(4e6, 100, 8, true);
    u.completed(5e6, 100, 8, true);
    expect(u.figures(5).perRequest.d2cMs).toMatchObject({ n: 1, mean: 1 });
    expect(u.figures(5).perBio.d2cMs).toMatchObject({ n: 1, mean: 1 });
  });

  it('latencyOf: nearest-rank percentiles in ms, null for none', () => {
    expect(latencyOf([])).toBeNull();
    const l = latencyOf([4e6, 1e6, 3e6, 2e6])!;
    expect(l).toEqual({ n: 4, mean: 2.5, p50: 2, p95: 4, p99: 4, max: 4 });
  });
});
