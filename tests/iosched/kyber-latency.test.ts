// Kyber's latency side (src/engine/iosched/kyber.ts) against Linux 6.18
// block/kyber-iosched.c: the histograms, the percentiles, the timer's depth scaling, the
// inspection view and determinism — each test named after the kernel function.
import { describe, expect, it } from 'vitest';
import { ensureRegistered } from '../../src/engine/iosched/elevator';
import {
  calculatePercentile,
  kyber,
  latencyBucket,
  type KyberState,
} from '../../src/engine/iosched/kyber';
import { KYBER_IO_LATENCY, KYBER_TOTAL_LATENCY } from '../../src/engine/iosched/kyber-tunables';
import type { KyberView } from '../../src/engine/iosched/kyber-view';
import { buildModel } from '../../src/engine/model';
import { createSimulation, peekTime, step } from '../../src/engine/simulation';
import { proc, scenario } from '../helpers/scenario';
import { rd, tracedRun } from '../helpers/traced-run';
import { fresh, insert } from './kyber-harness';

ensureRegistered(kyber);

const MS = 1e6;

describe('kyber: latency histograms and the timer (kyber_timer_fn)', () => {
  it('add_latency_sample: buckets a quarter of the target wide, the last one open', () => {
    const t = 2_000_000;
    expect(
      [0, 1, 500_000, 500_001, 2_000_000, 2_000_001, 3_500_000, 3_500_001, 1e9].map((l) =>
        latencyBucket(t, l),
      ),
    ).toEqual([0, 0, 0, 1, 3, 4, 6, 7, 7]);
    expect(latencyBucket(0, 5)).toBe(4); // target 0: divisor 1, (5 − 1) / 1
  });

  it('kyber_completed_request: a sample of each type (from allocation; from the device start), timer at jiffies + HZ/10', () => {
    const { s, ctx } = fresh(250);
    const a = insert(s, ctx, false); // allocated at 0
    ctx.now = 1 * MS;
    kyber.dispatch(s, false, ctx);
    kyber.activate!(s, a, ctx); // started at 1 ms
    ctx.now = 2.2 * MS;
    kyber.completed(s, a, ctx);
    // total 2.2 ms → bucket 4 (over the 2 ms target); I/O 1.2 ms → bucket 2
    expect(s.cpuBuckets[0]![KYBER_TOTAL_LATENCY]![4]).toBe(1);
    expect(s.cpuBuckets[0]![KYBER_IO_LATENCY]![2]).toBe(1);
    // jiffy 0 at 250 Hz + 25 → 100 ms
    expect(ctx.timers).toEqual([100 * MS]);
    // timer_reduce: a pending timer is not pushed later
    ctx.now = 50 * MS;
    kyber.completed(s, a, ctx);
    expect(ctx.timers).toEqual([100 * MS]);
  });

  it('calculate_percentile: none before 500 samples or one second (HZ) from the first look; then the bucket, and the histogram is cleared', () => {
    const { s } = fresh(100);
    s.buckets[0]![KYBER_TOTAL_LATENCY]![1] = 99;
    s.buckets[0]![KYBER_TOTAL_LATENCY]![5] = 1;
    expect(calculatePercentile(s, 0, KYBER_TOTAL_LATENCY, 99, 10)).toBe(-1);
    expect(s.latencyTimeoutJ[0]).toBe(110);
    expect(calculatePercentile(s, 0, KYBER_TOTAL_LATENCY, 99, 109)).toBe(-1);
    // at the timeout: rank ⌈100 × 99 / 100⌉ = 99 falls in bucket 1; p100 would be 5
    expect(calculatePercentile(s, 0, KYBER_TOTAL_LATENCY, 99, 110)).toBe(1);
    expect(s.buckets[0]![KYBER_TOTAL_LATENCY]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(s.latencyTimeoutJ[0]).toBe(0);
    s.buckets[1]![KYBER_IO_LATENCY]![6] = 500;
    expect(calculatePercentile(s, 1, KYBER_IO_LATENCY, 90, 0)).toBe(6); // 500 samples: at once
    expect(calculatePercentile(s, 2, KYBER_IO_LATENCY, 90, 0)).toBe(-1); // no samples
  });

  it('kyber_timer_fn: a domain whose total p99 misses its target gets depth × (p99 + 1) / 4, clamped to kyber_depth', () => {
    const { s, ctx } = fresh();
    s.depth[0] = 20;
    s.cpuBuckets[0]![KYBER_TOTAL_LATENCY]![5] = 500; // 1½ × target
    s.cpuBuckets[0]![KYBER_IO_LATENCY]![0] = 500;
    kyber.timer!(s, ctx);
    expect(s.depth[0]).toBe(30); // 20 × 6 / 4
    expect(ctx.records.map((r) => r.rule)).toEqual(['scale-up']);
    s.depth[0] = 250;
    s.cpuBuckets[0]![KYBER_TOTAL_LATENCY]![7] = 500;
    kyber.timer!(s, ctx);
    expect(s.depth[0]).toBe(256);
  });

  it('kyber_timer_fn: congestion (an I/O p90 beyond the target) throttles the domains meeting theirs', () => {
    const { s, ctx } = fresh();
    // writes congested at the device: I/O p90 in bucket 4; reads meet their target (p99 bucket 1)
    s.cpuBuckets[1]![KYBER_IO_LATENCY]![4] = 500;
    s.cpuBuckets[1]![KYBER_TOTAL_LATENCY]![4] = 500;
    s.cpuBuckets[0]![KYBER_IO_LATENCY]![0] = 500;
    s.cpuBuckets[0]![KYBER_TOTAL_LATENCY]![1] = 500;
    kyber.timer!(s, ctx);
    expect(s.depth[0]).toBe(128); // 256 × 2 / 4: throttled
    expect(s.depth[1]).toBe(128); // writes: eased × 5/4, but 128 is their kyber_depth
    expect(ctx.records.map((r) => r.rule)).toEqual(['scale-down']);
    // kyber_resize_domain: never below 1
    s.depth[0] = 1;
    s.cpuBuckets[1]![KYBER_IO_LATENCY]![7] = 500;
    s.cpuBuckets[0]![KYBER_TOTAL_LATENCY]![0] = 500;
    kyber.timer!(s, ctx);
    expect(s.depth[0]).toBe(1);
  });

  it('kyber_timer_fn: without congestion a good p99 is remembered (domain_p99) and used once by the next congested window', () => {
    const { s, ctx } = fresh();
    s.cpuBuckets[0]![KYBER_TOTAL_LATENCY]![1] = 500;
    s.cpuBuckets[0]![KYBER_IO_LATENCY]![0] = 500;
    kyber.timer!(s, ctx);
    expect(s.depth[0]).toBe(256);
    expect(s.domainP99[0]).toBe(1);
    // next window: congestion from writes, no read samples → the remembered p99 is used
    s.cpuBuckets[1]![KYBER_IO_LATENCY]![5] = 500;
    kyber.timer!(s, ctx);
    expect(s.depth[0]).toBe(128);
    expect(s.domainP99[0]).toBe(-1);
    s.cpuBuckets[1]![KYBER_IO_LATENCY]![5] = 500;
    kyber.timer!(s, ctx);
    expect(s.depth[0]).toBe(128); // used once
  });

  it('kyber_timer_fn does not run the queue; the engine arms it only after completions', () => {
    expect(kyber.timerRunsQueue).toBe(false);
    const sim = createSimulation(
      buildModel(
        scenario({ iosched: 'kyber', kernel: '6.18', processes: [proc({ requests: [rd(0, 0)] })] }),
      ),
    );
    while (peekTime(sim) < Infinity && step(sim)) {
      /* to the end */
    }
    // one completion at ~t ms → one timer 25 jiffies (250 Hz) after its jiffy, then quiet
    const s = sim.state.host.elevator as KyberState;
    expect(s.timerJ).toBe(-1);
    expect(s.buckets[0]![KYBER_TOTAL_LATENCY]!.reduce((a, b) => a + b)).toBe(1); // < 500, < 1 s: kept
  });
});

describe('kyber: inspection and determinism', () => {
  it('the view: each domain’s tokens and depth, its lists, the window’s percentiles against the target', () => {
    const { s, ctx } = fresh();
    s.depth[0] = 1;
    insert(s, ctx, false);
    insert(s, ctx, false);
    kyber.dispatch(s, false, ctx);
    s.cpuBuckets[0]![KYBER_TOTAL_LATENCY]![5] = 10;
    s.cpuBuckets[0]![KYBER_IO_LATENCY]![1] = 10;
    const v = kyber.inspect(s, ctx) as KyberView;
    expect(v.domains[0]).toMatchObject({
      name: 'READ',
      tokensInUse: 1,
      depth: 1,
      queued: [],
      flushed: [2],
    });
    expect(v.domains[0]!.latency).toMatchObject({
      targetMs: 2,
      samples: 10,
      ioP90: '≤ 1 ms',
      totalP99: '≤ 3 ms',
      meetsTarget: false,
    });
    expect(v.domains[3]!.latency).toBeUndefined();
    expect(v).toMatchObject({ curDomain: 'READ', batching: '1/16', asyncDepth: 48 });
  });

  it('same scenario, same seed ⇒ the same dispatch order', () => {
    const procs = [proc({ name: 'mix', count: 4, op: 'mix', readFraction: 0.7, sizeKiB: 4 })];
    const sc = scenario({
      iosched: 'kyber',
      kernel: '6.18',
      queueDepth: 4,
      processes: procs,
      stopMs: 300,
    });
    const a = tracedRun(sc);
    const b = tracedRun(sc);
    expect(a.d.length).toBeGreaterThan(10);
    expect(a.d.map((e) => [e.rq, e.sector, e.tNs])).toEqual(
      b.d.map((e) => [e.rq, e.sector, e.tNs]),
    );
  });
});
