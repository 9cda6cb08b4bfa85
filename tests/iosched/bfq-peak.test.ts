// BFQ's peak-rate estimator and what it tunes (src/engine/iosched/bfq-peak.ts), against
// block/bfq-iosched.c of Linux 6.x: bfq_update_peak_rate, bfq_update_rate_reset,
// bfq_reset_rate_computation, bfq_calc_max_budget (update_thr_responsiveness_params), the
// late-completion check of bfq_completed_request, bfq_timeout_sync_store.
import { describe, expect, it } from 'vitest';
import { bfqFresh, mkRq, MS } from './bfq-harness';
import { calcMaxBudget, rateOnCompletion, updatePeakRate } from '../../src/engine/iosched/bfq-peak';
import { wrDuration } from '../../src/engine/iosched/bfq-wr';
import { bfq, type BfqState } from '../../src/engine/iosched/bfq';
import { ensureRegistered } from '../../src/engine/iosched/elevator';
import { proc, scenario } from '../helpers/scenario';
import { tracedRun } from '../helpers/traced-run';

ensureRegistered(bfq);

/** dispatches of `n` sectors every `gapMs`, `count` of them, at `sectorOf(i)` */
function feed(
  o: { count: number; gapMs: number; n: number; sectorOf: (i: number) => number },
  f = bfqFresh(),
) {
  const { s, ctx } = f;
  s.rqInDriver = 1; // requests in flight: each dispatch is "close" to the last
  for (let i = 0; i < o.count; i++) {
    ctx.now = i * o.gapMs * MS;
    updatePeakRate(s, mkRq(ctx, { pid: 1, sector: o.sectorOf(i), n: o.n }), true, ctx);
  }
  return { s, ctx };
}

describe('bfq: the peak rate (bfq_update_peak_rate)', () => {
  it('bfq_init_queue: the estimate starts at 2/3 of ref_rate (14000 on a disk, 33000 on an SSD; sectors/µs << 16)', () => {
    expect(bfqFresh().s.peakRate).toBe(9333);
    expect(bfqFresh({ ssd: true }).s.peakRate).toBe(22000);
  });

  it('bfq_update_rate_reset: one second of sequential dispatches (weight 8, divisor 2) moves the rate half way, and max_budget follows (bfq_calc_max_budget)', () => {
    // 1001 dispatches of 256 sectors, 1 ms apart: 256256 sectors in 1 s → rate 16793
    const { s } = feed({ count: 1001, gapMs: 1, n: 256, sectorOf: (i) => i * 256 });
    // peak = 9333 × 1/2 + 16793 / 2
    expect(s.peakRate).toBe(13062);
    expect(s.peakRateUpdates).toBe(1);
    // max_budget = peak × 1000 × jiffies_to_msecs(HZ/8 = 31 jiffies = 124 ms) >> 16
    expect(s.maxBudget).toBe(24714);
    expect(calcMaxBudget(s)).toBe(24714);
    // the next interval starts at the dispatch that closed this one
    expect(s.peakRateSamples).toBe(1);
  });

  it('bfq_update_rate_reset: a seeky interval slower than the estimate leaves it, and the automatic max_budget, alone', () => {
    const { s } = feed({ count: 1001, gapMs: 1, n: 8, sectorOf: (i) => (i * 7919 * 8192) % 1e9 });
    expect(s.peakRate).toBe(9333);
    expect(s.peakRateUpdates).toBe(0);
    expect(s.maxBudget).toBe(16384);
  });

  it('bfq_update_rate_reset: fewer than 32 samples, or under 300 ms, make no estimate', () => {
    const few = feed({ count: 20, gapMs: 60, n: 256, sectorOf: (i) => i * 256 });
    expect(few.s.peakRateUpdates).toBe(0);
    // 300 samples in 299 ms, then the device idles 150 ms with nothing in flight: the
    // interval closes at that dispatch, too short to count
    const f = feed({ count: 300, gapMs: 1, n: 256, sectorOf: (i) => i * 256 });
    f.s.rqInDriver = 0;
    f.ctx.now += 150 * MS;
    updatePeakRate(f.s, mkRq(f.ctx, { pid: 1, sector: 300 * 256, n: 256 }), true, f.ctx);
    expect(f.s.peakRateUpdates).toBe(0);
    expect(f.s.peakRateSamples).toBe(1);
  });

  it('bfq_update_peak_rate: a dispatch after 100 ms with nothing in flight closes a long enough interval and estimates', () => {
    const f = feed({ count: 400, gapMs: 1, n: 256, sectorOf: (i) => i * 256 });
    f.s.rqInDriver = 0;
    f.ctx.now += 150 * MS;
    updatePeakRate(f.s, mkRq(f.ctx, { pid: 1, sector: 400 * 256, n: 256 }), true, f.ctx);
    expect(f.s.peakRateUpdates).toBe(1);
    expect(f.s.peakRate).toBeGreaterThan(9333);
  });

  it('bfq_update_peak_rate: the dispatch records last_position and, for the in-service queue, in_serv_last_pos', () => {
    const { s, ctx } = bfqFresh();
    updatePeakRate(s, mkRq(ctx, { pid: 1, sector: 5000, n: 8 }), false, ctx);
    expect([s.lastPosition, s.inServLastPos]).toEqual([5008, 0]);
    updatePeakRate(s, mkRq(ctx, { pid: 1, sector: 9000, n: 8 }), true, ctx);
    expect([s.lastPosition, s.inServLastPos]).toEqual([9008, 9008]);
  });

  it('bfq_completed_request: a completion so late that the largest recent request ran under 1M sectors/s ends the interval', () => {
    const { s } = feed({ count: 40, gapMs: 1, n: 2, sectorOf: (i) => i * 2 });
    s.lastCompletionNs = 40 * MS;
    rateOnCompletion(s, 41 * MS); // 2 sectors in 1 ms: under 2 ms, not "late"
    expect(s.peakRateSamples).toBe(40);
    rateOnCompletion(s, 44 * MS); // 2 sectors in 3 ms < 1M sectors/s
    expect(s.peakRateSamples).toBe(0);
    expect(s.lastCompletionNs).toBe(44 * MS);
  });

  it('bfq_timeout_sync_store: writing timeout_sync recomputes an automatic max_budget (not a user one)', () => {
    // 250 ms at HZ 250 is 63 jiffies = 252 ms: 9333 × 1000 × 252 >> 16
    expect(bfqFresh({ t: { timeout_sync: 250 } }).s.maxBudget).toBe(35887);
    expect(bfqFresh({ t: { timeout_sync: 250, max_budget: 4000 } }).s.maxBudget).toBe(4000);
    expect(bfqFresh().s.maxBudget).toBe(16384);
  });

  it('in the engine: a sequential reader on a disk autotunes max_budget and the interactive raising period (bfq_wr_duration)', () => {
    const r = tracedRun(
      scenario({
        iosched: 'bfq',
        kernel: '6.18',
        preset: 'sata-7200-500g',
        queueDepth: 32,
        processes: [proc({ name: 's', op: 'read', pattern: 'sequential', sizeKiB: 64 })],
        stopMs: 3000,
      }),
    );
    const s = r.sim.state.host.elevator as BfqState;
    expect(s.peakRateUpdates).toBeGreaterThan(0);
    expect(s.maxBudget).toBe(calcMaxBudget(s));
    expect(s.maxBudget).not.toBe(16384);
    // faster than the reference disk: shorter raising than 10.5 s (the 3 s floor at most)
    expect(wrDuration(s)).toBeLessThan(2625);
    expect(wrDuration(s)).toBeGreaterThanOrEqual(750);
  });
});
